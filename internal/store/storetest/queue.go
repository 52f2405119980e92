package storetest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

func testQueue(t *testing.T, newStore Factory) {
	t.Run("HeadIsSmallestUnfinishedAndFailedHoldsIt", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		n, err := s.Enqueue(ctx(t), []int64{5, 3, 1, 4, 2}, t0)
		require.NoError(t, err)
		require.Equal(t, 5, n)

		head := headIDs(t, s)
		require.Equal(t, []int64{1, 2, 3, 4, 5}, head)

		require.NoError(t, s.FinishMessages(ctx(t), []vocab.Finish{{MsgID: 1, Status: vocab.StatusSucceeded, Now: t0}}))
		attempts, err := s.RecordFailure(ctx(t), vocab.RecordFailureParams{MsgID: 2, ErrorClass: "INFRA", Reason: "db down", NextAttemptAt: t0.Add(time.Second), Now: t0})
		require.NoError(t, err)
		require.Equal(t, 1, attempts)

		// A FAILED message still holds the head; nothing behind it overtakes.
		head = headIDs(t, s)
		require.Equal(t, int64(2), head[0])
		m, err := s.Message(ctx(t), 2)
		require.NoError(t, err)
		require.Equal(t, vocab.StatusFailed, m.Status)
		require.Equal(t, "INFRA", m.ErrorClass)
		require.True(t, m.NextAttemptAt.Equal(t0.Add(time.Second)))
		require.True(t, m.FirstSeenAt.Equal(t0), "first_seen_at is the stable enqueue time")
		require.True(t, m.FailingSince.Equal(t0), "the first counted failure starts the head-deadline")

		attempts, err = s.RecordFailure(ctx(t), vocab.RecordFailureParams{MsgID: 2, ErrorClass: "INFRA", Reason: "again", NextAttemptAt: t0.Add(3 * time.Second), Now: t0.Add(2 * time.Second)})
		require.NoError(t, err)
		require.Equal(t, 2, attempts)
		m, err = s.Message(ctx(t), 2)
		require.NoError(t, err)
		require.True(t, m.FirstSeenAt.Equal(t0), "a retry does not move first_seen_at")
		require.True(t, m.FailingSince.Equal(t0), "nor the start of the failing series")
		require.Empty(t, m.Kind, "nothing bound without Bind")

		seqn, dttm := int64(77), t0.Add(-time.Minute)
		meta := vocab.Meta{Sndr: "AODB", Seqn: &seqn, DttmRaw: "20261202075900", Dttm: &dttm, Type: "SCHS", Styp: "DNLD"}
		_, err = s.RecordFailure(ctx(t), vocab.RecordFailureParams{MsgID: 2, ErrorClass: "UNSUPPORTED", Reason: "x", NextAttemptAt: t0, Now: t0,
			Bind: &vocab.Binding{Kind: "UNSUPPORTED", Meta: meta}})
		require.NoError(t, err)
		m, err = s.Message(ctx(t), 2)
		require.NoError(t, err)
		require.Equal(t, "UNSUPPORTED", m.Kind, "a failure binds the kind and META it decoded to")
		require.Equal(t, "AODB", m.Meta.Sndr)
		require.Equal(t, int64(77), *m.Meta.Seqn)
		require.True(t, m.Meta.Dttm.Equal(dttm))
		require.Equal(t, "SCHS", m.Meta.Type)
		require.Empty(t, m.IdentityKey, "but not an identity")
		_, err = s.RecordFailure(ctx(t), vocab.RecordFailureParams{MsgID: 2, ErrorClass: "INFRA", Reason: "y", NextAttemptAt: t0, Now: t0})
		require.NoError(t, err)
		m, err = s.Message(ctx(t), 2)
		require.NoError(t, err)
		require.Equal(t, "SCHS", m.Meta.Type, "a failure without Bind keeps what is bound")

		// A run's entries: the head's order, with what the pump uses of them.
		run, _, err := s.QueueRun(ctx(t), 2)
		require.NoError(t, err)
		require.Equal(t, []vocab.QueueEntry{
			{ID: 2, Status: vocab.StatusFailed, Attempts: 4, FirstSeenAt: run[0].FirstSeenAt},
			{ID: 3, Status: vocab.StatusPending, FirstSeenAt: run[1].FirstSeenAt},
		}, run)
		require.True(t, run[0].FirstSeenAt.Equal(t0) && run[1].FirstSeenAt.Equal(t0))

		require.NoError(t, s.FinishMessages(ctx(t), []vocab.Finish{{MsgID: 2, Status: vocab.StatusDead, ErrorClass: "EXHAUSTED", Reason: "attempts", Now: t0}}))
		require.Equal(t, []int64{3, 4, 5}, headIDs(t, s))
	})

	t.Run("PendingAfterListsOnlyPendingIdsAfterTheGivenOne", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		_, err := s.Enqueue(ctx(t), []int64{1, 2, 3, 4, 5, 6}, t0)
		require.NoError(t, err)
		require.NoError(t, s.FinishMessages(ctx(t), []vocab.Finish{{MsgID: 4, Status: vocab.StatusSucceeded, Now: t0}}))
		_, err = s.RecordFailure(ctx(t), vocab.RecordFailureParams{MsgID: 3, ErrorClass: "INFRA", Reason: "down", NextAttemptAt: t0, Now: t0})
		require.NoError(t, err)
		got, err := s.PendingAfter(ctx(t), 2, 10)
		require.NoError(t, err)
		require.Equal(t, []int64{5, 6}, got, "neither FAILED nor finished, only after 2")
		got, err = s.PendingAfter(ctx(t), 0, 2)
		require.NoError(t, err)
		require.Equal(t, []int64{1, 2}, got, "at most max, in order")
	})

	t.Run("EnqueueIsIdempotentAndSkipsArchived", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		_, err := s.Enqueue(ctx(t), []int64{10, 11}, t0)
		require.NoError(t, err)
		n, err := s.Enqueue(ctx(t), []int64{10, 11, 12}, t0.Add(time.Minute))
		require.NoError(t, err)
		require.Equal(t, 1, n, "a rescan enqueues only the new id")
		m, err := s.Message(ctx(t), 10)
		require.NoError(t, err)
		require.True(t, m.FirstSeenAt.Equal(t0), "a rescan does not reset first_seen_at")

		require.NoError(t, s.FinishMessages(ctx(t), []vocab.Finish{{MsgID: 10, Status: vocab.StatusSucceeded, Now: t0}}))
		backfilledAll(t, s)
		moved, err := s.ArchiveMessages(ctx(t), store.ArchiveMessagesParams{Before: t0.Add(time.Hour), Max: 100, Now: t0.Add(2 * time.Hour)})
		require.NoError(t, err)
		require.Equal(t, 1, moved.Rows)
		m, err = s.Message(ctx(t), 10)
		require.NoError(t, err)
		require.True(t, m.Archived)
		require.Equal(t, vocab.StatusSucceeded, m.Status)

		n, err = s.Enqueue(ctx(t), []int64{10}, t0.Add(3*time.Hour))
		require.NoError(t, err)
		require.Zero(t, n, "an archived id is never enqueued again")
	})

	t.Run("FinishOnlyUnfinished", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		_, err := s.Enqueue(ctx(t), []int64{1}, t0)
		require.NoError(t, err)
		require.NoError(t, s.FinishMessages(ctx(t), []vocab.Finish{{MsgID: 1, Status: vocab.StatusSkipped, Reason: "ignored:LDM", Now: t0}}))
		err = s.FinishMessages(ctx(t), []vocab.Finish{{MsgID: 1, Status: vocab.StatusSucceeded, Now: t0}})
		require.ErrorIs(t, err, store.ErrStale, "a terminal message cannot be finished twice")
		m, err := s.Message(ctx(t), 1)
		require.NoError(t, err)
		require.Equal(t, vocab.StatusSkipped, m.Status)
		require.Equal(t, "ignored:LDM", m.Reason)
	})

	t.Run("FinishOnlyAsRead", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		_, err := s.Enqueue(ctx(t), []int64{1, 2, 3, 4}, t0)
		require.NoError(t, err)
		// 1 bound K1 and finished DEAD, then replayed: PENDING, replay 1.
		require.NoError(t, s.FinishMessages(ctx(t), []vocab.Finish{{MsgID: 1, Status: vocab.StatusDead, ErrorClass: "INFRA",
			Bind: &vocab.Binding{IdentityKey: "K1", Kind: "FLIGHT_OPS"}, Now: t0}}))
		replayed, err := s.ReplayIDs(ctx(t), []int64{1}, t0)
		require.NoError(t, err)
		require.Equal(t, []int64{1}, replayed)
		// 2 FAILED.
		_, err = s.RecordFailure(ctx(t), vocab.RecordFailureParams{MsgID: 2, ErrorClass: "INFRA", Reason: "down", NextAttemptAt: t0, Now: t0})
		require.NoError(t, err)

		run, _, err := s.QueueRun(ctx(t), 10)
		require.NoError(t, err)
		require.Equal(t, []vocab.RowRead{
			{Status: vocab.StatusPending, ReplayCount: 1, IdentityKey: "K1"},
			{Status: vocab.StatusFailed}, {Status: vocab.StatusPending}, {Status: vocab.StatusPending},
		}, []vocab.RowRead{vocab.ReadOf(run[0]), vocab.ReadOf(run[1]), vocab.ReadOf(run[2]), vocab.ReadOf(run[3])},
			"a run's entries carry what their finish expects")

		finish := func(id int64, read vocab.RowRead) error {
			return s.FinishMessages(ctx(t), []vocab.Finish{{MsgID: id, Status: vocab.StatusSucceeded, Read: read, Now: t0}})
		}
		// Every difference from the row is stale and writes nothing.
		for _, c := range []struct {
			id   int64
			read vocab.RowRead
			what string
		}{
			{1, vocab.RowRead{Status: vocab.StatusPending, IdentityKey: "K1"}, "read before the replay"},
			{1, vocab.RowRead{Status: vocab.StatusPending, ReplayCount: 1}, "read without its identity"},
			{1, vocab.RowRead{Status: vocab.StatusPending, ReplayCount: 1, IdentityKey: "K9"}, "another identity"},
			{2, vocab.RowRead{Status: vocab.StatusPending}, "read PENDING, now FAILED"},
			{3, vocab.RowRead{Status: vocab.StatusFailed}, "read FAILED, now PENDING"},
			{3, vocab.RowRead{Status: vocab.StatusPending, IdentityKey: "K3"}, "read bound, none bound"},
		} {
			require.ErrorIs(t, finish(c.id, c.read), store.ErrStale, c.what)
		}
		for _, m := range []int64{1, 2, 3} {
			got, err := s.Message(ctx(t), m)
			require.NoError(t, err)
			require.Contains(t, []string{vocab.StatusPending, vocab.StatusFailed}, got.Status, "message %d untouched", m)
		}
		// As read: finished.
		require.NoError(t, finish(1, vocab.ReadOf(run[0])))
		require.NoError(t, finish(2, vocab.ReadOf(run[1])))
		require.NoError(t, s.FinishMessages(ctx(t), []vocab.Finish{
			{MsgID: 3, Status: vocab.StatusSucceeded, Read: vocab.ReadOf(run[2]), Now: t0},
			{MsgID: 4, Status: vocab.StatusSkipped, Read: vocab.ReadOf(run[3]), Now: t0},
		}))
		require.Empty(t, headIDs(t, s))
		// Finished since the read: stale.
		require.ErrorIs(t, finish(4, vocab.ReadOf(run[3])), store.ErrStale, "finished since it was read")
	})

	t.Run("FailureOnlyAtTheReplayRead", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		_, err := s.Enqueue(ctx(t), []int64{1, 2}, t0)
		require.NoError(t, err)
		fail := func(id, replay int64) (int, error) {
			return s.RecordFailure(ctx(t), vocab.RecordFailureParams{MsgID: id, ReplayCount: replay, ErrorClass: "INFRA",
				Reason: "down", NextAttemptAt: t0.Add(time.Minute), Now: t0})
		}
		attempts, err := fail(1, 0)
		require.NoError(t, err)
		require.Equal(t, 1, attempts)
		// An attempt read at replay 0 fails after a replay committed: the
		// replay's fresh start stands.
		replayed, err := s.ReplayIDs(ctx(t), []int64{1}, t0)
		require.NoError(t, err)
		require.Equal(t, []int64{1}, replayed)
		_, err = fail(1, 0)
		require.ErrorIs(t, err, store.ErrStale, "a failure read before the replay")
		m, err := s.Message(ctx(t), 1)
		require.NoError(t, err)
		require.Equal(t, vocab.StatusPending, m.Status)
		require.Zero(t, m.Attempts)
		require.Equal(t, 1, m.ReplayCount)
		require.Nil(t, m.NextAttemptAt)
		require.Nil(t, m.FailingSince)
		// Read at the replay: recorded.
		attempts, err = fail(1, 1)
		require.NoError(t, err)
		require.Equal(t, 1, attempts, "the replay's first attempt")
		// Finished since the read: stale too.
		require.NoError(t, s.FinishMessages(ctx(t), []vocab.Finish{{MsgID: 2, Status: vocab.StatusSucceeded, Now: t0}}))
		_, err = fail(2, 0)
		require.ErrorIs(t, err, store.ErrStale, "finished since it was read")
	})

	t.Run("ArchiveKeepsOutstandingBackfills", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		_, err := s.Enqueue(ctx(t), []int64{1, 2}, t0)
		require.NoError(t, err)
		for _, id := range []int64{1, 2} {
			require.NoError(t, s.FinishMessages(ctx(t), []vocab.Finish{{MsgID: id, Status: vocab.StatusSucceeded, Now: t0}}))
		}
		require.NoError(t, s.AddBackfills(ctx(t), []vocab.Backfill{{MsgID: 2, MailboxStatus: vocab.StatusSucceeded, ProcessedAt: t0}}))
		backfilledAll(t, s)
		moved, err := s.ArchiveMessages(ctx(t), store.ArchiveMessagesParams{Before: t0.Add(time.Hour), Max: 100, Now: t0.Add(time.Hour)})
		require.NoError(t, err)
		require.Equal(t, 1, moved.Rows)
		m, err := s.Message(ctx(t), 2)
		require.NoError(t, err)
		require.False(t, m.Archived, "a message whose backfill is outstanding stays live")
	})

	// What a message's transaction reads of its locked row: the status, the
	// identity bound before (kept by a replay) and the replay count, as a
	// whole read of the row has them; absent ids are left out.
	t.Run("LockMessagesReadsWhatTheTransactionUses", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		_, err := s.Enqueue(ctx(t), []int64{1, 2, 3}, t0)
		require.NoError(t, err)
		require.NoError(t, s.FinishMessages(ctx(t), []vocab.Finish{{MsgID: 1, Status: vocab.StatusDead, ErrorClass: "EXHAUSTED", Reason: "x",
			Bind: &vocab.Binding{IdentityKey: "AODB|FLOP|1", Kind: "FLOP"}, Now: t0}}))
		replayed, err := s.ReplayIDs(ctx(t), []int64{1}, t0)
		require.NoError(t, err)
		require.Equal(t, []int64{1}, replayed)

		tx, err := s.Begin(ctx(t))
		require.NoError(t, err)
		defer tx.Rollback(ctx(t))
		locked, err := tx.LockMessages(ctx(t), []int64{3, 1, 9})
		require.NoError(t, err)
		require.Equal(t, []int64{1, 3}, ids(locked))
		require.Equal(t, vocab.QueueEntry{ID: 1, Status: vocab.StatusPending, IdentityKey: "AODB|FLOP|1", ReplayCount: 1}, locked[0])
		require.Equal(t, vocab.QueueEntry{ID: 3, Status: vocab.StatusPending}, locked[1])
	})

	t.Run("DeadLettersAndCounts", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		_, err := s.Enqueue(ctx(t), []int64{1, 2, 3, 4}, t0)
		require.NoError(t, err)
		require.NoError(t, s.FinishMessages(ctx(t), []vocab.Finish{{MsgID: 1, Status: vocab.StatusDead, ErrorClass: "PROTOCOL", Reason: "RECS", Now: t0}}))
		require.NoError(t, s.FinishMessages(ctx(t), []vocab.Finish{{MsgID: 2, Status: vocab.StatusDead, ErrorClass: "MALFORMED", Reason: "not XML", Now: t0}}))
		require.NoError(t, s.FinishMessages(ctx(t), []vocab.Finish{{MsgID: 3, Status: vocab.StatusDead, ErrorClass: "PROTOCOL", Reason: "day", Now: t0}}))

		dead, err := s.DeadLetters(ctx(t), store.DeadLettersParams{Class: "PROTOCOL", Limit: 10})
		require.NoError(t, err)
		require.Equal(t, []int64{1, 3}, ids(dead))
		page, err := s.DeadLetters(ctx(t), store.DeadLettersParams{AfterID: 1, Limit: 1})
		require.NoError(t, err)
		require.Equal(t, []int64{2}, ids(page), "keyset paging after id 1")

		// The backlog and the dead letters are counted; the finished
		// messages are not (their rows are the archive window's).
		_, err = s.Enqueue(ctx(t), []int64{5, 6, 7}, t0)
		require.NoError(t, err)
		require.NoError(t, s.FinishMessages(ctx(t), []vocab.Finish{
			{MsgID: 5, Status: vocab.StatusSucceeded, Now: t0},
			{MsgID: 6, Status: vocab.StatusSkipped, Reason: "ignored:ABCD", Now: t0}}))
		_, err = s.RecordFailure(ctx(t), vocab.RecordFailureParams{MsgID: 7, ErrorClass: "INFRA", Reason: "down", NextAttemptAt: t0, Now: t0})
		require.NoError(t, err)
		counts, err := s.QueueCounts(ctx(t))
		require.NoError(t, err)
		require.ElementsMatch(t, []store.StatusCount{
			{Status: vocab.StatusDead, ErrorClass: "MALFORMED", Messages: 1},
			{Status: vocab.StatusDead, ErrorClass: "PROTOCOL", Messages: 2},
			{Status: vocab.StatusFailed, ErrorClass: "INFRA", Messages: 1},
			{Status: vocab.StatusPending, ErrorClass: "", Messages: 1},
		}, counts)
	})

}

func headIDs(t *testing.T, s store.Store) []int64 {
	t.Helper()
	head, err := s.QueueHead(ctx(t), 100)
	require.NoError(t, err)
	return ids(head)
}

func ids(ms []vocab.QueueEntry) []int64 {
	out := []int64{}
	for _, m := range ms {
		out = append(out, m.ID)
	}
	return out
}

func testIdentity(t *testing.T, newStore Factory) {
	s := newStore(t)
	_, err := s.Enqueue(ctx(t), []int64{1, 2, 3}, t0)
	require.NoError(t, err)
	meta := vocab.Meta{Sndr: "AODB", Seqn: ptr(int64(77)), DttmRaw: "20261202080000", Dttm: ptr(t0), Type: "FLOP", Styp: "GTDT"}
	// A message binds its identity with its terminal status.
	digest := vocab.RawDigest([]byte("<MSG>77</MSG>"))
	bind := func(id int64) error {
		return s.FinishMessages(ctx(t), []vocab.Finish{{MsgID: id, Status: vocab.StatusSucceeded,
			Bind: &vocab.Binding{IdentityKey: "AODB|FLOP|GTDT|77", Kind: "FLIGHT_OPS", Meta: meta, Digest: digest}, Now: t0}})
	}
	require.NoError(t, bind(1))
	require.ErrorIs(t, bind(2), store.ErrDuplicate, "IDENTITY_KEY is unique")

	holders, err := s.IdentityHolders(ctx(t), []string{"AODB|FLOP|GTDT|77", "AODB|FLOP|GTDT|78"})
	require.NoError(t, err)
	require.Equal(t, map[string]vocab.Holder{"AODB|FLOP|GTDT|77": {MsgID: 1, Digest: digest}}, holders,
		"a free key is absent; the holder's raw digest comes with it")

	m, err := s.Message(ctx(t), 1)
	require.NoError(t, err)
	require.Equal(t, "AODB|FLOP|GTDT|77", m.IdentityKey)
	require.Equal(t, digest, m.Digest)
	require.Equal(t, "AODB", m.Meta.Sndr)
	require.Equal(t, int64(77), *m.Meta.Seqn)
	require.Equal(t, "GTDT", m.Meta.Styp)

	// Archived identities still deduplicate.
	backfilledAll(t, s)
	_, err = s.ArchiveMessages(ctx(t), store.ArchiveMessagesParams{Before: t0.Add(time.Hour), Max: 10, Now: t0.Add(time.Hour)})
	require.NoError(t, err)
	holders, err = s.IdentityHolders(ctx(t), []string{"AODB|FLOP|GTDT|77"})
	require.NoError(t, err)
	require.Equal(t, vocab.Holder{MsgID: 1, Digest: digest}, holders["AODB|FLOP|GTDT|77"], "the archive still holds the identity and its digest")

	// A finish binds in the same write when it carries a binding; a finish
	// that cannot bind writes nothing.
	_, err = s.Enqueue(ctx(t), []int64{4, 5}, t0)
	require.NoError(t, err)
	fmeta := vocab.Meta{Sndr: "AODB", Seqn: ptr(int64(80)), Type: "FLOP", Styp: "STND"}
	require.NoError(t, s.FinishMessages(ctx(t), []vocab.Finish{{MsgID: 4, Status: vocab.StatusSucceeded,
		Bind: &vocab.Binding{IdentityKey: "AODB|FLOP|STND|80", Kind: "FLIGHT_OPS", Meta: fmeta}, Now: t0}}))
	m, err = s.Message(ctx(t), 4)
	require.NoError(t, err)
	require.Equal(t, vocab.StatusSucceeded, m.Status)
	require.Equal(t, "AODB|FLOP|STND|80", m.IdentityKey)
	require.Nil(t, m.Digest, "bound without a digest: unknown (NULL), as rows bound before digests were kept")
	holders, err = s.IdentityHolders(ctx(t), []string{"AODB|FLOP|STND|80"})
	require.NoError(t, err)
	require.Equal(t, vocab.Holder{MsgID: 4}, holders["AODB|FLOP|STND|80"])
	require.Equal(t, "FLIGHT_OPS", m.Kind)
	require.Equal(t, fmeta, m.Meta)
	err = s.FinishMessages(ctx(t), []vocab.Finish{{MsgID: 5, Status: vocab.StatusSucceeded,
		Bind: &vocab.Binding{IdentityKey: "AODB|FLOP|STND|80", Kind: "FLIGHT_OPS", Meta: fmeta}, Now: t0}})
	require.ErrorIs(t, err, store.ErrDuplicate, "a finish cannot bind a held key")
	m, err = s.Message(ctx(t), 5)
	require.NoError(t, err)
	require.Equal(t, vocab.StatusPending, m.Status, "nothing of the refused finish is written")
	require.Empty(t, m.IdentityKey)
}
