package pump

import (
	"context"
	"io"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/backfill"
	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/sis/sistest"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/testenv"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

var (
	shanghai = testenv.Zone
	start    = testenv.Start
)

// env is a pipeline on real databases: msgx's PostgreSQL and the MariaDB
// mailbox, with a fake clock.
type env struct {
	*testenv.Env // PG is for what no store method does (a test resetting a finished message, a table dump)
	pump         *Pump
	raw          rawReads // what the pump reads the XML through (tests may wrap it); sizes come from mb
	todos        []vocab.Backfill
	// onCommit, when set, gets the todos of each commit as the pump hands
	// them over (the service's backfill after commit).
	onCommit func(todos []vocab.Backfill)
}

// newEnv is a pipeline on a fresh PostgreSQL database — or, with
// MSGX_TEST_DIALECT=oracle11g and MSGX_TEST_ORACLE_DSN, on the Oracle
// adapter (oracle_test.go): then every scenario of this package runs there,
// one at a time on the dedicated schema, reset before each.
func newEnv(t testing.TB, mutate ...func(*Config)) *env {
	t.Helper()
	if os.Getenv("MSGX_TEST_DIALECT") == "oracle11g" {
		return newEnvOn(t, oracleStore(t), mutate...)
	}
	return newEnvOn(t, nil, mutate...)
}

// needPostgres skips a scenario that reads PostgreSQL itself (a table dump,
// a state no store method makes) when the suite runs on another dialect.
func (e *env) needPostgres(t testing.TB) {
	t.Helper()
	if e.PG == nil {
		t.Skip("reads PostgreSQL directly: runs on the PostgreSQL suite only")
	}
}

// newEnvOn is newEnv on the given store (nil: a fresh PostgreSQL), so a
// scenario can run on another dialect's adapter (oracle_test.go).
func newEnvOn(t testing.TB, st store.Store, mutate ...func(*Config)) *env {
	t.Helper()
	e := &env{Env: testenv.NewOn(t, st)}
	e.raw = e.Mailbox
	e.logTo(io.Discard, mutate...)
	return e
}

// logTo (re)builds the env's pump on the default config changed by mutate,
// logging to w.
func (e *env) logTo(w io.Writer, mutate ...func(*Config)) {
	cfg := DefaultConfig()
	cfg.Decode.Location = shanghai
	for _, m := range mutate {
		m(&cfg)
	}
	e.pump = New(e.Store, envReader{e},
		func(_ context.Context, todos []vocab.Backfill) {
			e.todos = append(e.todos, todos...)
			if e.onCommit != nil {
				e.onCommit(todos)
			}
		},
		e.Clock, slog.New(slog.NewTextHandler(w, nil)), cfg)
	e.Env.Pump = e.pump
}

// rawReads is the XML half of RawReader, what tests wrap.
type rawReads interface {
	ReadRaws(ctx context.Context, ids []int64) (map[int64][]byte, error)
}

type readerFunc func(ctx context.Context, ids []int64) (map[int64][]byte, error)

func (f readerFunc) ReadRaws(ctx context.Context, ids []int64) (map[int64][]byte, error) {
	return f(ctx, ids)
}

// useRaw makes the env pump read XML through r. A read-ahead the last step
// left in flight reads through e.raw in the background: it is waited for and
// dropped first, so it neither calls r before the step the test means nor
// races the swap, and the next step reads through r whatever it needs.
func (e *env) useRaw(r rawReads) {
	e.pump.st.takeAhead()
	e.raw = r
}

// envReader is the env pump's RawReader: the XML through e.raw, the sizes
// from the mailbox.
type envReader struct{ e *env }

func (r envReader) ReadRaws(ctx context.Context, ids []int64) (map[int64][]byte, error) {
	return r.e.raw.ReadRaws(ctx, ids)
}

func (r envReader) RawSizes(ctx context.Context, ids []int64) (map[int64]int, error) {
	return r.e.Mailbox.RawSizes(ctx, ids)
}

func (e *env) msg(t testing.TB, id int64) vocab.QueueEntry {
	t.Helper()
	m, err := e.Store.Message(t.Context(), id)
	require.NoError(t, err)
	return m
}

func (e *env) flight(t testing.TB, flid int64) *flight.State {
	t.Helper()
	got, err := e.Store.Flights(t.Context(), []int64{flid})
	require.NoError(t, err)
	return got[flid]
}

// events are what a message wrote to the outbox, per target: its events
// (KAFKA:msg) and the KAFKA:schd marks that still name its changes (a later
// change of the flight replaces its mark; no relay runs here), in that order.
func (e *env) events(t testing.TB, msgID int64) []store.Event {
	t.Helper()
	evs, err := e.Store.EventsOfMessage(t.Context(), msgID)
	require.NoError(t, err)
	marks, err := e.Store.DueSchdMarks(t.Context(), store.DueSchdMarksParams{Now: time.Now().Add(24 * time.Hour), Max: 1_000_000})
	require.NoError(t, err)
	for _, m := range marks {
		if m.MsgID == msgID {
			evs = append(evs, m)
		}
	}
	return evs
}

// SIS message builders.

// The message builders are sistest's (one copy for every package's tests).
var (
	envelope = sistest.Envelope
	fltr     = sistest.Fltr
	schd     = sistest.Schd
	schdAt   = sistest.SchdAt
	flop     = sistest.Flop
	gates    = sistest.Gates
	refList  = sistest.RefList
	vipList  = sistest.VIPList
)

// requireAllSucceeded fails unless PROC_STATE holds n messages, all
// SUCCEEDED: a benchmark's figure is of real work. (The store counts only
// the backlog and the dead letters.)
func requireAllSucceeded(tb testing.TB, e *env, n int) {
	tb.Helper()
	var total, succeeded int
	require.NoError(tb, e.PG.Pool.QueryRow(tb.Context(),
		"SELECT count(*), count(*) FILTER (WHERE status = 'SUCCEEDED') FROM proc_state").Scan(&total, &succeeded))
	require.Equal(tb, []int{n, n}, []int{total, succeeded}, "messages, of them SUCCEEDED")
}

// backfillSweep backfills as the backfiller's sweep does: the messages
// above the backfill mark (the env's pump hands its commits to e.todos
// only), then the due todos.
func (e *env) backfillSweep(t testing.TB) {
	t.Helper()
	_, _, err := backfill.New(e.Store, e.Mailbox, e.Clock, slog.New(slog.DiscardHandler), backfill.Config{}).Sweep(t.Context())
	require.NoError(t, err)
}
