package compare_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/compare"
	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// writeAfter runs write once, synchronously, right before the first
// statement that follows the one named after: a concurrent commit at an
// exact point between two of Load's statements, without timing.
type writeAfter struct {
	after string
	write func(ctx context.Context)
	mu    sync.Mutex
	seen  bool
	done  bool
}

func (w *writeAfter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, data pgx.TraceQueryStartData) context.Context {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case strings.Contains(data.SQL, "-- name: "+w.after+" "):
		w.seen = true
	case w.seen && !w.done:
		w.done = true
		w.write(ctx)
	}
	return ctx
}

func (*writeAfter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// Load reads a side in one snapshot: a flight (row, details, latest event)
// rewritten and committed between the read of its row and the read of its
// details is read whole as it was before, never half old, half new.
func TestLoadReadsOneSnapshot(t *testing.T) {
	t.Parallel()
	pg := testdb.Postgres(t)
	st := pgstore.New(pg.Pool)
	at := start
	state := func(version int64, stand, gate string) *flight.State {
		seq := int64(1)
		return &flight.State{FLID: 40001, Lifecycle: flight.Active, OperationDay: start, StateVersion: version, LastMessageID: version,
			Scalars:  map[string]flight.Value{"FLNO": {Raw: "CA1"}, "STND": {Raw: stand}},
			Structs:  map[string]flight.Struct{},
			Payloads: map[string]flight.Payload{},
			Groups:   map[string][]flight.Item{flight.GroupGates: {{SourceSeq: &seq, Fields: map[string]flight.Value{"GATE": {Raw: gate}}}}},
		}
	}
	event := func(version int64, stand string) vocab.NewEvent {
		return vocab.NewEvent{Target: vocab.TargetMsg, EventType: "UPSERT", MsgID: version, FLID: 40001, StateVersion: version,
			IdempotencyKey: vocab.IdempotencyKey(version, 40001, version, vocab.TargetMsg),
			Payload:        []byte(`{"flid":40001,"scalars":{"STND":{"raw":"` + stand + `"}}}`), CreatedAt: at}
	}
	write := func(ctx context.Context, s *flight.State, isNew bool, ev vocab.NewEvent) {
		tx, err := st.Begin(ctx)
		require.NoError(t, err)
		defer tx.Rollback(ctx) //nolint:errcheck // after Commit: nothing
		require.NoError(t, tx.WriteFlights(ctx, []vocab.FlightWrite{{State: s, New: isNew,
			Changes: flight.Replaced(s.StateVersion, []string{flight.GroupGates}, nil)}}, at))
		require.NoError(t, tx.InsertEvents(ctx, []vocab.NewEvent{ev}))
		require.NoError(t, tx.Commit(ctx))
	}
	write(t.Context(), state(1, "101", "A1"), true, event(1, "101"))
	before, err := compare.Load(t.Context(), pg.Pool, compare.LoadOptions{Payloads: true})
	require.NoError(t, err)

	// A second pool whose reads let the write in after the flight row.
	trace := &writeAfter{after: "FlightGetMany", write: func(ctx context.Context) {
		write(context.WithoutCancel(ctx), state(2, "202", "B2"), false, event(2, "202"))
	}}
	pc, err := pgxpool.ParseConfig(pg.URL)
	require.NoError(t, err)
	pc.ConnConfig.Tracer = trace
	pool, err := pgxpool.NewWithConfig(t.Context(), pc)
	require.NoError(t, err)
	t.Cleanup(pool.Close)

	got, err := compare.Load(t.Context(), pool, compare.LoadOptions{Payloads: true})
	require.NoError(t, err)
	require.True(t, trace.done, "the write happened between two of Load's statements")
	diffs, _ := compare.Compare(before.States, got.States, compare.Options{OutboundA: before.Outbound, OutboundB: got.Outbound})
	require.Empty(t, diffs, "read whole as before the write, not torn")

	after, err := compare.Load(t.Context(), pg.Pool, compare.LoadOptions{Payloads: true})
	require.NoError(t, err)
	require.Equal(t, "202", after.States[40001].Scalars["STND"].Raw, "the write committed")
	require.Equal(t, "B2", after.States[40001].Groups[flight.GroupGates][0].Fields["GATE"].Raw)
}
