package pump

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/replay"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// The replay service (internal/replay) on what the pump left: an exhausted
// message goes back to PENDING with its audit, and the pump processes it
// again.
func TestReplayAfterExhaustion(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.MaxAttempts = 1 })
	bad := e.Send(t, flop("STND", 1, "<STND>1</STND>", "<XXXX>1</XXXX>")) // unknown element: UNSUPPORTED
	e.StepUntilWait(t)
	e.Clock.Advance(time.Second)
	e.StepUntilWait(t)
	m := e.msg(t, bad)
	require.Equal(t, vocab.StatusDead, m.Status)
	require.Equal(t, "EXHAUSTED", m.ErrorClass)

	_, err := replay.Preview(t.Context(), e.Store, e.Mailbox, replay.Filter{Class: "PROTOCOL"}, replay.Options{Decode: e.pump.cfg.Decode})
	require.ErrorIs(t, err, replay.ErrNotReplayable, "PROTOCOL is never replayable")
	plan, err := replay.Preview(t.Context(), e.Store, e.Mailbox, replay.Filter{Class: "EXHAUSTED"}, replay.Options{Decode: e.pump.cfg.Decode})
	require.NoError(t, err)
	require.Len(t, plan.Messages, 1)
	require.Equal(t, vocab.StatusDead, e.msg(t, bad).Status, "a dry run changes nothing")

	ids, err := replay.Apply(t.Context(), e.Store, replay.Filter{IDs: []int64{bad}}, e.Clock.Now(), nil)
	require.NoError(t, err)
	require.Equal(t, []int64{bad}, ids)
	m = e.msg(t, bad)
	require.Equal(t, vocab.StatusPending, m.Status)
	require.Zero(t, m.Attempts)
	require.Equal(t, "EXHAUSTED", m.PrevClass)
	require.Equal(t, 1, m.ReplayCount)

	// Processed again, and refused again (this build still lacks the element).
	e.StepUntilWait(t)
	e.Clock.Advance(time.Second)
	e.StepUntilWait(t)
	m = e.msg(t, bad)
	require.Equal(t, vocab.StatusDead, m.Status)
	require.Equal(t, 1, m.Attempts)
	require.Equal(t, 1, m.ReplayCount)
}

// A message exhausted by the head-deadline and replayed later gets a whole
// new series of attempts: the replay restarts the deadline too.
func TestReplayAfterHeadDeadlineRestartsIt(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.MaxAttempts = 100 })
	bad := e.Send(t, envelope("SCHS", "DNLD", "<SCHS/>")) // UNSUPPORTED: fails every time
	e.StepUntilWait(t)
	e.Clock.Advance(10 * time.Minute)
	e.StepUntilWait(t)
	require.Equal(t, "EXHAUSTED", e.msg(t, bad).ErrorClass)

	e.Clock.Advance(time.Hour)
	_, err := replay.Apply(t.Context(), e.Store, replay.Filter{IDs: []int64{bad}}, e.Clock.Now(), nil)
	require.NoError(t, err)
	e.StepUntilWait(t)
	for attempt := 2; attempt <= 4; attempt++ {
		e.Clock.Advance(time.Minute)
		e.StepUntilWait(t)
		m := e.msg(t, bad)
		require.Equal(t, vocab.StatusFailed, m.Status, "attempt %d after the replay: %s", attempt, m.Reason)
		require.Equal(t, attempt, m.Attempts)
	}
	e.Clock.Advance(7 * time.Minute) // 10 min after the first failure since the replay
	e.StepUntilWait(t)
	require.Equal(t, "EXHAUSTED", e.msg(t, bad).ErrorClass)
}
