package pump

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/msgx-aodb/msgx/internal/vocab"
	"github.com/stretchr/testify/require"
)

// A message another leader finishes between this pump's read of the queue
// head and its lock is not processed again: the re-check under the lock
// sees it finished.
func TestMessageFinishedMeanwhileIsNotProcessedAgain(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.RunLength = 1 }) // one message per run: the one-by-one path
	e.Send(t, schd("ADFT", fltr(1)))
	e.StepUntilWait(t)
	e.todos = nil
	x := e.Send(t, flop("STND", 1, "<STND>5</STND>"))
	y := e.Send(t, flop("STND", 1, "<STND>6</STND>"))

	cfg := e.pump.cfg
	cfg.RunLength = DefaultConfig().RunLength
	other := New(e.Store, e.Mailbox, nil, e.Clock, slog.New(slog.NewTextHandler(io.Discard, nil)), cfg)
	raced := false
	e.useRaw(readerFunc(func(ctx context.Context, ids []int64) (map[int64][]byte, error) {
		if !raced { // after this pump read the head [x], before it locks x
			raced = true
			_, err := other.Step(ctx)
			require.NoError(t, err)
			require.Equal(t, vocab.StatusSucceeded, e.msg(t, y).Status, "the other pump processed x and y")
		}
		return e.Mailbox.ReadRaws(ctx, ids)
	}))
	_, err := e.pump.Step(t.Context())
	require.NoError(t, err)
	require.True(t, raced)

	m := e.msg(t, x)
	require.Equal(t, vocab.StatusSucceeded, m.Status)
	require.Zero(t, m.Attempts)
	require.Empty(t, m.ErrorClass)
	f := e.flight(t, 1)
	require.Equal(t, "6", f.Scalars["STND"].Raw, "x is not applied again over y")
	require.Equal(t, int64(3), f.StateVersion)
	require.Len(t, e.events(t, x), 1, "x's events are the other pump's only (the flight's mark names y)")
	require.Empty(t, e.todos, "this pump finished nothing")
}
