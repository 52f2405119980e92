package app

// Crash recovery (docs/design.md §6): a crash before the commit, between the
// commit and the mailbox backfill, or during the backfill must leave every
// message with exactly one business effect and every mailbox row backfilled
// once. The in-process tests hit each window deterministically; the
// subprocess tests kill -9 a real `msgx serve` under load and SIGTERM it.

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/backfill"
	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/ingress"
	"github.com/msgx-aodb/msgx/internal/kafka"
	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/pump"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

var quiet = slog.New(slog.NewJSONHandler(io.Discard, nil))

// ---------------------------------------------------------------------------
// The load: one DNLD of nFlights flights, then nFlops FLOP/STND messages,
// each setting one flight's STND to a value no other message uses.

type load struct {
	flids    []int64
	dnld     string
	flops    []string
	flopFor  []int64 // flight of each FLOP
	stndOf   []string
	badEvery int     // insert a malformed message after every badEvery FLOPs (0: none)
	bad      []int64 // mailbox ids of the malformed messages inserted
}

func newLoad(nFlights, nFlops int) *load {
	l := &load{}
	var recs []string
	for i := range nFlights {
		flid := int64(1001 + i)
		l.flids = append(l.flids, flid)
		recs = append(recs, fltr(flid, fmt.Sprintf("<STND>I%d</STND>", flid)))
	}
	l.dnld = dnld(900000, recs...)
	for i := range nFlops {
		flid := l.flids[(i*7)%nFlights] // 7 is prime to nFlights: spread, each flight as often
		stnd := fmt.Sprintf("S%d", i)
		l.flops = append(l.flops, flopSTND(i+1, flid, stnd))
		l.flopFor = append(l.flopFor, flid)
		l.stndOf = append(l.stndOf, stnd)
	}
	return l
}

// insert writes the load into the mailbox as the AODB would and returns the
// mailbox ids: ids[0] is the DNLD, ids[1+i] FLOP i (malformed messages,
// if any, in l.bad).
func (l *load) insert(t testing.TB, mb *mailbox.Mailbox, at time.Time) []int64 {
	t.Helper()
	ids := make([]int64, 0, 1+len(l.flops))
	for i, x := range append([]string{l.dnld}, l.flops...) {
		id, err := mb.Insert(t.Context(), []byte(x), at)
		require.NoError(t, err)
		ids = append(ids, id)
		if l.badEvery > 0 && i > 0 && i%l.badEvery == 0 {
			id, err := mb.Insert(t.Context(), []byte("<MSG><META>cut off"), at)
			require.NoError(t, err)
			l.bad = append(l.bad, id)
		}
	}
	return ids
}

// insertMany is insert with multi-row statements, for loads of tens of
// thousands of messages (test setup only): the ids are read back in order,
// the test's mailbox holding nothing else.
func (l *load) insertMany(t testing.TB, mbdb *sql.DB) []int64 {
	t.Helper()
	var bodies []string
	var isBad []bool
	for i, x := range append([]string{l.dnld}, l.flops...) {
		bodies, isBad = append(bodies, x), append(isBad, false)
		if l.badEvery > 0 && i > 0 && i%l.badEvery == 0 {
			bodies, isBad = append(bodies, "<MSG><META>cut off"), append(isBad, true)
		}
	}
	const chunk = 500
	for from := 0; from < len(bodies); from += chunk {
		part := bodies[from:min(from+chunk, len(bodies))]
		args := make([]any, len(part))
		for i, b := range part {
			args[i] = b
		}
		_, err := mbdb.ExecContext(t.Context(), "INSERT INTO cminmsgs (CMINMSGS_CLOB_MSG, CMINMSGS_DATE_RECEIVED, CMINMSGS_STATUS) VALUES "+
			strings.TrimSuffix(strings.Repeat("(?, NOW(), 'VALID'),", len(part)), ","), args...)
		require.NoError(t, err)
	}
	rows, err := mbdb.QueryContext(t.Context(), "SELECT CMINMSGS_ID FROM cminmsgs ORDER BY CMINMSGS_ID")
	require.NoError(t, err)
	defer rows.Close()
	var ids []int64
	for i := 0; rows.Next(); i++ {
		var id int64
		require.NoError(t, rows.Scan(&id))
		if isBad[i] {
			l.bad = append(l.bad, id)
		} else {
			ids = append(ids, id)
		}
	}
	require.NoError(t, rows.Err())
	require.Len(t, ids, 1+len(l.flops))
	return ids
}

// verifyExactlyOnce checks the end state of a processed load: every message
// SUCCEEDED once, every flight changed once per FLOP in mailbox order, two
// outbox events per changed flight per message, and every mailbox row
// backfilled with the time its processing committed.
func (l *load) verifyExactlyOnce(t testing.TB, pool *pgxpool.Pool, mbdb *sql.DB, ids []int64) {
	t.Helper()
	ctx := t.Context()

	// Processing: all SUCCEEDED.
	statuses := map[int64]string{}
	finished := map[int64]time.Time{}
	rows, err := pool.Query(ctx, "SELECT msg_id, status, finished_at FROM proc_state")
	require.NoError(t, err)
	for rows.Next() {
		var id int64
		var st string
		var at *time.Time
		require.NoError(t, rows.Scan(&id, &st, &at))
		statuses[id] = st
		if at != nil {
			finished[id] = *at
		}
	}
	require.NoError(t, rows.Err())
	require.Len(t, statuses, len(ids)+len(l.bad))
	for _, id := range ids {
		require.Equal(t, vocab.StatusSucceeded, statuses[id], "message %d", id)
	}
	for _, id := range l.bad {
		require.Equal(t, vocab.StatusDead, statuses[id], "malformed message %d", id)
	}

	// Flights: one version per FLOP that changed it, the last FLOP's value.
	type want struct {
		version int64
		stnd    string
		last    int64
	}
	exp := map[int64]*want{}
	for _, f := range l.flids {
		exp[f] = &want{version: 1, stnd: fmt.Sprintf("I%d", f), last: ids[0]}
	}
	for i, f := range l.flopFor {
		w := exp[f]
		w.version++
		w.stnd = l.stndOf[i]
		w.last = ids[1+i]
	}
	rows, err = pool.Query(ctx, "SELECT flid, state_version, stnd, last_message_id, lifecycle FROM flight_schd")
	require.NoError(t, err)
	seen := 0
	for rows.Next() {
		var flid, version, last int64
		var stnd, lifecycle string
		require.NoError(t, rows.Scan(&flid, &version, &stnd, &last, &lifecycle))
		w := exp[flid]
		require.NotNil(t, w, "unexpected flight %d", flid)
		require.Equal(t, w.version, version, "flight %d: version = 1 + its FLOPs (no double apply)", flid)
		require.Equal(t, w.stnd, stnd, "flight %d: the last FLOP in mailbox order wins", flid)
		require.Equal(t, w.last, last, "flight %d", flid)
		require.Equal(t, "ACTIVE", lifecycle)
		seen++
	}
	require.NoError(t, rows.Err())
	require.Equal(t, len(l.flids), seen)

	// Outbox: exactly one KAFKA:msg event per changed (message, flight),
	// versions in order per flight, idempotency keys unique; KAFKA:schd is
	// at most one pending mark per flight, naming its latest change (rule 8).
	var total, distinctKeys, msgEvents int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*), count(DISTINCT idempotency_key),
		count(*) FILTER (WHERE target = 'KAFKA:msg') FROM msg_event`).Scan(&total, &distinctKeys, &msgEvents))
	require.Equal(t, len(l.flids)+len(l.flops), total)
	require.Equal(t, total, distinctKeys)
	require.Equal(t, total, msgEvents, "every event is a KAFKA:msg event")
	var badPairs int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM (SELECT cminmsgs_id, flid FROM msg_event
		GROUP BY cminmsgs_id, flid HAVING count(*) <> 1) x`).Scan(&badPairs))
	require.Zero(t, badPairs, "1 event per changed message-flight pair")
	var marks, staleMarks int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE m.state_version <> f.state_version
		OR NOT EXISTS (SELECT 1 FROM (SELECT e.cminmsgs_id, e.state_version FROM msg_event e
		  WHERE e.flid = m.flid ORDER BY e.event_id DESC LIMIT 1) l
		  WHERE l.cminmsgs_id = m.cminmsgs_id AND l.state_version = m.state_version))
		FROM schd_mark m JOIN flight_schd f ON f.flid = m.flid`).Scan(&marks, &staleMarks))
	// serve relays to its embedded cluster when no broker is set: a flushed
	// mark is gone, and when the flush comes is not the test's to order.
	require.LessOrEqual(t, marks, len(l.flids), "at most one schd mark per changed flight")
	require.Zero(t, staleMarks, "each mark names its flight's latest change")
	rows, err = pool.Query(ctx, "SELECT flid, state_version, cminmsgs_id FROM msg_event WHERE target = 'KAFKA:msg' ORDER BY event_id")
	require.NoError(t, err)
	lastVersion, lastMsg := map[int64]int64{}, map[int64]int64{}
	for rows.Next() {
		var flid, version, msg int64
		require.NoError(t, rows.Scan(&flid, &version, &msg))
		require.Equal(t, lastVersion[flid]+1, version, "flight %d: events in version order", flid)
		require.Greater(t, msg, lastMsg[flid], "flight %d: events in mailbox order", flid)
		lastVersion[flid], lastMsg[flid] = version, msg
	}
	require.NoError(t, rows.Err())

	// Backfill: nothing pending, every row written once, with the commit's time.
	var todos int
	require.NoError(t, pool.QueryRow(ctx, outstandingBackfills).Scan(&todos))
	require.Zero(t, todos)
	mrows := mailboxRows(t, mbdb)
	require.Len(t, mrows, len(ids)+len(l.bad))
	for _, id := range l.bad {
		require.Equal(t, vocab.StatusDead, mrows[id][1], "mailbox row %d (malformed) status", id)
	}
	for _, id := range ids {
		r := mrows[id]
		require.Equal(t, vocab.StatusSucceeded, r[1], "mailbox row %d status", id)
		require.Equal(t, finished[id].In(shanghai).Format("2006-01-02 15:04:05"), r[0],
			"mailbox row %d: DATE_PROCESSED is the processing time, written once", id)
	}
}

// rebackfillIsNoOp registers a second, different backfill for every message
// (as a stale retry would) and sweeps: the mailbox must not change, because a
// row is backfilled only while DATE_PROCESSED is NULL.
func rebackfillIsNoOp(t testing.TB, pool *pgxpool.Pool, mbdb *sql.DB) {
	t.Helper()
	before := mailboxRows(t, mbdb)
	_, err := pool.Exec(t.Context(), `INSERT INTO backfill_todo (msg_id, mailbox_status, processed_at, meta_sndr, meta_type, meta_styp, next_attempt_at)
		SELECT msg_id, 'DEAD', now() + interval '3 days', 'XX', 'XX', 'XX', now() - interval '1 minute' FROM proc_state`)
	require.NoError(t, err)
	st := pgstore.New(pool)
	bf := backfill.New(st, mailbox.New(mbdb, mailbox.WithZone(shanghai)), clock.Real{}, quiet,
		backfill.Config{Batch: 100000})
	done, failed, err := bf.Sweep(t.Context())
	require.NoError(t, err)
	require.Zero(t, failed)
	require.Equal(t, len(before), done)
	require.Equal(t, before, mailboxRows(t, mbdb), "a second backfill changes nothing")
	var todos int
	require.NoError(t, pool.QueryRow(t.Context(), "SELECT count(*) FROM backfill_todo").Scan(&todos))
	require.Zero(t, todos)
}

// ---------------------------------------------------------------------------
// In-process: the precise windows, with a fake clock.

type pipeEnv struct {
	pg   *testdb.PG
	st   store.Store
	mbdb *sql.DB
	mb   *mailbox.Mailbox
	clk  *clock.Fake
	cfg  pump.Config
}

func newPipeEnv(t *testing.T) *pipeEnv {
	t.Helper()
	pg := testdb.Postgres(t)
	mbdb, dsn := testdb.Mailbox(t)
	cfg := testConfig(pg.URL, dsn)
	return &pipeEnv{pg: pg, st: pgstore.New(pg.Pool), mbdb: mbdb, mb: mailbox.New(mbdb, mailbox.WithZone(shanghai)),
		clk: clock.NewFake(time.Date(2026, 12, 2, 1, 0, 0, 0, time.UTC)), cfg: pumpConfig(cfg)}
}

func (e *pipeEnv) poll(t *testing.T) int {
	t.Helper()
	n, err := ingress.NewPoller(e.st, e.mb, e.clk, quiet, ingress.Config{Batch: 1000}).PollOnce(t.Context())
	require.NoError(t, err)
	return n
}

func (e *pipeEnv) backfiller() *backfill.Backfiller {
	return backfill.New(e.st, e.mb, e.clk, quiet, backfill.Config{Batch: 1000})
}

// drain steps a pump until the queue is empty; store errors (a cut
// connection being noticed) are tolerated a few times.
func (e *pipeEnv) drain(t *testing.T, p *pump.Pump) {
	t.Helper()
	errs := 0
	for range 1000 {
		wait, err := p.Step(t.Context())
		if err != nil {
			errs++
			require.Less(t, errs, 5, "pump keeps failing: %v", err)
			continue
		}
		if wait > 0 {
			return
		}
	}
	t.Fatal("pump did not settle")
}

// effects is every business effect of the messages: flight rows, events,
// terminal statuses. Equal effects before and after a restart mean nothing
// was re-applied.
func effects(t *testing.T, pool *pgxpool.Pool) string {
	t.Helper()
	var b strings.Builder
	for _, q := range []string{
		"SELECT flid, state_version, stnd, last_message_id FROM flight_schd ORDER BY flid",
		"SELECT event_id, target, flid, state_version, cminmsgs_id, idempotency_key FROM msg_event ORDER BY event_id",
		"SELECT msg_id, status, attempts, finished_at FROM proc_state ORDER BY msg_id",
	} {
		rows, err := pool.Query(t.Context(), q)
		require.NoError(t, err)
		for rows.Next() {
			vals, err := rows.Values()
			require.NoError(t, err)
			fmt.Fprintln(&b, vals...)
		}
		require.NoError(t, rows.Err())
	}
	return b.String()
}

// outstandingBackfills counts the backfills still to do: the todos and the
// terminal messages above the backfill mark (what msgx status shows).
const outstandingBackfills = `SELECT (SELECT count(*) FROM backfill_todo) + (SELECT count(*) FROM proc_state
	WHERE msg_id > COALESCE((SELECT through_msg_id FROM backfill_mark), 0) AND status IN ('SUCCEEDED', 'SKIPPED', 'DEAD'))`

func count(t *testing.T, pool *pgxpool.Pool, query string) int {
	t.Helper()
	var n int
	require.NoError(t, pool.QueryRow(t.Context(), query).Scan(&n))
	return n
}

// The process died right after the commit: the pump's backfill never ran
// (nil backfill func). After a restart the mailbox rows still look
// unprocessed, the poller sees them again, yet nothing is re-applied; the
// sweep backfills each row once.
func TestCrashAfterCommitBeforeBackfill(t *testing.T) {
	t.Parallel()
	e := newPipeEnv(t)
	l := newLoad(3, 9)
	ids := l.insert(t, e.mb, e.clk.Now())
	require.Equal(t, len(ids), e.poll(t))
	e.drain(t, pump.New(e.st, e.mb, nil, e.clk, quiet, e.cfg))

	require.Equal(t, len(ids), count(t, e.pg.Pool, outstandingBackfills), "every commit registered its backfill (above the mark)")
	require.Zero(t, count(t, e.pg.Pool, "SELECT count(*) FROM backfill_todo"), "by its terminal status: no todo")
	for id, r := range mailboxRows(t, e.mbdb) {
		require.Equal(t, "", r[0], "row %d not backfilled: the crash window", id)
	}
	committed := effects(t, e.pg.Pool)

	// Restart.
	e.clk.Advance(time.Minute)
	require.Zero(t, e.poll(t), "unprocessed-looking rows are already queued: no double enqueue")
	bf := e.backfiller()
	e.drain(t, pump.New(e.st, e.mb, bf.BackfillNow, e.clk, quiet, e.cfg))
	require.Equal(t, committed, effects(t, e.pg.Pool), "the pump re-applies nothing")
	done, failed, err := bf.Sweep(t.Context())
	require.NoError(t, err)
	require.Zero(t, failed)
	require.Equal(t, len(ids), done)

	require.Equal(t, committed, effects(t, e.pg.Pool))
	l.verifyExactlyOnce(t, e.pg.Pool, e.mbdb, ids)
	rebackfillIsNoOp(t, e.pg.Pool, e.mbdb)
}

// The process died during the backfill: some mailbox rows written, the
// mark not yet moved over them. The restart sweep moves it without writing
// those rows again.
func TestCrashDuringBackfill(t *testing.T) {
	t.Parallel()
	e := newPipeEnv(t)
	l := newLoad(3, 9)
	ids := l.insert(t, e.mb, e.clk.Now())
	e.poll(t)
	e.drain(t, pump.New(e.st, e.mb, nil, e.clk, quiet, e.cfg))
	committed := effects(t, e.pg.Pool)

	require.Zero(t, count(t, e.pg.Pool, "SELECT count(*) FROM backfill_todo"), "above the mark: no todos")
	unmarked, err := e.st.UnmarkedBackfills(t.Context(), 0, 1000)
	require.NoError(t, err)
	require.Len(t, unmarked, len(ids))
	half := unmarked[:len(unmarked)/2]
	for _, u := range half {
		changed, err := e.mb.Backfill(t.Context(), u.Backfill)
		require.NoError(t, err)
		require.True(t, changed)
	}
	written := mailboxRows(t, e.mbdb)
	// Make a second write visible if it happened: the messages now carry
	// another finish time than the one already in the mailbox (put back
	// after the sweep).
	for _, u := range half {
		_, err := e.pg.Pool.Exec(t.Context(), `UPDATE proc_state SET finished_at = finished_at + interval '1 hour' WHERE msg_id = $1`, u.MsgID)
		require.NoError(t, err)
	}

	// Restart.
	e.clk.Advance(time.Minute)
	require.Zero(t, e.poll(t))
	done, failed, err := e.backfiller().Sweep(t.Context())
	require.NoError(t, err)
	require.Zero(t, failed)
	require.Equal(t, len(ids), done)
	require.Zero(t, count(t, e.pg.Pool, outstandingBackfills), "the mark moved over every message")
	after := mailboxRows(t, e.mbdb)
	for _, u := range half {
		require.Equal(t, written[u.MsgID], after[u.MsgID], "row %d backfilled once", u.MsgID)
		_, err := e.pg.Pool.Exec(t.Context(), `UPDATE proc_state SET finished_at = finished_at - interval '1 hour' WHERE msg_id = $1`, u.MsgID)
		require.NoError(t, err)
	}
	require.Equal(t, committed, effects(t, e.pg.Pool))
	l.verifyExactlyOnce(t, e.pg.Pool, e.mbdb, ids)
}

// cutStore cuts every other PostgreSQL connection of the database right
// before each business commit while armed: the transaction's connection dies
// with the COMMIT unsent, as when the network or the server goes away.
type cutStore struct {
	store.Store
	cut func()
}

func (s *cutStore) Begin(ctx context.Context) (store.Tx, error) {
	tx, err := s.Store.Begin(ctx)
	if err != nil {
		return nil, err
	}
	return &cutTx{Tx: tx, cut: s.cut}, nil
}

type cutTx struct {
	store.Tx
	cut func()
}

func (t *cutTx) Commit(ctx context.Context) error {
	t.cut()
	return t.Tx.Commit(ctx)
}

// businessEffects is what a message writes besides its own status.
func businessEffects(t *testing.T, pool *pgxpool.Pool) string {
	t.Helper()
	var b strings.Builder
	for _, q := range []string{
		"SELECT flid, state_version, stnd, last_message_id FROM flight_schd ORDER BY flid",
		"SELECT event_id, idempotency_key FROM msg_event ORDER BY event_id",
		"SELECT msg_id, processed_at FROM backfill_todo ORDER BY msg_id",
		"SELECT msg_id, status FROM proc_state WHERE status NOT IN ('PENDING', 'FAILED') ORDER BY msg_id",
	} {
		rows, err := pool.Query(t.Context(), q)
		require.NoError(t, err)
		for rows.Next() {
			vals, err := rows.Values()
			require.NoError(t, err)
			fmt.Fprintln(&b, vals...)
		}
		require.NoError(t, rows.Err())
	}
	return b.String()
}

// Phase 1 cuts the one-by-one path (a snapshot heads the run), phase 2 the
// batch path (a run of FLOPs) and its one-by-one fallback.
func TestCrashCutConnectionBeforeCommit(t *testing.T) {
	t.Parallel()
	e := newPipeEnv(t)
	l := newLoad(3, 12)
	ids := l.insert(t, e.mb, e.clk.Now())

	var armed atomic.Bool
	cut := func() {
		if !armed.Load() {
			return
		}
		conn, err := pgx.Connect(context.Background(), e.pg.URL)
		require.NoError(t, err)
		defer conn.Close(context.Background())
		var killed int
		require.NoError(t, conn.QueryRow(context.Background(), `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
			WHERE datname = $1 AND pid <> pg_backend_pid()`, e.pg.Name).Scan(&killed))
		require.Positive(t, killed)
	}
	bf := e.backfiller()
	p := pump.New(&cutStore{Store: e.st, cut: cut}, e.mb, bf.BackfillNow, e.clk, quiet, e.cfg)

	for phase, batch := range [][]int64{ids[:7], ids[7:]} {
		before := businessEffects(t, e.pg.Pool)
		_, err := e.st.Enqueue(t.Context(), batch, e.clk.Now())
		require.NoError(t, err)
		armed.Store(true)
		_, _ = p.Step(t.Context()) // every commit fails; recording the failure may fail too
		armed.Store(false)

		require.Equal(t, before, businessEffects(t, e.pg.Pool), "phase %d: nothing of the run is visible", phase+1)
		require.Zero(t, count(t, e.pg.Pool, "SELECT count(*) FROM proc_state WHERE status = 'FAILED' AND error_class <> 'INFRA'"))
		open := 0
		for _, id := range batch {
			if mailboxRows(t, e.mbdb)[id][0] == "" {
				open++
			}
		}
		require.Equal(t, len(batch), open, "phase %d: no mailbox row backfilled", phase+1)

		// The retry, once due, applies the run.
		e.clk.Advance(e.cfg.BackoffCap)
		e.drain(t, p)
		require.Zero(t, count(t, e.pg.Pool, "SELECT count(*) FROM proc_state WHERE status IN ('PENDING', 'FAILED')"))
	}
	done, _, err := bf.Sweep(t.Context()) // what BackfillNow could not do while connections died
	require.NoError(t, err)
	t.Logf("sweep backfilled %d rows", done)
	l.verifyExactlyOnce(t, e.pg.Pool, e.mbdb, ids)
}

// The pump's step in flight is not cancelled by the shutdown signal: it
// commits, and the message is SUCCEEDED rather than failed or left half done.
func TestShutdownLetsTheStepFinish(t *testing.T) {
	t.Parallel()
	e := newPipeEnv(t)
	l := newLoad(2, 0)
	ids := l.insert(t, e.mb, e.clk.Now())
	e.poll(t)

	entered, release := make(chan struct{}), make(chan struct{})
	raw := &blockingReader{Mailbox: e.mb, entered: entered, release: release}
	cfg := e.cfg
	cfg.Idle, cfg.Grace = time.Second, 30*time.Second
	p := pump.New(e.st, raw, nil, clock.Real{}, quiet, cfg)
	ctx, cancel := context.WithCancel(t.Context())
	stopped := make(chan struct{})
	go func() { assert.NoError(t, p.Run(ctx)); close(stopped) }()
	<-entered
	cancel() // SIGTERM while the step reads its message
	close(release)
	select {
	case <-stopped:
	case <-time.After(20 * time.Second):
		t.Fatal("Pump.Run did not stop")
	}
	m, err := e.st.Message(t.Context(), ids[0])
	require.NoError(t, err)
	require.Equal(t, vocab.StatusSucceeded, m.Status, "%s %s", m.ErrorClass, m.Reason)
	require.Zero(t, m.Attempts)
	require.Equal(t, 2, count(t, e.pg.Pool, "SELECT count(*) FROM flight_schd"))
}

// blockingReader holds the pump's first mailbox read until released, or
// until the step's context ends when honorCtx.
type blockingReader struct {
	*mailbox.Mailbox
	entered, release chan struct{}
	honorCtx         bool
	once             sync.Once
}

func (b *blockingReader) ReadRaws(ctx context.Context, ids []int64) (map[int64][]byte, error) {
	var err error
	b.once.Do(func() {
		close(b.entered)
		if !b.honorCtx {
			<-b.release
			return
		}
		select {
		case <-b.release:
		case <-ctx.Done():
			err = ctx.Err()
		}
	})
	if err != nil {
		return nil, err
	}
	return b.Mailbox.ReadRaws(ctx, ids)
}

// A step that overruns the grace after the signal is cancelled: shutdown
// stays bounded, and the step rolls back (nothing half written).
func TestShutdownBoundsTheStep(t *testing.T) {
	t.Parallel()
	e := newPipeEnv(t)
	l := newLoad(2, 0)
	ids := l.insert(t, e.mb, e.clk.Now())
	e.poll(t)

	entered, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	raw := &blockingReader{Mailbox: e.mb, entered: entered, release: release, honorCtx: true}
	cfg := e.cfg
	cfg.Idle, cfg.Grace = time.Second, 300*time.Millisecond
	p := pump.New(e.st, raw, nil, clock.Real{}, quiet, cfg)
	ctx, cancel := context.WithCancel(t.Context())
	stopped := make(chan struct{})
	go func() { assert.NoError(t, p.Run(ctx)); close(stopped) }()
	<-entered
	began := time.Now()
	cancel()
	select {
	case <-stopped:
	case <-time.After(20 * time.Second):
		t.Fatal("Pump.Run did not stop")
	}
	require.GreaterOrEqual(t, time.Since(began), 300*time.Millisecond, "the step had its grace")
	m, err := e.st.Message(t.Context(), ids[0])
	require.NoError(t, err)
	require.Contains(t, []string{vocab.StatusPending, vocab.StatusFailed}, m.Status)
	require.Zero(t, count(t, e.pg.Pool, "SELECT count(*) FROM flight_schd"))
}

// ---------------------------------------------------------------------------
// Subprocess: a real `msgx serve`, killed and restarted.

var (
	binDir string
	// buildBin is the msgx binary the real-process tests run: built with
	// -race when the tests are (it reuses what go test -race compiled).
	buildBin = sync.OnceValues(func() (string, error) { return build("msgx", raceBuild) })
	// buildPlainBin is the production build, for what a race build distorts
	// (its memory is several times the real one's).
	buildPlainBin = sync.OnceValues(func() (string, error) { return build("msgx-plain", false) })
)

func build(name string, race bool) (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	root := filepath.Dir(strings.TrimSpace(string(out)))
	bin := filepath.Join(binDir, name)
	args := []string{"build", "-o", bin}
	if race {
		args = append(args, "-race")
	}
	cmd := exec.Command("go", append(args, "./cmd/msgx")...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "msgx-app-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func msgxBinary(t *testing.T) string {
	t.Helper()
	bin, err := buildBin()
	require.NoError(t, err)
	return bin
}

// proc is one running `msgx serve`.
type proc struct {
	cmd    *exec.Cmd
	stderr *syncBuffer
	exited chan struct{}
	base   string
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return addr
}

// serviceEnv is the environment of a serve process: this process's, minus
// every MSGX_ variable, plus extra.
func serviceEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "MSGX_") {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

func startProc(t *testing.T, env []string, addr string) *proc {
	t.Helper()
	return startBinary(t, msgxBinary(t), env, addr)
}

// startBinary is startProc with the binary to run.
func startBinary(t *testing.T, bin string, env []string, addr string) *proc {
	t.Helper()
	cmd := exec.Command(bin, "serve")
	p := &proc{cmd: cmd, stderr: &syncBuffer{}, exited: make(chan struct{}), base: "http://" + addr}
	cmd.Env = env
	cmd.Stderr = p.stderr
	require.NoError(t, cmd.Start())
	go func() { _ = cmd.Wait(); close(p.exited) }()
	t.Cleanup(func() {
		if p.running() {
			_ = cmd.Process.Kill()
			<-p.exited
		}
	})
	eventually(t, 30*time.Second, "msgx serve answers HTTP", func() bool {
		require.True(t, p.running(), "msgx serve exited at start: %s", p.stderr.String())
		res, err := http.Get(p.base + "/messages/1")
		if err != nil {
			return false
		}
		res.Body.Close()
		return true
	})
	return p
}

func (p *proc) running() bool {
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}

func (p *proc) kill9(t *testing.T) {
	t.Helper()
	require.NoError(t, p.cmd.Process.Kill())
	<-p.exited
}

// terminate sends SIGTERM and returns the exit code and how long it took.
func (p *proc) terminate(t *testing.T, within time.Duration) (int, time.Duration) {
	t.Helper()
	began := time.Now()
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	select {
	case <-p.exited:
	case <-time.After(within):
		t.Fatalf("msgx serve did not exit within %s after SIGTERM:\n%s", within, p.stderr.String())
	}
	return p.cmd.ProcessState.ExitCode(), time.Since(began)
}

func succeeded(t *testing.T, pool *pgxpool.Pool) int {
	t.Helper()
	return count(t, pool, "SELECT count(*) FROM proc_state WHERE status = 'SUCCEEDED'")
}

// waitAllDone waits until every message is terminal, no backfill is pending
// and every mailbox row is processed.
func waitAllDone(t *testing.T, pool *pgxpool.Pool, mbdb *sql.DB, n int) {
	t.Helper()
	eventually(t, 60*time.Second, fmt.Sprintf("%d messages terminal and backfilled", n), func() bool {
		if count(t, pool, "SELECT count(*) FROM proc_state WHERE status IN ('SUCCEEDED', 'SKIPPED', 'DEAD')") < n ||
			count(t, pool, outstandingBackfills) > 0 {
			return false
		}
		var open int
		require.NoError(t, mbdb.QueryRowContext(t.Context(), "SELECT count(*) FROM cminmsgs WHERE CMINMSGS_DATE_PROCESSED IS NULL").Scan(&open))
		return open == 0
	})
}

func TestCrashKill9UnderLoad(t *testing.T) {
	testdb.Long(t)
	t.Parallel()
	pg := testdb.Postgres(t)
	mbdb, dsn := testdb.Mailbox(t)
	addr := freeAddr(t)
	env := serviceEnv("MSGX_PG_URL="+pg.URL, "MSGX_MAILBOX_DSN="+dsn, "MSGX_HTTP_ADDR="+addr,
		"MSGX_AIRPORT_TZ=Asia/Shanghai", "MSGX_POLL_INTERVAL=50ms", "MSGX_BACKFILL_INTERVAL=200ms",
		"MSGX_BACKOFF_BASE=100ms", "MSGX_BACKOFF_CAP=1s",
		// Small runs and batches: many commits, so the kills land mid-work.
		"MSGX_RUN_LENGTH=5", "MSGX_POLL_BATCH=40")
	l := newLoad(50, 500)
	ids := l.insert(t, mailbox.New(mbdb, mailbox.WithZone(shanghai)), time.Now())
	n := len(ids)

	// Kill -9 three times at growing progress, and once cut the service's
	// database connections instead; it must recover from both.
	p := startProc(t, env, addr)
	for i, at := range []int{60, 200, 330} {
		eventually(t, 60*time.Second, fmt.Sprintf("%d messages succeeded", at), func() bool {
			require.True(t, p.running(), "serve died: %s", p.stderr.String())
			return succeeded(t, pg.Pool) >= at
		})
		p.kill9(t)
		got := succeeded(t, pg.Pool)
		require.Less(t, got, n, "kill %d landed after all work: the test proves nothing", i+1)
		t.Logf("kill -9 #%d with %d/%d succeeded", i+1, got, n)
		p = startProc(t, env, addr)
	}
	eventually(t, 60*time.Second, "400 messages succeeded", func() bool { return succeeded(t, pg.Pool) >= 400 })
	var cut int
	require.NoError(t, pg.Pool.QueryRow(t.Context(), `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE datname = $1 AND pid <> pg_backend_pid() AND application_name = 'msgx'`, pg.Name).Scan(&cut))
	require.Positive(t, cut)
	t.Logf("cut %d service connections at %d/%d", cut, succeeded(t, pg.Pool), n)

	waitAllDone(t, pg.Pool, mbdb, n)
	code, took := p.terminate(t, 10*time.Second)
	require.Equal(t, 0, code, "graceful exit: %s", p.stderr.String())
	t.Logf("SIGTERM: exit %d in %s", code, took)

	l.verifyExactlyOnce(t, pg.Pool, mbdb, ids)
	rebackfillIsNoOp(t, pg.Pool, mbdb)
}

// Killed every 3 s, with 0.5 % malformed messages in the backlog and the
// service's default run length, the queue makes progress in every cycle
// (each batch and each odd message commits on its own), and the end state is
// exact.
func TestCrashEveryThreeSecondsMakesProgress(t *testing.T) {
	testdb.Long(t)
	t.Parallel()
	pg := testdb.Postgres(t)
	mbdb, dsn := testdb.Mailbox(t)
	addr := freeAddr(t)
	env := serviceEnv("MSGX_PG_URL="+pg.URL, "MSGX_MAILBOX_DSN="+dsn, "MSGX_HTTP_ADDR="+addr,
		"MSGX_AIRPORT_TZ=Asia/Shanghai", "MSGX_BACKFILL_INTERVAL=200ms")
	l := newLoad(200, 60000)
	l.badEvery = 200
	ids := l.insertMany(t, mbdb)
	terminal := func() int {
		return count(t, pg.Pool, "SELECT count(*) FROM proc_state WHERE status IN ('SUCCEEDED', 'SKIPPED', 'DEAD')")
	}
	total := len(ids) + len(l.bad)
	last := 0
	for cycle := range 3 {
		p := startProc(t, env, addr)
		time.Sleep(3 * time.Second) // the cycle's length: a duration, not an ordering
		p.kill9(t)
		got := terminal()
		t.Logf("kill -9 #%d: %d/%d terminal", cycle+1, got, total)
		require.Greater(t, got, last, "cycle %d made no progress", cycle+1)
		last = got
		if got == total {
			// A fast machine may finish in the third cycle; two kills must
			// have landed mid-work for the test to prove anything.
			require.Equal(t, 2, cycle, "the work ended before kill %d: the test proves nothing", cycle+1)
			break
		}
	}
	p := startProc(t, env, addr)
	waitAllDone(t, pg.Pool, mbdb, total)
	code, _ := p.terminate(t, 10*time.Second)
	require.Equal(t, 0, code, "graceful exit: %s", p.stderr.String())
	l.verifyExactlyOnce(t, pg.Pool, mbdb, ids)
}

func TestServeSIGTERMUnderLoad(t *testing.T) {
	t.Parallel()
	pg := testdb.Postgres(t)
	mbdb, dsn := testdb.Mailbox(t)
	addr := freeAddr(t)
	env := serviceEnv("MSGX_PG_URL="+pg.URL, "MSGX_MAILBOX_DSN="+dsn, "MSGX_HTTP_ADDR="+addr,
		"MSGX_AIRPORT_TZ=Asia/Shanghai", "MSGX_POLL_INTERVAL=50ms", "MSGX_BACKFILL_INTERVAL=200ms",
		"MSGX_RUN_LENGTH=5", "MSGX_POLL_BATCH=40")
	l := newLoad(20, 300)
	ids := l.insert(t, mailbox.New(mbdb, mailbox.WithZone(shanghai)), time.Now())

	p := startProc(t, env, addr)
	eventually(t, 60*time.Second, "work under way", func() bool { return succeeded(t, pg.Pool) >= 40 })
	code, took := p.terminate(t, 10*time.Second)
	require.Equal(t, 0, code, "stderr: %s", p.stderr.String())
	require.Contains(t, p.stderr.String(), `"msg":"shutdown: complete"`)
	got := succeeded(t, pg.Pool)
	t.Logf("SIGTERM with %d/%d succeeded: exit %d in %s", got, len(ids), code, took)
	require.Less(t, got, len(ids), "SIGTERM landed after all work: the test proves nothing")
	require.Zero(t, count(t, pg.Pool, "SELECT count(*) FROM proc_state WHERE status = 'FAILED'"),
		"the step in flight was not cut by the shutdown")

	p = startProc(t, env, addr)
	waitAllDone(t, pg.Pool, mbdb, len(ids))
	code, _ = p.terminate(t, 10*time.Second)
	require.Equal(t, 0, code)
	l.verifyExactlyOnce(t, pg.Pool, mbdb, ids)
}

// The command's exit codes: 2 and one line per problem for a bad
// configuration, 1 and one line for a failed start check.
func TestServeCommandExitCodes(t *testing.T) {
	t.Parallel()
	bin := msgxBinary(t)
	run := func(env ...string) (int, string) {
		cmd := exec.Command(bin, "serve")
		cmd.Env = serviceEnv(env...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if err != nil {
			require.ErrorAs(t, err, &ee)
		}
		return cmd.ProcessState.ExitCode(), stderr.String()
	}
	code, stderr := run("MSGX_POLL_INTERVAL=soon", "MSGX_ENV=staging")
	require.Equal(t, 2, code, stderr)
	require.Equal(t, 2, strings.Count(stderr, "\n"), "one line per problem: %q", stderr)
	require.Contains(t, stderr, "MSGX_POLL_INTERVAL")
	require.Contains(t, stderr, "MSGX_ENV")

	code, stderr = run("MSGX_PG_URL=postgres://postgres@"+freeAddr(t)+"/x?sslmode=disable", "MSGX_HTTP_ADDR="+freeAddr(t))
	require.Equal(t, 1, code, stderr)
	require.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
	require.True(t, strings.HasPrefix(stderr, "msgx serve: PostgreSQL unreachable"), stderr)

	// Production refuses every development convenience, naming each setting,
	// before touching anything.
	code, stderr = run("MSGX_ENV=prod", "MSGX_KAFKA_ACKS=1")
	require.Equal(t, 2, code, stderr)
	for _, setting := range []string{"MSGX_PG_URL", "MSGX_MAILBOX_DSN", "MSGX_KAFKA_BROKERS", "MSGX_ADMIN_TOKEN", "MSGX_KAFKA_ACKS"} {
		require.Contains(t, stderr, setting)
	}

	// A missing Kafka topic stops the start with the setting to fix.
	emb, err := kafka.StartEmbedded("msgx.flight.msg")
	require.NoError(t, err)
	defer emb.Close()
	pg := testdb.Postgres(t)
	_, dsn := testdb.Mailbox(t)
	code, stderr = run("MSGX_PG_URL="+pg.URL, "MSGX_MAILBOX_DSN="+dsn, "MSGX_HTTP_ADDR="+freeAddr(t),
		"MSGX_KAFKA_BROKERS="+strings.Join(emb.Addrs(), ","))
	require.Equal(t, 1, code, stderr)
	require.Contains(t, stderr, `topic "msgx.flight.schd" does not exist`)
	require.Contains(t, stderr, "MSGX_KAFKA_TOPIC_SCHD")

	cmd := exec.Command(bin, "serve", "--help")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err)
	require.Contains(t, string(out), "usage: msgx serve")
}
