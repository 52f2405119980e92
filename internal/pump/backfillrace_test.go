package pump

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/backfill"
	"github.com/msgx-aodb/msgx/internal/replay"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// advanceHook runs before before the first AdvanceBackfillMark: the moment
// between the sweep's read of the messages above the mark (and its mailbox
// write) and its move of the mark.
type advanceHook struct {
	store.Store
	before func()
}

func (s *advanceHook) AdvanceBackfillMark(ctx context.Context, p store.AdvanceBackfillMarkParams) (bool, error) {
	if f := s.before; f != nil {
		s.before = nil
		f()
	}
	return s.Store.AdvanceBackfillMark(ctx, p)
}

// Rule 18's race: the sweep backfills a message's DEAD outcome (above the
// mark) while a replay finishes it again and registers a todo (a replay
// always does). The mark passes the message, the todo survives, and the
// sweep's todos, after the mark, overwrite the DEAD backfill with the new
// outcome.
func TestReplayDuringTheSweepKeepsTheNewTodo(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.MaxAttempts = 1 })
	bad := e.Send(t, flop("STND", 1, "<STND>1</STND>", "<XXXX>1</XXXX>")) // unknown element: UNSUPPORTED
	e.StepUntilWait(t)
	e.Clock.Advance(time.Second)
	e.StepUntilWait(t)
	require.Equal(t, vocab.StatusDead, e.msg(t, bad).Status)

	hook := &advanceHook{Store: e.Store, before: func() {
		_, err := replay.Apply(t.Context(), e.Store, replay.Filter{IDs: []int64{bad}}, e.Clock.Now(), nil)
		require.NoError(t, err)
		e.pump.cfg.Decode.IgnoreTypes = []string{"FLOP"}
		e.StepUntilWait(t)
		require.Equal(t, vocab.StatusSkipped, e.msg(t, bad).Status)
	}}
	bf := backfill.New(hook, e.Mailbox, e.Clock, slog.New(slog.NewTextHandler(io.Discard, nil)), backfill.Config{})
	_, _, err := bf.Sweep(t.Context())
	require.NoError(t, err)
	require.Nil(t, hook.before, "the replay ran between the mailbox write and the move of the mark")
	row, err := e.Mailbox.Get(t.Context(), bad)
	require.NoError(t, err)
	require.Equal(t, vocab.StatusSkipped, row.Status, "the todos after the mark: the new outcome overwrites the DEAD backfill (rule 18)")
	due, err := e.Store.DueBackfills(t.Context(), e.Clock.Now(), 10)
	require.NoError(t, err)
	require.Empty(t, due)
	mark, err := e.Store.BackfillMark(t.Context())
	require.NoError(t, err)
	require.Equal(t, bad, mark, "the mark passed the replayed message: its todo carried it")
}

// The mark's race (docs/design.md §1.4): the sweep reads the messages above
// the mark and writes them to the mailbox; before it moves the mark, a late
// row between them enters the queue and the pump finishes it. Its business
// transaction read the old mark, below it, so it registered no todo. The
// move counts the range under the PIPELINE_LOCK and fails; the sweep reads
// again and backfills the late row too. Were the mark moved, the late row
// would never be backfilled. A late row that comes after the mark moved
// past it registers a todo, which its backfill after commit deletes.
func TestLateRowWhileTheSweepMovesTheMark(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ids := make([]int64, 4)
	for i := range ids {
		id, err := e.Mailbox.Insert(t.Context(), []byte(flop("STND", int64(i+1), "<STND>1</STND>")), e.Clock.Now())
		require.NoError(t, err)
		ids[i] = id
	}
	_, err := e.Store.Enqueue(t.Context(), []int64{ids[0], ids[3]}, e.Clock.Now())
	require.NoError(t, err)
	e.StepUntilWait(t)
	late, later := ids[1], ids[2]

	hook := &advanceHook{Store: e.Store, before: func() {
		_, err := e.Store.Enqueue(t.Context(), []int64{late}, e.Clock.Now())
		require.NoError(t, err)
		e.StepUntilWait(t)
		require.Contains(t, []string{vocab.StatusSucceeded, vocab.StatusSkipped}, e.msg(t, late).Status)
		due, err := e.Store.DueBackfills(t.Context(), e.Clock.Now(), 10)
		require.NoError(t, err)
		require.Empty(t, due, "the mark was below the late row: no todo")
	}}
	bf := backfill.New(hook, e.Mailbox, e.Clock, slog.New(slog.DiscardHandler), backfill.Config{})
	_, _, err = bf.Sweep(t.Context())
	require.NoError(t, err)
	require.Nil(t, hook.before, "the late row came between the read and the move")
	for _, id := range []int64{ids[0], late, ids[3]} {
		row, err := e.Mailbox.Get(t.Context(), id)
		require.NoError(t, err)
		require.Equal(t, e.msg(t, id).Status, row.Status, "message %d backfilled", id)
	}
	mark, err := e.Store.BackfillMark(t.Context())
	require.NoError(t, err)
	require.Equal(t, ids[3], mark)
	st, err := e.Store.BackfillStats(t.Context())
	require.NoError(t, err)
	require.Zero(t, st.Todos, "nothing outstanding")

	// Below the mark, a late row registers its todo in the business transaction.
	_, err = e.Store.Enqueue(t.Context(), []int64{later}, e.Clock.Now())
	require.NoError(t, err)
	e.todos = nil
	e.StepUntilWait(t)
	due, err := e.Store.DueBackfills(t.Context(), e.Clock.Now(), 10)
	require.NoError(t, err)
	require.Len(t, due, 1)
	require.Equal(t, later, due[0].MsgID)
	bf.BackfillNow(t.Context(), e.todos)
	due, err = e.Store.DueBackfills(t.Context(), e.Clock.Now(), 10)
	require.NoError(t, err)
	require.Empty(t, due, "the backfill after commit deletes the late row's todo")
	row, err := e.Mailbox.Get(t.Context(), later)
	require.NoError(t, err)
	require.Equal(t, e.msg(t, later).Status, row.Status)
}
