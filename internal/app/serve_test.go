package app

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

var shanghai = func() *time.Location {
	loc, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		panic(err)
	}
	return loc
}()

// syncBuffer collects the service's JSON log lines.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// testConfig is the service configuration over test databases, with short
// intervals so a test waits milliseconds, not seconds.
func testConfig(pgURL, mailboxDSN string) config.Config {
	cfg := config.Defaults()
	cfg.PGURL, cfg.MailboxDSN = pgURL, mailboxDSN
	cfg.AirportTZ, cfg.Location = "Asia/Shanghai", shanghai
	cfg.PollInterval = 20 * time.Millisecond
	cfg.BackfillInterval = 200 * time.Millisecond
	cfg.SendToken = testSendToken
	return cfg
}

// testSendToken is testConfig's ingest token; post sends it.
const testSendToken = "ingest-token-of-the-test-airport-0123"

// running is an in-process msgx serve.
type running struct {
	base   string
	cancel context.CancelFunc
	done   chan error
	logs   *syncBuffer
	// atServe is the log as it was when the HTTP server first called Accept.
	atServe *watchedListener
}

// watchedListener remembers the log at the server's first Accept: what the
// start logged before it served a request.
type watchedListener struct {
	net.Listener
	logs *syncBuffer
	once sync.Once
	mu   sync.Mutex
	snap string
}

func (w *watchedListener) Accept() (net.Conn, error) {
	w.once.Do(func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.snap = w.logs.String()
	})
	return w.Listener.Accept()
}

func (w *watchedListener) logsBeforeServing() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.snap
}

func startService(t *testing.T, cfg config.Config) *running {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	s := &running{base: "http://" + ln.Addr().String(), cancel: cancel, done: make(chan error, 1), logs: &syncBuffer{}}
	s.atServe = &watchedListener{Listener: ln, logs: s.logs}
	log := slog.New(slog.NewJSONHandler(s.logs, nil))
	go func() { s.done <- serve(ctx, cfg, log, Options{Listener: s.atServe}) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-s.done: //nolint:errcheck // only waits: the test checks serve's result (stop)
		case <-time.After(30 * time.Second):
			t.Error("serve did not stop")
		}
	})
	return s
}

// stop cancels the service and returns Serve's result and how long it took.
func (s *running) stop(t *testing.T) (time.Duration, error) {
	t.Helper()
	began := time.Now()
	s.cancel()
	select {
	case err := <-s.done:
		s.done <- err // for the cleanup
		return time.Since(began), err
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not return after cancel")
		return 0, nil
	}
}

func sisMsg(typ, styp string, seqn int, body string) string {
	return fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?><MSG><META><SNDR>AODB</SNDR><SEQN>%d</SEQN>`+
		`<DTTM>20261202083000</DTTM><TYPE>%s</TYPE><STYP>%s</STYP></META>%s</MSG>`, seqn, typ, styp, body)
}

func fltr(flid int64, extra string) string {
	return fmt.Sprintf(`<FLTR><FLID>%d</FLID><ALCD>CA</ALCD><FLNO>CA%d</FLNO><MVIN>D</MVIN><SODT>02DEC261030</SODT>%s</FLTR>`,
		flid, flid, extra)
}

func dnld(seqn int, records ...string) string {
	return sisMsg("SCHD", "DNLD", seqn, fmt.Sprintf("<SCHD><RECS>%d</RECS>%s</SCHD>", len(records), strings.Join(records, "")))
}

func flopSTND(seqn int, flid int64, stnd string) string {
	return sisMsg("FLOP", "STND", seqn, fmt.Sprintf("<FLOP><FLID>%d</FLID><STND>%s</STND></FLOP>", flid, stnd))
}

func httpDo(t testing.TB, method, url, contentType, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, strings.NewReader(body))
	require.NoError(t, err)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res.StatusCode, b
}

// sendWith posts a message to POST /cminmsgs/send with token ("" for none).
func sendWith(t testing.TB, base, token, xml string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, base+"/cminmsgs/send", strings.NewReader(xml))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/xml")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res.StatusCode, b
}

// post sends a message through POST /cminmsgs/send with testConfig's token
// and returns its mailbox id.
func post(t testing.TB, base, xml string) int64 {
	t.Helper()
	code, body := sendWith(t, base, testSendToken, xml)
	require.Equal(t, http.StatusOK, code, "%s", body)
	id, err := strconv.ParseInt(string(body), 10, 64)
	require.NoError(t, err)
	return id
}

type messageJSON struct {
	MsgID      int64  `json:"msg_id"`
	Status     string `json:"status"`
	ErrorClass string `json:"error_class"`
	Reason     string `json:"reason"`
}

func getMessage(t testing.TB, base string, id int64) (int, messageJSON) {
	t.Helper()
	code, body := httpDo(t, http.MethodGet, fmt.Sprintf("%s/messages/%d", base, id), "", "")
	var m messageJSON
	if code == http.StatusOK {
		require.NoError(t, json.Unmarshal(body, &m), "%s", body)
	}
	return code, m
}

func getFlight(t testing.TB, base string, flid int64) (*flight.State, []byte) {
	t.Helper()
	code, body := httpDo(t, http.MethodGet, fmt.Sprintf("%s/flights/%d", base, flid), "", "")
	require.Equal(t, http.StatusOK, code, "%s", body)
	var st flight.State
	require.NoError(t, json.Unmarshal(body, &st))
	return &st, body
}

// eventually polls cond until it holds or the deadline passes.
func eventually(t testing.TB, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for: %s", within, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitTerminal waits until GET /messages/{id} shows a terminal status.
func waitTerminal(t testing.TB, base string, id int64) messageJSON {
	t.Helper()
	var m messageJSON
	eventually(t, 20*time.Second, fmt.Sprintf("message %d terminal", id), func() bool {
		code, got := getMessage(t, base, id)
		m = got
		return code == http.StatusOK && (m.Status == vocab.StatusSucceeded || m.Status == vocab.StatusSkipped || m.Status == vocab.StatusDead)
	})
	return m
}

func TestServeEndToEnd(t *testing.T) {
	t.Parallel()
	pg := testdb.Postgres(t)
	mbdb, dsn := testdb.Mailbox(t)
	svc := startService(t, testConfig(pg.URL, dsn))

	// The ingest token is required; the body limit in effect is logged.
	code, body := sendWith(t, svc.base, "", flopSTND(9, 31, "1"))
	require.Equal(t, http.StatusUnauthorized, code, "%s", body)
	code, body = sendWith(t, svc.base, "not-"+testSendToken, flopSTND(9, 31, "1"))
	require.Equal(t, http.StatusUnauthorized, code, "%s", body)
	var packet int64
	require.NoError(t, mbdb.QueryRowContext(t.Context(), "SELECT @@max_allowed_packet").Scan(&packet))
	require.Contains(t, svc.logs.String(), fmt.Sprintf(`"msg":"send body limit","bytes":%d`, min(int64(config.Defaults().MaxMessageBytes), mailbox.BodyLimit(packet))))
	require.NotContains(t, svc.logs.String(), "http.send-token (MSGX_HTTP_SEND_TOKEN) is not set")

	d := post(t, svc.base, dnld(1, fltr(31, "<STND>100</STND><GTDT GTNO=\"2\"><GATE>A1</GATE></GTDT><GTDT GTNO=\"5\"><GATE>A1</GATE><GTYP>I</GTYP></GTDT>")))
	f := post(t, svc.base, flopSTND(2, 31, "205"))
	require.Equal(t, vocab.StatusSucceeded, waitTerminal(t, svc.base, d).Status)
	m := waitTerminal(t, svc.base, f)
	require.Equal(t, vocab.StatusSucceeded, m.Status, "%s %s", m.ErrorClass, m.Reason)

	st, body := getFlight(t, svc.base, 31)
	require.Equal(t, 2, len(mailboxRows(t, mbdb)), "the refused sends wrote nothing")
	require.Equal(t, "205", st.Scalars["STND"].Raw)
	require.Equal(t, "CA31", st.Scalars["FLNO"].Raw)
	require.Equal(t, int64(2), st.StateVersion)
	require.Equal(t, f, st.LastMessageID)
	require.Len(t, st.Groups[flight.GroupGates], 2)
	require.Equal(t, "I", st.Groups[flight.GroupGates][1].Fields["GTYP"].Raw)
	stored, err := pgstore.New(pg.Pool).Flights(t.Context(), []int64{31})
	require.NoError(t, err)
	want, err := flight.EventPayload(stored[31])
	require.NoError(t, err)
	require.JSONEq(t, string(want), string(body))

	mb := mailbox.New(mbdb, mailbox.WithZone(shanghai))
	for _, id := range []int64{d, f} {
		eventually(t, 10*time.Second, fmt.Sprintf("mailbox row %d backfilled", id), func() bool {
			row, err := mb.Get(t.Context(), id)
			require.NoError(t, err)
			return row.ProcessedAt != nil
		})
		row, err := mb.Get(t.Context(), id)
		require.NoError(t, err)
		require.Equal(t, vocab.StatusSucceeded, row.Status)
		require.Equal(t, "AODB", row.Sndr)
	}
	require.Contains(t, svc.logs.String(), `"msg_id":`+strconv.FormatInt(f, 10), "JSON logs carry the msg id")

	took, err := svc.stop(t)
	require.NoError(t, err)
	require.Less(t, took, 5*time.Second, "graceful shutdown is prompt")
	require.Contains(t, svc.logs.String(), `"msg":"shutdown: complete"`)
	_, err = http.Get(svc.base + "/messages/1")
	require.Error(t, err, "HTTP no longer accepted after shutdown")
}

// In dev without an ingest token, sends still work, and the start says so
// before it serves.
func TestServeWithoutSendTokenWarns(t *testing.T) {
	t.Parallel()
	pg := testdb.Postgres(t)
	_, dsn := testdb.Mailbox(t)
	cfg := testConfig(pg.URL, dsn)
	cfg.SendToken = ""
	svc := startService(t, cfg)
	id := post(t, svc.base, flopSTND(1, 31, "1")) // its token is ignored: none is configured
	code, body := sendWith(t, svc.base, "", flopSTND(2, 31, "2"))
	require.Equal(t, http.StatusOK, code, "%s", body)
	require.NotZero(t, id)
	// Logged before the server accepted its first connection (so before any
	// send, however loaded the machine): the answered sends above prove
	// the server has accepted.
	require.Contains(t, svc.atServe.logsBeforeServing(), `"level":"WARN","msg":"http.send-token (MSGX_HTTP_SEND_TOKEN) is not set`)
}

// A start check failure is one actionable line, never a hang.
func TestServeStartChecks(t *testing.T) {
	t.Parallel()
	pg := testdb.Postgres(t)
	empty := testdb.PostgresEmpty(t)
	_, dsn := testdb.Mailbox(t)
	// A port nobody listens on: connection refused at once.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	dead := ln.Addr().String()
	require.NoError(t, ln.Close())

	cases := []struct {
		name string
		cfg  config.Config
		want string
	}{
		{"pg unreachable", testConfig("postgres://postgres:secret@"+dead+"/x?sslmode=disable", dsn), "PostgreSQL unreachable (check postgres.url / MSGX_PG_URL)"},
		{"pg bad url", testConfig("postgres://%zz", dsn), "MSGX_PG_URL"},
		{"schema missing", testConfig(empty.URL, dsn), "run: msgx schema migrate --yes"},
		{"mailbox unreachable", testConfig(pg.URL, "root:secret@tcp("+dead+")/mb?parseTime=true"), "mailbox unreachable (check MSGX_MAILBOX_DSN)"},
	}
	for _, c := range cases {
		began := time.Now()
		err := Serve(t.Context(), c.cfg, slog.New(slog.NewJSONHandler(io.Discard, nil)))
		require.Error(t, err, c.name)
		require.Contains(t, err.Error(), c.want, c.name)
		require.NotContains(t, err.Error(), "\n", c.name)
		require.NotContains(t, err.Error(), "secret", c.name)
		require.Less(t, time.Since(began), 15*time.Second, c.name)
	}

	// The HTTP port taken: refused at start, after the database checks.
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer busy.Close()
	cfg := testConfig(pg.URL, dsn)
	cfg.HTTPAddr = busy.Addr().String()
	err = Serve(t.Context(), cfg, slog.New(slog.NewJSONHandler(io.Discard, nil)))
	require.ErrorContains(t, err, "MSGX_HTTP_ADDR")
}

// mailboxRows reads DATE_PROCESSED (wall clock text) and STATUS of every row.
func mailboxRows(t testing.TB, db *sql.DB) map[int64][2]string {
	t.Helper()
	rows, err := db.QueryContext(t.Context(), `SELECT CMINMSGS_ID, COALESCE(DATE_FORMAT(CMINMSGS_DATE_PROCESSED, '%Y-%m-%d %H:%i:%s'), ''),
		COALESCE(CMINMSGS_STATUS, '') FROM cminmsgs ORDER BY CMINMSGS_ID`)
	require.NoError(t, err)
	defer rows.Close()
	out := map[int64][2]string{}
	for rows.Next() {
		var id int64
		var at, status string
		require.NoError(t, rows.Scan(&id, &at, &status))
		out[id] = [2]string{at, status}
	}
	require.NoError(t, rows.Err())
	return out
}
