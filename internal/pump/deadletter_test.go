package pump

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/replay"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Every terminal message is backfilled to the mailbox, dead letters too: the
// AODB sees each row read, with its META where META decoded. A failing
// message binds its kind and META at the failure, so an exhausted one is
// backfilled with them. A dead letter replayed to a new outcome is
// backfilled again with it (rule 18): msgx overwrites its own backfill,
// never a row someone else processed.
func TestDeadLettersAreBackfilled(t *testing.T) {
	t.Parallel()
	log := &finishLog{}
	e := newEnv(t, func(c *Config) { c.MaxAttempts = 2; c.Observer = log })
	malformed := e.Send(t, "<MSG><META>broken")
	unsupported := e.Send(t, envelope("SCHS", "DNLD", "<SCHS/>"))
	e.StepUntilWait(t)

	m := e.msg(t, unsupported)
	require.Equal(t, vocab.StatusFailed, m.Status)
	require.Equal(t, "SCHS", m.Meta.Type, "the failure binds META")
	require.Equal(t, "UNSUPPORTED", m.Kind)
	require.Empty(t, m.IdentityKey, "but not the identity")
	e.Clock.Advance(time.Second)
	e.StepUntilWait(t)
	require.Equal(t, "EXHAUSTED", e.msg(t, unsupported).ErrorClass)
	require.Equal(t, 2, log.count(vocab.StatusDead), "the malformed and the exhausted message, each counted once")

	byID := map[int64]vocab.Backfill{}
	for _, b := range e.todos {
		byID[b.MsgID] = b
	}
	require.Contains(t, byID, malformed, "a MALFORMED message is backfilled too")
	require.Contains(t, byID, unsupported, "an EXHAUSTED message is backfilled")
	for _, id := range []int64{malformed, unsupported} {
		_, err := e.Mailbox.Backfill(t.Context(), byID[id])
		require.NoError(t, err)
	}
	row, err := e.Mailbox.Get(t.Context(), malformed)
	require.NoError(t, err)
	require.NotNil(t, row.ProcessedAt)
	require.Equal(t, vocab.StatusDead, row.Status)
	require.Empty(t, row.Type, "no META decoded: none written")
	row, err = e.Mailbox.Get(t.Context(), unsupported)
	require.NoError(t, err)
	require.NotNil(t, row.ProcessedAt)
	require.Equal(t, vocab.StatusDead, row.Status)
	require.Equal(t, "SCHS", row.Type)
	require.Equal(t, "DNLD", row.Subtype)
	require.Equal(t, "AODB", row.Sndr)
	require.NotNil(t, row.Seqn)
	deadAt := *row.ProcessedAt

	// A new configuration ignores SCHS: the replayed message ends SKIPPED,
	// and the mailbox says so, not DEAD for ever.
	e.Clock.Advance(time.Hour)
	_, err = replay.Apply(t.Context(), e.Store, replay.Filter{IDs: []int64{unsupported}}, e.Clock.Now(), nil)
	require.NoError(t, err)
	e.pump.cfg.Decode.IgnoreTypes = []string{"SCHS"}
	e.todos = nil
	e.StepUntilWait(t)
	require.Equal(t, vocab.StatusSkipped, e.msg(t, unsupported).Status)
	require.Len(t, e.todos, 1)
	again := e.todos[0]
	require.Equal(t, vocab.StatusDead, again.OverwritesStatus, "a replayed message may overwrite msgx's DEAD")
	changed, err := e.Mailbox.Backfill(t.Context(), again)
	require.NoError(t, err)
	require.True(t, changed)
	row, err = e.Mailbox.Get(t.Context(), unsupported)
	require.NoError(t, err)
	require.Equal(t, vocab.StatusSkipped, row.Status)
	require.True(t, row.ProcessedAt.After(deadAt), "processed again an hour later")
	require.Equal(t, "SCHS", row.Type)
	stored, err := e.Store.DueBackfills(t.Context(), e.Clock.Now(), 10)
	require.NoError(t, err)
	require.Len(t, stored, 1, "the replayed one's, registered in the business transaction (the malformed one is above the mark)")
	require.Equal(t, unsupported, stored[0].MsgID)
	require.Equal(t, vocab.StatusDead, stored[0].OverwritesStatus, "the sweep knows it too")

	// Only msgx's own backfill is overwritten: a row processed by someone
	// else (another status) stays as it is.
	other := e.Send(t, envelope("SCHS", "DNLD", "<SCHS/>"))
	_, err = e.Mailbox.Backfill(t.Context(), vocab.Backfill{MsgID: other, MailboxStatus: "DONE", ProcessedAt: e.Clock.Now()})
	require.NoError(t, err)
	changed, err = e.Mailbox.Backfill(t.Context(), vocab.Backfill{MsgID: other, MailboxStatus: vocab.StatusSucceeded,
		ProcessedAt: e.Clock.Now().Add(time.Hour), OverwritesStatus: vocab.StatusDead})
	require.NoError(t, err)
	require.False(t, changed)
	row, err = e.Mailbox.Get(t.Context(), other)
	require.NoError(t, err)
	require.Equal(t, "DONE", row.Status)
}
