package pump

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

func TestScheduleThenFlightOps(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	dnld := e.Send(t, schd("DNLD", fltr(1, gates("A1", "A1", "B2")), fltr(2)))
	gt := e.Send(t, flop("GTDT", 1, gates("C3")))
	stnd := e.Send(t, flop("STND", 2, "<STND>201</STND>"))
	e.StepUntilWait(t)

	for _, id := range []int64{dnld, gt, stnd} {
		m := e.msg(t, id)
		require.Equal(t, vocab.StatusSucceeded, m.Status, "message %d: %s %s", id, m.ErrorClass, m.Reason)
		require.NotEmpty(t, m.IdentityKey)
	}
	f1 := e.flight(t, 1)
	require.Equal(t, int64(2), f1.StateVersion)
	require.Equal(t, gt, f1.LastMessageID)
	require.Len(t, f1.Groups[flight.GroupGates], 1)
	require.Equal(t, "C3", f1.Groups[flight.GroupGates][0].Fields["GATE"].Raw)
	require.Equal(t, "CA", f1.Scalars["ALCD"].Raw, "a FLOP leaves the other fields alone")
	require.Equal(t, time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC), f1.OperationDay)
	require.Equal(t, "201", e.flight(t, 2).Scalars["STND"].Raw)

	evs := e.events(t, gt)
	require.Len(t, evs, 2, "one event per target for the one changed flight")
	require.Equal(t, vocab.TargetMsg, evs[0].Target)
	require.Equal(t, vocab.TargetSchd, evs[1].Target)
	require.Equal(t, vocab.IdempotencyKey(gt, 1, 2, vocab.TargetMsg), evs[0].IdempotencyKey)
	require.Equal(t, vocab.EventUpsert, evs[0].EventType)
	require.Contains(t, string(evs[0].Payload), `"C3"`, "the payload is the full next state")
	require.Len(t, e.events(t, dnld), 2, "its two KAFKA:msg events: both flights' marks name later changes")

	require.Len(t, e.todos, 3, "every terminal message with META is backfilled after commit")
}

func TestNoOpMessageEmitsNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Send(t, schd("DNLD", fltr(1, "<STND>1</STND>")))
	same := e.Send(t, flop("STND", 1, "<STND>1</STND>"))
	e.StepUntilWait(t)
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, same).Status)
	require.Empty(t, e.events(t, same))
	require.Equal(t, int64(1), e.flight(t, 1).StateVersion)
}

func TestSkips(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	unknown := e.Send(t, flop("STND", 99, "<STND>1</STND>"))
	ldm := e.Send(t, envelope("LDM", "NONE", "<LDM>CA101/12</LDM>"))
	msg := schd("ADFT", fltr(5))
	first := e.Send(t, msg)
	dup := e.Send(t, msg) // same SNDR|TYPE|STYP|SEQN
	e.StepUntilWait(t)

	require.Equal(t, "no-match:flight", e.msg(t, unknown).Reason)
	require.Equal(t, vocab.StatusSkipped, e.msg(t, unknown).Status)
	require.Equal(t, "ignored:LDM", e.msg(t, ldm).Reason)
	d := e.msg(t, dup)
	require.Equal(t, vocab.StatusSkipped, d.Status)
	require.Equal(t, first, *d.DuplicateOf)
	require.Equal(t, int64(1), e.flight(t, 5).StateVersion, "the duplicate had no business effect")
}

func TestProtocolRejectionWritesNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Send(t, schd("DNLD", fltr(1, "<STND>1</STND>")))
	e.StepUntilWait(t)
	before := e.flight(t, 1)

	// A record moving flight 1 to another operation day, next to a valid one.
	moved := `<FLTR><FLID>1</FLID><SODT>05DEC261030</SODT><STND>9</STND></FLTR>`
	bad := e.Send(t, schd("UPD", fltr(2), moved))
	recs := e.Send(t, envelope("SCHD", "DNLD", "<SCHD><RECS>3</RECS>"+fltr(3)+"</SCHD>"))
	after := e.Send(t, flop("STND", 1, "<STND>7</STND>"))
	e.StepUntilWait(t)

	for _, id := range []int64{bad, recs} {
		m := e.msg(t, id)
		require.Equal(t, vocab.StatusDead, m.Status)
		require.Equal(t, "PROTOCOL", m.ErrorClass)
		require.Equal(t, "SCHD", m.Meta.Type, "the META of a refused message is kept for audit")
		require.Empty(t, m.IdentityKey, "a refused message holds no identity")
		require.Empty(t, e.events(t, id))
	}
	require.Nil(t, e.flight(t, 2), "nothing of the refused message is written")
	require.Nil(t, e.flight(t, 3))
	got := e.flight(t, 1)
	require.Equal(t, before.StateVersion+1, got.StateVersion, "only the later FLOP changed it")
	require.Equal(t, "7", got.Scalars["STND"].Raw)
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, after).Status, "a refused message does not block the queue")
	require.Len(t, e.todos, 4, "DEAD(PROTOCOL) with META is backfilled too")
}

func TestSnapshotGenerationsAndPrune(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Send(t, schd("DNLD", fltr(1), fltr(2), fltr(3)))
	e.Send(t, schd("ADFT", fltr(10))) // never a member: never pruned
	other := `<FLTR><FLID>20</FLID><SODT>03DEC261030</SODT></FLTR>`
	e.Send(t, schd("DNLD", other)) // another day
	second := e.Send(t, schd("DNLD", fltr(1), fltr(2)))
	e.StepUntilWait(t)

	require.Equal(t, flight.Deleted, e.flight(t, 3).Lifecycle, "a previous member absent from the new snapshot is pruned")
	require.Equal(t, flight.Active, e.flight(t, 10).Lifecycle)
	require.Equal(t, flight.Active, e.flight(t, 20).Lifecycle)
	require.Equal(t, int64(1), e.flight(t, 1).StateVersion, "an identical snapshot does not advance the flight")

	evs := e.events(t, second)
	require.Len(t, evs, 2, "only the pruned flight emits")
	require.Equal(t, vocab.EventTombstone, evs[0].EventType)
	require.Equal(t, int64(3), evs[0].FLID)

	day := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	gen, err := e.Store.SnapshotGen(t.Context(), day)
	require.NoError(t, err)
	require.Equal(t, int64(2), gen.Version)
	require.Equal(t, second, gen.LastMessageID)
	members, err := e.Store.SnapshotMembers(t.Context(), day)
	require.NoError(t, err)
	require.Equal(t, []int64{1, 2}, members)

	// The late snapshot of flight 3's day brings it back.
	back := e.Send(t, schd("DNLD", fltr(1), fltr(2), fltr(3)))
	e.StepUntilWait(t)
	require.Equal(t, flight.Active, e.flight(t, 3).Lifecycle)
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, back).Status)
}

func TestFailingHeadBlocksThenExhausts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	schs := e.Send(t, envelope("SCHS", "DNLD", "<SCHS/>"))
	later := e.Send(t, schd("ADFT", fltr(1)))

	wait, err := e.pump.Step(t.Context())
	require.NoError(t, err)
	require.Zero(t, wait)
	m := e.msg(t, schs)
	require.Equal(t, vocab.StatusFailed, m.Status)
	require.Equal(t, "UNSUPPORTED", m.ErrorClass)
	require.True(t, m.NextAttemptAt.Equal(start.Add(time.Second)), "first backoff is 1 s")

	wait, err = e.pump.Step(t.Context())
	require.NoError(t, err)
	require.Equal(t, time.Second, wait, "the pump waits for the head, it does not pass it")
	require.Equal(t, vocab.StatusPending, e.msg(t, later).Status)

	for i, backoff := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second} {
		e.Clock.Advance(backoff)
		_, err = e.pump.Step(t.Context())
		require.NoError(t, err)
		require.Equal(t, i+2, e.msg(t, schs).Attempts)
	}
	e.Clock.Advance(16 * time.Second)
	e.StepUntilWait(t)
	m = e.msg(t, schs)
	require.Equal(t, vocab.StatusDead, m.Status)
	require.Equal(t, "EXHAUSTED", m.ErrorClass)
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, later).Status, "after the head is settled the queue moves on")
}

func TestHeadDeadlineFromFirstFailure(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.MaxAttempts = 100 })
	schs := e.Send(t, envelope("SCHS", "DNLD", "<SCHS/>"))
	e.Clock.Advance(time.Hour) // waited behind a backlog: waiting is not failing
	e.StepUntilWait(t)
	e.Clock.Advance(9 * time.Minute)
	e.StepUntilWait(t)
	require.Equal(t, vocab.StatusFailed, e.msg(t, schs).Status)
	e.Clock.Advance(time.Minute)
	e.StepUntilWait(t)
	m := e.msg(t, schs)
	require.Equal(t, vocab.StatusDead, m.Status, "10 min after the first failure, however recent the last attempt")
	require.Equal(t, "EXHAUSTED", m.ErrorClass)
	require.Contains(t, m.Reason, "failing for 10m0s")
}

func TestMissingRawIsMalformedButReadErrorIsInfra(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, err := e.Store.Enqueue(t.Context(), []int64{424242}, start) // no such mailbox row
	require.NoError(t, err)
	e.StepUntilWait(t)
	m := e.msg(t, 424242)
	require.Equal(t, vocab.StatusDead, m.Status)
	require.Equal(t, "MALFORMED", m.ErrorClass)

	id := e.Send(t, schd("ADFT", fltr(1)))
	e.useRaw(readerFunc(func(context.Context, []int64) (map[int64][]byte, error) { return nil, errors.New("connection reset") }))
	e.StepUntilWait(t)
	m = e.msg(t, id)
	require.Equal(t, vocab.StatusFailed, m.Status, "a read error is never taken for a missing row")
	require.Equal(t, "INFRA", m.ErrorClass)
	e.useRaw(e.Mailbox)
	e.Clock.Advance(time.Second)
	e.StepUntilWait(t)
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, id).Status)
}

// errStatement is an error a statement raises on its data.
var errStatement = errors.New("injected: value too long for type character varying(1000)")

// failingStore injects a database failure into one operation of the real store.
type failingStore struct {
	store.Store
	failEvents bool
}

func (f *failingStore) Begin(ctx context.Context) (store.Tx, error) {
	tx, err := f.Store.Begin(ctx)
	if err != nil {
		return nil, err
	}
	return &failingTx{Tx: tx, s: f}, nil
}

type failingTx struct {
	store.Tx
	s *failingStore
}

func (t *failingTx) Begin(ctx context.Context) (store.Tx, error) {
	tx, err := t.Tx.Begin(ctx)
	if err != nil {
		return nil, err
	}
	return &failingTx{Tx: tx, s: t.s}, nil
}

func (t *failingTx) InsertEvents(ctx context.Context, evs []vocab.NewEvent) error {
	if t.s.failEvents {
		return errStatement // the message's own failure, not an outage (that pauses)
	}
	return t.Tx.InsertEvents(ctx, evs)
}

func TestFailureMidTransactionRollsBackTheMessageOnly(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	first := e.Send(t, schd("ADFT", fltr(1)))
	e.StepUntilWait(t)
	fs := &failingStore{Store: e.Store, failEvents: true}
	e.pump.store = fs

	a := e.Send(t, ldm())
	b := e.Send(t, flop("STND", 1, "<STND>5</STND>"))
	c := e.Send(t, flop("STND", 1, "<STND>6</STND>"))
	e.StepUntilWait(t)
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, first).Status)
	require.Equal(t, vocab.StatusSkipped, e.msg(t, a).Status, "the message before the failure is committed")
	mb := e.msg(t, b)
	require.Equal(t, vocab.StatusFailed, mb.Status)
	require.Equal(t, "INFRA", mb.ErrorClass)
	require.Equal(t, vocab.StatusPending, e.msg(t, c).Status, "nothing passes the failed head")
	f := e.flight(t, 1)
	require.Equal(t, int64(1), f.StateVersion, "the flight write of the failed message was rolled back with it")
	require.NotContains(t, f.Scalars, "STND")

	fs.failEvents = false
	e.Clock.Advance(time.Second)
	e.StepUntilWait(t)
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, b).Status)
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, c).Status)
	f = e.flight(t, 1)
	require.Equal(t, int64(3), f.StateVersion, "each message applied exactly once, in order")
	require.Equal(t, "6", f.Scalars["STND"].Raw)
}

func ldm() string { return envelope("LDM", "NONE", "<LDM>x</LDM>") }

func TestDuplicateAfterArchive(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	msg := schd("ADFT", fltr(1))
	first := e.Send(t, msg)
	e.StepUntilWait(t)
	e.backfillSweep(t)
	moved, err := e.Store.ArchiveMessages(t.Context(), store.ArchiveMessagesParams{Before: e.Clock.Now().Add(time.Hour), Max: 100, Now: e.Clock.Now()})
	require.NoError(t, err)
	require.Equal(t, 1, moved.Rows)

	again := e.Send(t, msg)
	e.StepUntilWait(t)
	m := e.msg(t, again)
	require.Equal(t, vocab.StatusSkipped, m.Status, "an archived identity still deduplicates")
	require.Equal(t, first, *m.DuplicateOf)
	require.Equal(t, int64(1), e.flight(t, 1).StateVersion)
}

// A duplicate shows the identity it repeats (the reason it was skipped), its
// kind and its META, on either path; archived together with its holder, the
// identity still deduplicates.
func TestDuplicateShowsItsIdentity(t *testing.T) {
	t.Parallel()
	for _, path := range []struct {
		name string
		run  int
	}{{"batch", 1000}, {"one by one", 1}} {
		t.Run(path.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, func(c *Config) { c.RunLength = path.run })
			msg := schd("ADFT", fltr(1))
			first := e.Send(t, msg)
			dup := e.Send(t, msg)
			e.StepUntilWait(t)

			holder, d := e.msg(t, first), e.msg(t, dup)
			require.Equal(t, vocab.StatusSkipped, d.Status)
			require.Equal(t, first, *d.DuplicateOf)
			require.NotEmpty(t, holder.IdentityKey)
			require.Equal(t, holder.IdentityKey, d.IdentityKey)
			require.Equal(t, holder.Kind, d.Kind)
			require.Equal(t, holder.Meta, d.Meta)

			e.backfillSweep(t)
			moved, err := e.Store.ArchiveMessages(t.Context(), store.ArchiveMessagesParams{Before: e.Clock.Now().Add(time.Hour), Max: 100, Now: e.Clock.Now()})
			require.NoError(t, err)
			require.Equal(t, 2, moved.Rows, "holder and duplicate archive side by side")
			again := e.Send(t, msg)
			e.StepUntilWait(t)
			m := e.msg(t, again)
			require.Equal(t, vocab.StatusSkipped, m.Status)
			require.Equal(t, first, *m.DuplicateOf, "the holder, not the archived duplicate")
			require.Equal(t, holder.IdentityKey, m.IdentityKey)
		})
	}
}
