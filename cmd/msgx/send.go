package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	neturl "net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/oneline"
	"github.com/msgx-aodb/msgx/internal/plural"
)

func init() {
	register("send", "send message files (or folders of *.xml) to the mailbox, with a progress bar", runSend)
}

const sendUsage = `usage: msgx send [--url URL | --direct] [--config FILE] FILE|DIR ...

Sends each FILE, and each DIR's *.xml files in name order, to the mailbox,
one message per file, in the order given, and prints the mailbox id of each
("ID<TAB>FILE"). By default it posts to the running service's
POST /cminmsgs/send (--url, default http://<http.addr of the configuration>),
which also enqueues the message, with the ingest token of the configuration
(http.send-token / MSGX_HTTP_SEND_TOKEN) when set; --direct inserts the rows straight into the
mailbox table (mailbox.dsn), as the AODB does, and the service's poller picks
them up. Accepted means stored, not processed: see 'msgx status'.

It stops at the first failure and says how many were sent: re-run with the
files not yet sent.

Exit codes: 0 all sent; 1 a send failed (service or mailbox unreachable, a
message refused); 2 bad flags, a missing file, an empty folder or an invalid
configuration.`

// sendTimeout bounds one HTTP send.
const sendTimeout = 30 * time.Second

func runSend(ctx context.Context, args []string, s streams) int {
	fs := newFlags("send", sendUsage)
	configPath := configFlag(fs)
	url := fs.String("url", "", "base URL of the running service (default http://<http.addr>)")
	direct := fs.Bool("direct", false, "insert straight into the mailbox table (mailbox.dsn) instead of over HTTP")
	if code, ok := parseFlags(fs, args, s); !ok {
		return code
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(s.err, "msgx send: name at least one FILE or DIR (msgx send --help)")
		return exitUsage
	}
	if *direct && *url != "" {
		fmt.Fprintln(s.err, "msgx send: --url and --direct exclude each other")
		return exitUsage
	}
	files, err := sendFiles(fs.Args())
	if err != nil {
		fmt.Fprintf(s.err, "msgx send: %s\n", err)
		return exitUsage
	}
	cfg, ok := loadConfig("send", *configPath, s)
	if !ok {
		return exitUsage
	}

	var send func(ctx context.Context, body []byte) (int64, error)
	if *direct {
		mb, db, err := openMailbox(ctx, cfg)
		if err != nil {
			fmt.Fprintf(s.err, "msgx send: %s (sent 0 of %d)\n", err, len(files))
			return exitFailure
		}
		defer db.Close()
		send = func(ctx context.Context, body []byte) (int64, error) { return sendDirect(ctx, mb, body) }
	} else {
		base := *url
		if base == "" {
			base = "http://" + cfg.HTTPAddr
		}
		base = strings.TrimSuffix(base, "/")
		client := &http.Client{Timeout: sendTimeout}
		send = func(ctx context.Context, body []byte) (int64, error) {
			return sendHTTP(ctx, client, base, cfg.SendToken, body)
		}
	}

	bar := newBar(s.err, len(files), "sending")
	for i, f := range files {
		body, err := os.ReadFile(f)
		if err == nil {
			err = checkBody(body)
		}
		var id int64
		if err == nil {
			id, err = send(ctx, body)
		}
		if err != nil {
			_ = bar.Exit()
			fmt.Fprintf(s.err, "msgx send: %s: %s (sent %d of %d)\n", f, oneline.Err(err), i, len(files))
			return exitFailure
		}
		if isTTY(s.err) {
			_ = bar.Clear() // a line on a shared terminal must not land inside the bar
		}
		fmt.Fprintf(s.out, "%d\t%s\n", id, f)
		_ = bar.Add(1)
	}
	_ = bar.Finish()
	fmt.Fprintf(s.err, "msgx send: sent %s\n", plural.Count(len(files), "message"))
	return exitOK
}

// sendFiles expands the arguments: a file is itself, a folder its *.xml
// files in name order (not recursive). A missing path or a folder without
// *.xml is an error.
func sendFiles(args []string) ([]string, error) {
	var files []string
	for _, a := range args {
		fi, err := os.Stat(a)
		if err != nil {
			return nil, fmt.Errorf("%s: no such file or folder", a)
		}
		if !fi.IsDir() {
			files = append(files, a)
			continue
		}
		entries, err := os.ReadDir(a)
		if err != nil {
			return nil, fmt.Errorf("%s: %s", a, oneline.Err(err))
		}
		var names []string
		for _, e := range entries {
			if !e.IsDir() && strings.EqualFold(filepath.Ext(e.Name()), ".xml") {
				names = append(names, e.Name())
			}
		}
		if len(names) == 0 {
			return nil, fmt.Errorf("%s: no *.xml files in the folder", a)
		}
		sort.Strings(names)
		for _, n := range names {
			files = append(files, filepath.Join(a, n))
		}
	}
	return files, nil
}

// checkBody refuses what the mailbox must not hold, before sending it: the
// same rules as POST /cminmsgs/send, so both ways behave alike.
func checkBody(body []byte) error {
	switch {
	case len(bytes.TrimSpace(body)) == 0:
		return errors.New("empty file")
	case !utf8.Valid(body):
		return errors.New("not valid UTF-8 (the mailbox stores UTF-8 text; convert the file first)")
	}
	return nil
}

func sendDirect(ctx context.Context, mb *mailbox.Mailbox, body []byte) (int64, error) {
	id, err := mb.Insert(ctx, body, time.Now())
	switch {
	case errors.Is(err, mailbox.ErrTooLarge):
		return 0, fmt.Errorf("too large for the mailbox (its column holds %d bytes; an INSERT must fit the server's max_allowed_packet): %s", mailbox.MaxBody, oneline.Err(err))
	case err != nil:
		return 0, fmt.Errorf("mailbox insert failed (check mailbox.dsn / MSGX_MAILBOX_DSN): %s", oneline.Err(err))
	}
	return id, nil
}

// sendHTTP posts body with the ingest token (http.send-token) when one is
// configured.
func sendHTTP(ctx context.Context, client *http.Client, base, token string, body []byte) (int64, error) {
	endpoint := base + "/cminmsgs/send"
	shown := endpoint // for messages: without a password
	if u, err := neturl.Parse(endpoint); err == nil {
		shown = u.Redacted()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return 0, fmt.Errorf("--url %q: %s", base, oneline.Err(err))
	}
	req.Header.Set("Content-Type", "application/xml; charset=utf-8")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := client.Do(req)
	if err != nil {
		return 0, fmt.Errorf("cannot reach %s (is 'msgx serve' running there? pass --url, or --direct): %s", shown, oneline.Err(err))
	}
	defer res.Body.Close()
	text, err := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	if err != nil {
		return 0, fmt.Errorf("%s: reading the answer: %s", shown, oneline.Err(err))
	}
	if res.StatusCode != http.StatusOK {
		var e struct {
			Error string `json:"error"`
		}
		msg := strings.TrimSpace(string(text))
		if json.Unmarshal(text, &e) == nil && e.Error != "" {
			msg = e.Error
		}
		if len(msg) > 200 {
			msg = msg[:200] + "…"
		}
		if res.StatusCode == http.StatusUnauthorized {
			msg += " (set http.send-token / MSGX_HTTP_SEND_TOKEN to the service's ingest token)"
		}
		return 0, fmt.Errorf("refused by %s: HTTP %d: %s", shown, res.StatusCode, msg)
	}
	id, err := strconv.ParseInt(strings.TrimSpace(string(text)), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s answered %q, not a mailbox id (is --url a msgx service?)", shown, strings.TrimSpace(string(text)))
	}
	return id, nil
}
