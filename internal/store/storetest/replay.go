package storetest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// testReplayBatches covers the Replays section (store/replay.go).
func testReplayBatches(t *testing.T, newStore Factory) {
	// seed: 1 DEAD EXHAUSTED, 2 DEAD PROTOCOL, 3 FAILED UNSUPPORTED, 4 PENDING,
	// 5 DEAD EXHAUSTED, 6 SUCCEEDED, 7 FAILED INFRA.
	seed := func(t *testing.T) store.Store {
		s := newStore(t)
		_, err := s.Enqueue(ctx(t), []int64{1, 2, 3, 4, 5, 6, 7}, t0)
		require.NoError(t, err)
		require.NoError(t, s.FinishMessages(ctx(t), []vocab.Finish{
			{MsgID: 1, Status: vocab.StatusDead, ErrorClass: "EXHAUSTED", Reason: "5 attempts", Now: t0},
			{MsgID: 2, Status: vocab.StatusDead, ErrorClass: "PROTOCOL", Reason: "RECS", Now: t0},
			{MsgID: 5, Status: vocab.StatusDead, ErrorClass: "EXHAUSTED", Reason: "head deadline", Now: t0},
			{MsgID: 6, Status: vocab.StatusSucceeded, Now: t0},
		}))
		for id, class := range map[int64]string{3: "UNSUPPORTED", 7: "INFRA"} {
			_, err = s.RecordFailure(ctx(t), vocab.RecordFailureParams{MsgID: id, ErrorClass: class, Reason: "x", NextAttemptAt: t0, Now: t0})
			require.NoError(t, err)
		}
		return s
	}

	t.Run("CandidatesPaged", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := seed(t)
		all, err := s.ReplayCandidates(ctx(t), store.ReplayCandidatesParams{Limit: 10})
		require.NoError(t, err)
		require.Equal(t, []int64{1, 3, 5, 7}, ids(all), "FAILED/DEAD of the replayable classes only")
		require.Equal(t, "EXHAUSTED", all[0].ErrorClass)
		require.Equal(t, "5 attempts", all[0].Reason)

		page, err := s.ReplayCandidates(ctx(t), store.ReplayCandidatesParams{AfterID: 1, Limit: 2})
		require.NoError(t, err)
		require.Equal(t, []int64{3, 5}, ids(page), "after 1, at most 2")

		byClass, err := s.ReplayCandidates(ctx(t), store.ReplayCandidatesParams{Class: "EXHAUSTED", Limit: 10})
		require.NoError(t, err)
		require.Equal(t, []int64{1, 5}, ids(byClass))

		byIDs, err := s.ReplayCandidates(ctx(t), store.ReplayCandidatesParams{IDs: []int64{2, 4, 5, 6, 7, 99}, Limit: 10})
		require.NoError(t, err)
		require.Equal(t, []int64{5, 7}, ids(byIDs), "PROTOCOL, PENDING, SUCCEEDED and unknown ids are not candidates")

		both, err := s.ReplayCandidates(ctx(t), store.ReplayCandidatesParams{IDs: []int64{1, 3, 7}, Class: "INFRA", Limit: 10})
		require.NoError(t, err)
		require.Equal(t, []int64{7}, ids(both))

		none, err := s.ReplayCandidates(ctx(t), store.ReplayCandidatesParams{IDs: []int64{}, Limit: 10})
		require.NoError(t, err)
		require.Empty(t, none, "an empty id list selects nothing, not everything")
	})

	t.Run("ReplayIDs", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := seed(t)
		now := t0.Add(time.Hour)
		_, before, err := s.QueueRun(ctx(t), 10)
		require.NoError(t, err)
		moved, err := s.ReplayIDs(ctx(t), []int64{7, 2, 5, 4, 99}, now)
		require.NoError(t, err)
		require.Equal(t, []int64{5, 7}, moved, "only the replayable ones, in MSG_ID order")
		_, after, err := s.QueueRun(ctx(t), 10)
		require.NoError(t, err)
		require.Equal(t, before+1, after,
			"a replay counts itself as an enqueue below the largest known id: a run read before it is abandoned")

		m, err := s.Message(ctx(t), 7)
		require.NoError(t, err)
		require.Nil(t, m.FailingSince, "a replay restarts the head-deadline")
		require.Nil(t, m.NextAttemptAt)

		m, err = s.Message(ctx(t), 5)
		require.NoError(t, err)
		require.Equal(t, vocab.StatusPending, m.Status)
		require.Zero(t, m.Attempts)
		require.Nil(t, m.FinishedAt)
		require.Equal(t, "EXHAUSTED", m.PrevClass, "the old error is kept as audit")
		require.Equal(t, "head deadline", m.PrevReason)
		require.Equal(t, 1, m.ReplayCount)
		m, err = s.Message(ctx(t), 2)
		require.NoError(t, err)
		require.Equal(t, vocab.StatusDead, m.Status, "PROTOCOL stays DEAD")

		again, err := s.ReplayIDs(ctx(t), []int64{5, 7}, now)
		require.NoError(t, err)
		require.Empty(t, again, "a PENDING message is not replayed twice")
		empty, err := s.ReplayIDs(ctx(t), nil, now)
		require.NoError(t, err)
		require.Empty(t, empty)

		left, err := s.ReplayCandidates(ctx(t), store.ReplayCandidatesParams{Limit: 10})
		require.NoError(t, err)
		require.Equal(t, []int64{1, 3}, ids(left))
	})

	t.Run("FlightMarks", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		marks, err := s.FlightMarks(ctx(t), []int64{10})
		require.NoError(t, err)
		require.Empty(t, marks)

		a, b := RichFlight(10), RichFlight(11)
		b.StateVersion, b.LastMessageID = 7, 99
		write(t, s, t0, a, b)
		marks, err = s.FlightMarks(ctx(t), []int64{11, 10, 12})
		require.NoError(t, err)
		require.Len(t, marks, 2, "flights that do not exist are absent")
		require.Equal(t, int64(42), marks[10].LastMessageID)
		require.Equal(t, int64(1), marks[10].StateVersion)
		require.Equal(t, int64(99), marks[11].LastMessageID)
		require.Equal(t, int64(7), marks[11].StateVersion)
		require.Equal(t, "ACTIVE", marks[11].Lifecycle)
		require.True(t, marks[11].OperationDay.Equal(b.OperationDay), "%v", marks[11].OperationDay)
		require.True(t, marks[11].UpdatedAt.Equal(t0), "%v", marks[11].UpdatedAt)
	})
}
