package storetest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// testStatus covers the Status section (store/status.go).
func testStatus(t *testing.T, newStore Factory) {
	t.Run("OutboxLagPerTarget", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		lag, err := s.OutboxLag(ctx(t))
		require.NoError(t, err)
		require.Empty(t, lag, "nothing pending: no targets")

		at := func(ev vocab.NewEvent, d time.Duration) vocab.NewEvent { ev.CreatedAt = t0.Add(d); return ev }
		require.NoError(t, s.InsertEvents(ctx(t), []vocab.NewEvent{
			at(newEvent(1, 10, 1), 0), at(newEvent(2, 11, 1), time.Minute), at(newEvent(3, 12, 1), 2*time.Minute),
		}))
		later := at(newEvent(3, 10, 2), time.Hour)
		require.NoError(t, s.MarkSchd(ctx(t), []vocab.SchdMark{newMark(1, 10, 1, t0), newMark(2, 11, 1, t0.Add(time.Minute))}))
		head, err := s.PendingEvents(ctx(t), vocab.TargetMsg, 10)
		require.NoError(t, err)
		require.NoError(t, s.MarkSent(ctx(t), store.MarkSentParams{Target: vocab.TargetMsg, IDs: []int64{head[0].ID}, Now: t0}), "the oldest msg event is delivered")
		schd, err := s.DueSchdMarks(ctx(t), store.DueSchdMarksParams{Now: t0, Max: 10})
		require.NoError(t, err)
		for range 2 { // DEAD is not pending
			_, err = s.RecordSchdFailure(ctx(t), store.RecordSchdFailureParams{SchdSent: store.SentAs(schd[1]), Reason: "x", NextAttemptAt: t0, MaxAttempts: 2})
			require.NoError(t, err)
		}
		require.NoError(t, s.InsertEvents(ctx(t), []vocab.NewEvent{later}))
		require.NoError(t, s.MarkSchd(ctx(t), []vocab.SchdMark{newMark(3, 10, 2, t0.Add(time.Hour))}), "a newer change keeps the flight pending since its first")

		lag, err = s.OutboxLag(ctx(t))
		require.NoError(t, err)
		require.Len(t, lag, 2)
		require.Equal(t, vocab.TargetMsg, lag[0].Target)
		require.Equal(t, int64(3), lag[0].Pending)
		require.True(t, lag[0].Oldest.Equal(t0.Add(time.Minute)), "oldest pending, not the sent one: %v", lag[0].Oldest)
		require.Equal(t, vocab.TargetSchd, lag[1].Target)
		require.Equal(t, int64(1), lag[1].Pending)
		require.True(t, lag[1].Oldest.Equal(t0), "%v", lag[1].Oldest)
	})

	t.Run("BackfillStats", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		st, err := s.BackfillStats(ctx(t))
		require.NoError(t, err)
		require.Equal(t, store.BackfillStats{}, st, "no todos: zero and no oldest")

		todo := func(id int64, at time.Time) vocab.Backfill {
			return vocab.Backfill{MsgID: id, MailboxStatus: vocab.StatusSucceeded, ProcessedAt: at}
		}
		require.NoError(t, s.AddBackfills(ctx(t), []vocab.Backfill{todo(7, t0.Add(time.Minute)), todo(5, t0.Add(2*time.Minute)), todo(9, t0)}))
		require.NoError(t, s.RecordBackfillFailure(ctx(t), store.RecordBackfillFailureParams{Backfill: vocab.Backfill{MsgID: 5, MailboxStatus: vocab.StatusSucceeded, ProcessedAt: t0}, NextAttemptAt: t0.Add(time.Hour), Reason: "mailbox down"}))

		st, err = s.BackfillStats(ctx(t))
		require.NoError(t, err)
		require.Equal(t, int64(3), st.Todos)
		require.Equal(t, int64(1), st.Failing)
		require.NotNil(t, st.Oldest)
		require.True(t, st.Oldest.Equal(t0), "the oldest registration: %v", st.Oldest)

		require.NoError(t, s.DeleteBackfills(ctx(t), []vocab.BackfillKey{{MsgID: 9}, {MsgID: 5}}))
		st, err = s.BackfillStats(ctx(t))
		require.NoError(t, err)
		require.Equal(t, int64(1), st.Todos)
		require.Zero(t, st.Failing)
		require.True(t, st.Oldest.Equal(t0.Add(time.Minute)))
	})
}
