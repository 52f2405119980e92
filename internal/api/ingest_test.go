package api_test

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/api"
	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/contracttest"
	"github.com/msgx-aodb/msgx/internal/ingress"
	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/pump"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

var (
	airport = time.FixedZone("CST", 8*3600)
	t0      = time.Date(2026, 12, 2, 0, 30, 0, 0, time.UTC)
	quiet   = slog.New(slog.NewTextHandler(io.Discard, nil))
)

const xmlBody = "<MSG><META><SNDR>AODB</SNDR></META><DATA>é</DATA></MSG>"

type sendEnv struct {
	pg  *testdb.PG
	st  store.Store
	db  *sql.DB
	dsn string
	mb  *mailbox.Mailbox
	clk *clock.Fake
}

func newSendEnv(t *testing.T) *sendEnv {
	t.Helper()
	pg := testdb.Postgres(t)
	db, dsn := testdb.Mailbox(t)
	return &sendEnv{pg: pg, st: pgstore.New(pg.Pool), db: db, dsn: dsn,
		mb: mailbox.New(db, mailbox.WithZone(airport)), clk: clock.NewFake(t0)}
}

// serve starts the router over real HTTP; mutate adjusts the deps. Every
// answer is checked against docs/openapi.yaml (newRouter).
func (e *sendEnv) serve(t *testing.T, mutate ...func(*api.Deps)) string {
	t.Helper()
	deps := api.Deps{Store: e.st, Mailbox: e.mb, Clock: e.clk, Log: quiet}
	for _, m := range mutate {
		m(&deps)
	}
	srv := httptest.NewServer(newRouter(t, deps))
	t.Cleanup(srv.Close)
	return srv.URL
}

// newRouter is the router every test uses: each answer it gives is checked
// against the contract, docs/openapi.yaml, so a route's real responses
// cannot leave it unnoticed.
func newRouter(t *testing.T, deps api.Deps) http.Handler {
	t.Helper()
	return contracttest.Wrap(t, api.NewRouter(deps))
}

func (e *sendEnv) rows(t *testing.T) int {
	t.Helper()
	var n int
	require.NoError(t, e.db.QueryRowContext(t.Context(), "SELECT COUNT(*) FROM cminmsgs").Scan(&n))
	return n
}

func do(t *testing.T, method, url, contentType string, body io.Reader) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, body)
	require.NoError(t, err)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	requireUTCTimes(t, res, b)
	return res, b
}

func send(t *testing.T, base, contentType string, body io.Reader) (*http.Response, []byte) {
	t.Helper()
	return do(t, http.MethodPost, base+"/cminmsgs/send", contentType, body)
}

// requireError checks an error answer: its status and the JSON body.
func requireError(t *testing.T, res *http.Response, body []byte, status int) {
	t.Helper()
	require.Equal(t, status, res.StatusCode, "body: %s", body)
	require.Equal(t, "application/json", res.Header.Get("Content-Type"))
	var e struct {
		Error  string `json:"error"`
		Status int    `json:"status"`
	}
	require.NoError(t, json.Unmarshal(body, &e), "body: %s", body)
	require.Equal(t, status, e.Status)
	require.NotEmpty(t, e.Error)
}

func TestSendAcceptsXML(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	var rings atomic.Int32 // Inserted wakes the poller
	base := e.serve(t, func(d *api.Deps) { d.Inserted = func() { rings.Add(1) } })
	for _, ct := range []string{"application/xml", "text/xml", "application/xml; charset=UTF-8", "text/xml;charset=utf-8"} {
		res, body := send(t, base, ct, strings.NewReader(xmlBody))
		require.Equal(t, http.StatusOK, res.StatusCode, "%s: %s", ct, body)
		require.Equal(t, "text/plain; charset=utf-8", res.Header.Get("Content-Type"))
		id, err := strconv.ParseInt(string(body), 10, 64)
		require.NoError(t, err, "the body is the mailbox id: %q", body)

		raw, err := e.mb.ReadRaw(t.Context(), id)
		require.NoError(t, err)
		require.Equal(t, xmlBody, string(raw), "stored byte for byte")
		row, err := e.mb.Get(t.Context(), id)
		require.NoError(t, err)
		require.True(t, row.ReceivedAt.Equal(t0), "received at the clock's time")
		require.Nil(t, row.ProcessedAt)

		_, err = e.st.Message(t.Context(), id)
		require.ErrorIs(t, err, store.ErrNotFound, "the poller enqueues it, in id order")
	}
	require.Equal(t, 4, e.rows(t))
	require.Equal(t, int32(4), rings.Load(), "every send wakes the poller")

	res, body := send(t, base, "application/json", strings.NewReader(xmlBody))
	requireError(t, res, body, http.StatusUnsupportedMediaType)
	require.Equal(t, int32(4), rings.Load(), "a refused send inserts nothing and rings nothing")
}

func TestSendRefusesOtherMediaTypes(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	base := e.serve(t)
	for _, ct := range []string{"", "application/json", "text/plain", "application/xml; charset=iso-8859-1",
		"text/xml; charset=utf-16", "application/xml; charset", "application/soap+xml"} {
		res, body := send(t, base, ct, strings.NewReader(xmlBody))
		requireError(t, res, body, http.StatusUnsupportedMediaType)
	}
	require.Zero(t, e.rows(t), "nothing written")
}

func TestSendRefusesTooLargeBody(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	base := e.serve(t, func(d *api.Deps) { d.MaxBodyBytes = 1024 })
	big := "<MSG>" + strings.Repeat("x", 1024) + "</MSG>"

	res, body := send(t, base, "application/xml", strings.NewReader(big)) // with Content-Length
	requireError(t, res, body, http.StatusRequestEntityTooLarge)
	// Without a length (chunked) the limit is enforced while reading.
	res, body = send(t, base, "application/xml", io.MultiReader(strings.NewReader(big)))
	requireError(t, res, body, http.StatusRequestEntityTooLarge)
	require.Zero(t, e.rows(t))

	fits := "<MSG>" + strings.Repeat("x", 1024-len("<MSG></MSG>")) + "</MSG>"
	res, body = send(t, base, "application/xml", io.MultiReader(strings.NewReader(fits)))
	require.Equal(t, http.StatusOK, res.StatusCode, "exactly the limit is accepted: %s", body)
	require.Equal(t, 1, e.rows(t))
}

// msgOf is a message of exactly n bytes.
func msgOf(n int64) string {
	return "<MSG>" + strings.Repeat("x", int(n)-len("<MSG></MSG>")) + "</MSG>"
}

// The send limit is derived from the real mailbox server's
// max_allowed_packet: a body of the limit is stored whole, one byte more is
// 413 naming the limit; the configured limit stays an upper bound.
func TestSendLimitFollowsTheMailboxServer(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	var packet int64
	require.NoError(t, e.db.QueryRowContext(t.Context(), "SELECT @@max_allowed_packet").Scan(&packet))
	limit, err := api.SendLimit(t.Context(), e.mb, api.DefaultMaxBodyBytes)
	require.NoError(t, err)
	require.Equal(t, min(api.DefaultMaxBodyBytes, mailbox.BodyLimit(packet)), limit)
	small, err := api.SendLimit(t.Context(), e.mb, 1024)
	require.NoError(t, err)
	require.Equal(t, int64(1024), small, "the configured limit is an upper bound")

	base := e.serve(t, func(d *api.Deps) { d.MaxBodyBytes = limit })
	res, body := send(t, base, "application/xml", strings.NewReader(msgOf(limit+1)))
	requireError(t, res, body, http.StatusRequestEntityTooLarge)
	require.Contains(t, string(body), "limit of "+strconv.FormatInt(limit, 10)+" bytes")
	require.Zero(t, e.rows(t))

	res, body = send(t, base, "application/xml", strings.NewReader(msgOf(limit)))
	require.Equal(t, http.StatusOK, res.StatusCode, "a body of the limit is stored: %s", body)
	id, err := strconv.ParseInt(string(body), 10, 64)
	require.NoError(t, err)
	raw, err := e.mb.ReadRaw(t.Context(), id)
	require.NoError(t, err)
	require.Len(t, raw, int(limit))
}

// A body under the configured limit that the mailbox server refuses as over
// its max_allowed_packet (the server's setting was lowered after start) is
// the sender's 413, never 503 "unavailable".
func TestSendOverTheServersPacketIs413(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	var packet int64
	require.NoError(t, e.db.QueryRowContext(t.Context(), "SELECT @@max_allowed_packet").Scan(&packet))
	n := min(packet, mailbox.MaxBody) - 8 // 16 777 208 on a 16 MiB server
	if n <= mailbox.BodyLimit(packet) {
		t.Skipf("max_allowed_packet %d leaves no body between the packet and the column", packet)
	}
	base := e.serve(t, func(d *api.Deps) { d.MaxBodyBytes = api.DefaultMaxBodyBytes })
	res, body := send(t, base, "application/xml", strings.NewReader(msgOf(n)))
	requireError(t, res, body, http.StatusRequestEntityTooLarge)
	require.Zero(t, e.rows(t))
}

func TestSendRefusesEmptyOrNonUTF8Body(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	base := e.serve(t)
	for _, b := range []string{"", " \r\n\t", "<MSG>\xff\xfe</MSG>", "<MSG>\xc3</MSG>"} {
		res, body := send(t, base, "application/xml", strings.NewReader(b))
		requireError(t, res, body, http.StatusBadRequest)
	}
	require.Zero(t, e.rows(t))
}

// The mailbox insert is the acceptance: the send does not touch msgx's own
// database (it answers with PostgreSQL down), and the poller enqueues the row.
func TestSendLeavesTheEnqueueToThePoller(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	closed, err := pgxpool.New(t.Context(), e.pg.URL)
	require.NoError(t, err)
	closed.Close()
	base := e.serve(t, func(d *api.Deps) { d.Store = pgstore.New(closed) })

	res, body := send(t, base, "application/xml", strings.NewReader(xmlBody))
	require.Equal(t, http.StatusOK, res.StatusCode, "body: %s", body)
	id, err := strconv.ParseInt(string(body), 10, 64)
	require.NoError(t, err)
	_, err = e.st.Message(t.Context(), id)
	require.ErrorIs(t, err, store.ErrNotFound, "not queued yet")

	n, err := ingress.NewPoller(e.st, e.mb, e.clk, quiet, ingress.Config{}).PollOnce(t.Context())
	require.NoError(t, err)
	require.Equal(t, 1, n)
	m, err := e.st.Message(t.Context(), id)
	require.NoError(t, err)
	require.Equal(t, vocab.StatusPending, m.Status)
	require.True(t, m.FirstSeenAt.Equal(t0))
}

func TestSendMailboxDownIs503(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	down, err := mailbox.Open(t.Context(), e.dsn)
	require.NoError(t, err)
	require.NoError(t, down.Close())
	base := e.serve(t, func(d *api.Deps) { d.Mailbox = mailbox.New(down) })
	res, body := send(t, base, "application/xml", strings.NewReader(xmlBody))
	requireError(t, res, body, http.StatusServiceUnavailable)
	counts, err := e.st.QueueCounts(t.Context())
	require.NoError(t, err)
	require.Empty(t, counts)
}

func TestSendRoutesAnswerJSON(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	base := e.serve(t)
	res, body := do(t, http.MethodGet, base+"/cminmsgs/send", "", nil)
	requireError(t, res, body, http.StatusMethodNotAllowed)
	res, body = do(t, http.MethodPost, base+"/nowhere", "application/xml", bytes.NewReader([]byte(xmlBody)))
	requireError(t, res, body, http.StatusNotFound)
}

// sisUpd is a SIS schedule update of flight 1 setting STND.
func sisUpd(seqn int, stand string) string {
	return `<?xml version="1.0" encoding="UTF-8"?><MSG><META><SNDR>AODB</SNDR><SEQN>` + strconv.Itoa(seqn) +
		`</SEQN><DTTM>20261202080000</DTTM><TYPE>SCHD</TYPE><STYP>UPD</STYP></META><SCHD><RECS>1</RECS><FLTR><FLID>1</FLID>` +
		`<ALCD>CA</ALCD><FLNO>CA1</FLNO><MVIN>D</MVIN><SODT>02DEC261030</SODT><STND>` + stand + `</STND></FLTR></SCHD></MSG>`
}

// A message sent over HTTP while an older AODB row is still uncommitted
// (BEGIN; INSERT held) does not overtake it: the send only inserts, the
// poller holds the hole, and once the older row commits both are processed
// in id order — the newer value wins (rules 1, 16).
func TestSendDoesNotOvertakeAnOlderMailboxRow(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	base := e.serve(t)
	poller := ingress.NewPoller(e.st, e.mb, e.clk, quiet, ingress.Config{})
	pump := pump.New(e.st, e.mb, nil, e.clk, quiet, pump.DefaultConfig())
	drain := func() {
		for range 100 {
			wait, err := pump.Step(t.Context())
			require.NoError(t, err)
			if wait > 0 {
				return
			}
		}
	}
	first, err := e.mb.Insert(t.Context(), []byte(sisUpd(1, "FIRST")), t0)
	require.NoError(t, err)
	n, err := poller.PollOnce(t.Context())
	require.NoError(t, err)
	require.Equal(t, 1, n)

	tx, err := e.db.BeginTx(t.Context(), nil)
	require.NoError(t, err)
	defer func() { _ = tx.Rollback() }()
	res, err := tx.ExecContext(t.Context(), "INSERT INTO cminmsgs (CMINMSGS_CLOB_MSG, CMINMSGS_DATE_RECEIVED, CMINMSGS_STATUS) VALUES (?, NOW(), 'VALID')",
		sisUpd(2, "OLDER"))
	require.NoError(t, err)
	older, err := res.LastInsertId()
	require.NoError(t, err)

	resp, body := send(t, base, "application/xml", strings.NewReader(sisUpd(3, "NEWER")))
	require.Equal(t, http.StatusOK, resp.StatusCode, "body: %s", body)
	sent, err := strconv.ParseInt(string(body), 10, 64)
	require.NoError(t, err)
	require.Equal(t, older+1, sent)
	_, err = e.st.Message(t.Context(), sent)
	require.ErrorIs(t, err, store.ErrNotFound, "the send does not enqueue ahead of the older row")

	_, err = poller.PollOnce(t.Context())
	require.NoError(t, err)
	drain()
	require.NoError(t, tx.Commit())
	_, err = poller.PollOnce(t.Context())
	require.NoError(t, err)
	drain()

	f, err := e.st.Flights(t.Context(), []int64{1})
	require.NoError(t, err)
	require.Equal(t, "NEWER", f[1].Scalars["STND"].Raw, "the newer value wins")
	evs, err := e.st.EventsOfFlight(t.Context(), 1)
	require.NoError(t, err)
	var order []int64
	for _, ev := range evs {
		if ev.Target == vocab.TargetMsg {
			order = append(order, ev.MsgID)
		}
	}
	require.Equal(t, []int64{first, older, sent}, order, "Kafka order is id order")
}
