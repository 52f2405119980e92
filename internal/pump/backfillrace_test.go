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

// deleteHook runs before before the first DeleteBackfills: the moment
// between the sweep's mailbox write and the delete of its todos.
type deleteHook struct {
	store.Store
	before func()
}

func (s *deleteHook) DeleteBackfills(ctx context.Context, done []vocab.BackfillKey) error {
	if f := s.before; f != nil {
		s.before = nil
		f()
	}
	return s.Store.DeleteBackfills(ctx, done)
}

// Rule 18's race: the sweep backfills a message's DEAD outcome while a
// replay finishes it again and re-registers its todo. The sweep's delete
// names the registration it backfilled, so the new todo survives and the
// next sweep overwrites the DEAD backfill with the new outcome.
func TestReplayDuringTheSweepKeepsTheNewTodo(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.MaxAttempts = 1 })
	bad := e.Send(t, flop("STND", 1, "<STND>1</STND>", "<XXXX>1</XXXX>")) // unknown element: UNSUPPORTED
	e.StepUntilWait(t)
	e.Clock.Advance(time.Second)
	e.StepUntilWait(t)
	require.Equal(t, vocab.StatusDead, e.msg(t, bad).Status)

	hook := &deleteHook{Store: e.Store, before: func() {
		_, err := replay.Apply(t.Context(), e.Store, replay.Filter{IDs: []int64{bad}}, e.Clock.Now(), nil)
		require.NoError(t, err)
		e.pump.cfg.Decode.IgnoreTypes = []string{"FLOP"}
		e.StepUntilWait(t)
		require.Equal(t, vocab.StatusSkipped, e.msg(t, bad).Status)
	}}
	bf := backfill.New(hook, e.Mailbox, e.Clock, slog.New(slog.NewTextHandler(io.Discard, nil)), backfill.Config{})
	_, _, err := bf.Sweep(t.Context())
	require.NoError(t, err)
	require.Nil(t, hook.before, "the replay ran between the mailbox write and the delete")
	row, err := e.Mailbox.Get(t.Context(), bad)
	require.NoError(t, err)
	require.Equal(t, vocab.StatusDead, row.Status, "the sweep wrote the DEAD outcome it had read")

	due, err := e.Store.DueBackfills(t.Context(), e.Clock.Now(), 10)
	require.NoError(t, err)
	require.Len(t, due, 1, "the todo the replay registered survives the sweep's delete")
	require.Equal(t, vocab.StatusSkipped, due[0].MailboxStatus)

	_, _, err = bf.Sweep(t.Context())
	require.NoError(t, err)
	row, err = e.Mailbox.Get(t.Context(), bad)
	require.NoError(t, err)
	require.Equal(t, vocab.StatusSkipped, row.Status, "the next sweep overwrites the DEAD backfill (rule 18)")
	due, err = e.Store.DueBackfills(t.Context(), e.Clock.Now(), 10)
	require.NoError(t, err)
	require.Empty(t, due)
}
