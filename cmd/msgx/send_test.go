package main

import (
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/api"
	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/ingress"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// serveAPI runs the real API over real HTTP on the env's databases; a
// sendToken makes it require that ingest token.
func (e *opsEnv) serveAPI(t *testing.T, maxBody int64, sendToken ...string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(api.NewRouter(api.Deps{Store: e.st, Mailbox: e.mb,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)), MaxBodyBytes: maxBody, SendToken: strings.Join(sendToken, "")}))
	t.Cleanup(srv.Close)
	return srv
}

// poll runs the service's poller once: it enqueues what was sent.
func (e *opsEnv) poll(t *testing.T) {
	t.Helper()
	_, err := ingress.NewPoller(e.st, e.mb, clock.Real{}, slog.New(slog.NewTextHandler(io.Discard, nil)), ingress.Config{}).PollOnce(t.Context())
	require.NoError(t, err)
}

// messageDir writes files into a fresh folder.
func messageDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
	return dir
}

// sent parses the "ID<TAB>FILE" lines of send.
func sent(t *testing.T, out string) (ids []int64, files []string) {
	t.Helper()
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		id, file, ok := strings.Cut(l, "\t")
		require.True(t, ok, "ID<TAB>FILE: %q", l)
		n, err := strconv.ParseInt(id, 10, 64)
		require.NoError(t, err, l)
		ids, files = append(ids, n), append(files, file)
	}
	return ids, files
}

func TestSendFolderOverHTTP(t *testing.T) {
	t.Parallel()
	e := newOpsEnv(t)
	srv := e.serveAPI(t, 0)
	b, a, c := flopSTND(1, "1"), flopSTND(2, "2"), flopSTND(3, "3")
	dir := messageDir(t, map[string]string{"b.xml": b, "a.xml": a, "notes.txt": "not a message", "sub/c.xml": c})
	single := filepath.Join(messageDir(t, map[string]string{"one.xml": c}), "one.xml")

	code, out, stderr := runMsgx(t, "send", "--config", e.config, "--url", srv.URL+"/", dir, single)
	require.Equal(t, exitOK, code, stderr)
	ids, files := sent(t, out)
	require.Equal(t, []string{filepath.Join(dir, "a.xml"), filepath.Join(dir, "b.xml"), single}, files,
		"a folder's *.xml in name order, not recursive, then the file")
	require.Len(t, ids, 3)
	require.Less(t, ids[0], ids[1])
	require.Less(t, ids[1], ids[2])
	e.poll(t)
	for i, body := range []string{a, b, c} {
		raw, err := e.mb.ReadRaw(t.Context(), ids[i])
		require.NoError(t, err)
		require.Equal(t, body, string(raw), "the file's bytes are the mailbox row")
		require.Equal(t, vocab.StatusPending, e.message(t, ids[i]).Status, "the service's poller enqueued it")
	}
	require.Equal(t, "msgx send: sent 3 messages\n", stderr, "no bar drawn when stderr is not a terminal")

	code, _, stderr = runMsgx(t, "send", "--config", e.config, "--url", srv.URL+"/", single)
	require.Equal(t, exitOK, code, stderr)
	require.Equal(t, "msgx send: sent 1 message\n", stderr)
}

func TestSendDefaultsToTheConfiguredAddress(t *testing.T) {
	t.Parallel()
	e := newOpsEnv(t)
	srv := e.serveAPI(t, 0)
	config := writeConfig(t, fmt.Sprintf("postgres:\n  url: %q\nhttp:\n  addr: %q\n", e.pgURL, strings.TrimPrefix(srv.URL, "http://")))
	file := filepath.Join(messageDir(t, map[string]string{"m.xml": flopSTND(1, "1")}), "m.xml")
	code, out, stderr := runMsgx(t, "send", "--config", config, file)
	require.Equal(t, exitOK, code, stderr)
	ids, _ := sent(t, out)
	e.poll(t)
	require.Equal(t, vocab.StatusPending, e.message(t, ids[0]).Status)
}

func TestSendDirect(t *testing.T) {
	t.Parallel()
	e := newOpsEnv(t)
	body := flopSTND(7, "7")
	dir := messageDir(t, map[string]string{"1.xml": body, "2.xml": body})

	code, out, stderr := runMsgx(t, "send", "--config", e.config, "--direct", dir)
	require.Equal(t, exitOK, code, stderr)
	ids, _ := sent(t, out)
	require.Len(t, ids, 2)
	unprocessed, err := e.mb.ListAfter(t.Context(), 0, 10)
	require.NoError(t, err)
	require.Equal(t, ids, unprocessed, "inserted as the AODB does: unprocessed rows for the poller")
	raw, err := e.mb.ReadRaw(t.Context(), ids[1])
	require.NoError(t, err)
	require.Equal(t, body, string(raw))
	_, err = e.st.Message(t.Context(), ids[0])
	require.ErrorIs(t, err, store.ErrNotFound, "--direct does not touch msgx's PostgreSQL: the poller enqueues")
}

func TestSendStopsAtTheFirstFailure(t *testing.T) {
	t.Parallel()
	e := newOpsEnv(t)
	srv := e.serveAPI(t, 0)
	dir := messageDir(t, map[string]string{"1.xml": flopSTND(1, "1"), "2.xml": "  \n", "3.xml": flopSTND(3, "3")})

	for _, mode := range [][]string{{"--url", srv.URL}, {"--direct"}} {
		before, err := e.mb.ListAfter(t.Context(), 0, 100)
		require.NoError(t, err)
		code, out, stderr := runMsgx(t, append(append([]string{"send", "--config", e.config}, mode...), dir)...)
		require.Equal(t, exitFailure, code, mode)
		ids, _ := sent(t, out)
		require.Len(t, ids, 1, "only the file before the failure: %s", out)
		requireOneLine(t, "send", stderr)
		require.Contains(t, stderr, filepath.Join(dir, "2.xml")+": empty file (sent 1 of 3)")
		after, err := e.mb.ListAfter(t.Context(), 0, 100)
		require.NoError(t, err)
		require.Len(t, after, len(before)+1, "3.xml was not sent")
	}
}

// msgx send sends the configured ingest token; without it the service's 401
// is one line that names the setting.
func TestSendWithTheIngestToken(t *testing.T) {
	t.Parallel()
	const token = "ingest-token-of-the-airport-0123456789"
	e := newOpsEnv(t, "http:\n  send-token: "+token+"\n")
	srv := e.serveAPI(t, 0, token)
	file := filepath.Join(messageDir(t, map[string]string{"a.xml": flopSTND(1, "1")}), "a.xml")
	code, out, stderr := runMsgx(t, "send", "--config", e.config, "--url", srv.URL, file)
	require.Equal(t, exitOK, code, stderr)
	ids, _ := sent(t, out)
	require.Len(t, ids, 1)

	other := writeConfig(t, strings.Replace(mustRead(t, e.config), token, "another-token-of-the-airport-0123456789", 1))
	code, _, stderr = runMsgx(t, "send", "--config", other, "--url", srv.URL, file)
	require.Equal(t, exitFailure, code)
	requireOneLine(t, "send", stderr)
	require.Contains(t, stderr, "HTTP 401")
	require.Contains(t, stderr, "MSGX_HTTP_SEND_TOKEN")
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

func TestSendRefusedByTheService(t *testing.T) {
	t.Parallel()
	e := newOpsEnv(t)
	srv := e.serveAPI(t, 64)
	file := filepath.Join(messageDir(t, map[string]string{"big.xml": flopSTND(1, strings.Repeat("9", 100))}), "big.xml")
	code, out, stderr := runMsgx(t, "send", "--config", e.config, "--url", srv.URL, file)
	require.Equal(t, exitFailure, code)
	require.Empty(t, out)
	requireOneLine(t, "send", stderr)
	require.Contains(t, stderr, "HTTP 413: message over the limit of 64 bytes")

	code, _, stderr = runMsgx(t, "send", "--config", e.config, "--url", "http://127.0.0.1:1", file)
	require.Equal(t, exitFailure, code)
	requireOneLine(t, "send", stderr)
	require.Contains(t, stderr, "cannot reach http://127.0.0.1:1/cminmsgs/send (is 'msgx serve' running there?")
	require.Contains(t, stderr, "(sent 0 of 1)")

	code, _, stderr = runMsgx(t, "send", "--config", e.config, "--url", "http://u:secret@127.0.0.1:1", file)
	require.Equal(t, exitFailure, code)
	requireOneLine(t, "send", stderr)
	require.NotContains(t, stderr, "secret")
}

func TestSendUsage(t *testing.T) {
	t.Parallel()
	empty := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"send"}, "name at least one FILE or DIR"},
		{[]string{"send", "/no/such/file.xml"}, "/no/such/file.xml: no such file or folder"},
		{[]string{"send", empty}, "no *.xml files in the folder"},
		{[]string{"send", "--direct", "--url", "http://x", empty}, "exclude each other"},
	} {
		code, out, stderr := runMsgx(t, c.args...)
		require.Equal(t, exitUsage, code, c.args)
		require.Empty(t, out)
		requireOneLine(t, "send", stderr)
		require.Contains(t, stderr, c.want)
	}
}
