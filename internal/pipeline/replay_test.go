package pipeline

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store"
)

func TestReplayAfterExhaustion(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *PumpConfig) { c.MaxAttempts = 1 })
	bad := e.send(t, flop("STND", 1, "<STND>1</STND>", "<XXXX>1</XXXX>")) // unknown element: UNSUPPORTED
	e.drain(t)
	e.clk.Advance(time.Second)
	e.drain(t)
	m := e.msg(t, bad)
	require.Equal(t, store.StatusDead, m.Status)
	require.Equal(t, "EXHAUSTED", m.ErrorClass)

	r := NewReplayer(e.st, e.clk)
	_, err := r.DryRun(t.Context(), store.ReplayFilter{Class: "PROTOCOL"}, 10)
	require.Error(t, err, "PROTOCOL is never replayable")
	preview, err := r.DryRun(t.Context(), store.ReplayFilter{Class: "EXHAUSTED"}, 10)
	require.NoError(t, err)
	require.Len(t, preview, 1)
	require.Equal(t, store.StatusDead, e.msg(t, bad).Status, "a dry run changes nothing")

	ids, err := r.Replay(t.Context(), store.ReplayFilter{MsgID: &bad})
	require.NoError(t, err)
	require.Equal(t, []int64{bad}, ids)
	m = e.msg(t, bad)
	require.Equal(t, store.StatusPending, m.Status)
	require.Zero(t, m.Attempts)
	require.Equal(t, "EXHAUSTED", m.PrevClass)
	require.Equal(t, 1, m.ReplayCount)
}
