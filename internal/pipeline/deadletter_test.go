package pipeline

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store"
)

// Every terminal message is backfilled to the mailbox, dead letters too: the
// AODB sees each row read, with its META where META decoded. A failing
// message binds its kind and META at the failure, so an exhausted one is
// backfilled with them.
func TestDeadLettersAreBackfilled(t *testing.T) {
	t.Parallel()
	log := &finishLog{}
	e := newEnv(t, func(c *PumpConfig) { c.MaxAttempts = 2; c.Observer = log })
	malformed := e.send(t, "<MSG><META>broken")
	unsupported := e.send(t, envelope("SCHS", "DNLD", "<SCHS/>"))
	e.drain(t)

	m := e.msg(t, unsupported)
	require.Equal(t, store.StatusFailed, m.Status)
	require.Equal(t, "SCHS", m.Meta.Type, "the failure binds META")
	require.Equal(t, "UNSUPPORTED", m.Kind)
	require.Empty(t, m.IdentityKey, "but not the identity")
	e.clk.Advance(time.Second)
	e.drain(t)
	require.Equal(t, "EXHAUSTED", e.msg(t, unsupported).ErrorClass)
	require.Equal(t, 2, log.count(store.StatusDead), "the malformed and the exhausted message, each counted once")

	byID := map[int64]store.Backfill{}
	for _, b := range e.todos {
		byID[b.MsgID] = b
	}
	require.Contains(t, byID, malformed, "a MALFORMED message is backfilled too")
	require.Contains(t, byID, unsupported, "an EXHAUSTED message is backfilled")
	for _, id := range []int64{malformed, unsupported} {
		_, err := e.mb.Backfill(t.Context(), byID[id])
		require.NoError(t, err)
	}
	row, err := e.mb.Get(t.Context(), malformed)
	require.NoError(t, err)
	require.NotNil(t, row.ProcessedAt)
	require.Equal(t, store.StatusDead, row.Status)
	require.Empty(t, row.Type, "no META decoded: none written")
	row, err = e.mb.Get(t.Context(), unsupported)
	require.NoError(t, err)
	require.NotNil(t, row.ProcessedAt)
	require.Equal(t, store.StatusDead, row.Status)
	require.Equal(t, "SCHS", row.Type)
	require.Equal(t, "DNLD", row.Subtype)
	require.Equal(t, "AODB", row.Sndr)
	require.NotNil(t, row.Seqn)
}
