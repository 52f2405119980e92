package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// testIngress: late rows and gaps (rules 16–17).
func testIngress(t *testing.T, newStore Factory) {
	t.Run("LateRowIsMarkedWithTheLargestFinishedID", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		got, err := s.EnqueueNew(ctx(t), []int64{10, 11, 12}, t0)
		require.NoError(t, err)
		require.Equal(t, []store.Enqueued{{ID: 10}, {ID: 11}, {ID: 12}}, got, "in order: none late")
		require.NoError(t, s.FinishMessages(ctx(t), []vocab.Finish{
			{MsgID: 10, Status: vocab.StatusSucceeded, Now: t0}, {MsgID: 11, Status: vocab.StatusDead, ErrorClass: "PROTOCOL", Now: t0},
		}))

		// 9 and 5 come after 11 finished (12 is still PENDING: not finished).
		at := t0.Add(time.Minute)
		got, err = s.EnqueueNew(ctx(t), []int64{5, 9, 12, 13}, at)
		require.NoError(t, err)
		require.Equal(t, []store.Enqueued{{ID: 5, LateAfter: ptr(int64(11))}, {ID: 9, LateAfter: ptr(int64(11))}, {ID: 13}}, got,
			"only new ids, and only those below a finished one are late")
		m, err := s.Message(ctx(t), 9)
		require.NoError(t, err)
		require.Equal(t, ptr(int64(11)), m.LateAfter)
		m, err = s.Message(ctx(t), 13)
		require.NoError(t, err)
		require.Nil(t, m.LateAfter)
		n, err := s.Enqueue(ctx(t), []int64{5, 9, 14}, at)
		require.NoError(t, err)
		require.Equal(t, 1, n, "Enqueue counts EnqueueNew")

		require.NoError(t, s.RecordGap(ctx(t), store.Gap{Source: "cminmsgs", From: 6, To: 8, SeenAt: t0, GivenUpAt: at}))
		require.NoError(t, s.RecordGap(ctx(t), store.Gap{Source: "cminmsgs", From: 6, To: 8, SeenAt: at, GivenUpAt: at}), "recorded twice: kept once")
		irr, err := s.IngressIrregular(ctx(t), t0, 10)
		require.NoError(t, err)
		require.Equal(t, int64(1), irr.Gaps)
		require.Equal(t, int64(2), irr.LateRows)
		require.Len(t, irr.LatestGaps, 1)
		require.Equal(t, int64(6), irr.LatestGaps[0].From)
		require.Equal(t, int64(8), irr.LatestGaps[0].To)
		require.True(t, irr.LatestGaps[0].SeenAt.Equal(t0))
		require.Len(t, irr.LatestLate, 2)
		require.Equal(t, int64(9), irr.LatestLate[0].ID, "newest first, then by id descending")
		require.Equal(t, int64(11), irr.LatestLate[0].After)
		require.True(t, irr.LatestLate[0].At.Equal(at))
		irr, err = s.IngressIrregular(ctx(t), at.Add(time.Second), 10)
		require.NoError(t, err)
		require.Zero(t, irr.Gaps+irr.LateRows, "nothing since")
	})

	// A duplicate whose raw message differs from its holder's (rule 2) is an
	// identity conflict: counted by the period it finished in, live or
	// archived; a plain duplicate is not one.
	t.Run("IdentityConflictsOfAPeriod", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		_, err := s.Enqueue(ctx(t), []int64{1, 2, 3, 4}, t0)
		require.NoError(t, err)
		at := t0.Add(time.Minute)
		dup := func(id, holder int64, reason string, now time.Time) vocab.Finish {
			return vocab.Finish{MsgID: id, Status: vocab.StatusSkipped, Reason: reason, DuplicateOf: &holder, Now: now,
				Bind: &vocab.Binding{IdentityKey: "AODB|FLOP|STND|2002", Digest: vocab.RawDigest([]byte{byte(id)})}}
		}
		require.NoError(t, s.FinishMessages(ctx(t), []vocab.Finish{{MsgID: 1, Status: vocab.StatusSucceeded, Now: t0,
			Bind: &vocab.Binding{IdentityKey: "AODB|FLOP|STND|2002", Digest: vocab.RawDigest([]byte{1})}}}))
		require.NoError(t, s.FinishMessages(ctx(t), []vocab.Finish{dup(2, 1, "duplicate-of:1:content-differs", t0)}))
		require.NoError(t, s.FinishMessages(ctx(t), []vocab.Finish{dup(3, 1, "duplicate-of:1", at)}))
		require.NoError(t, s.FinishMessages(ctx(t), []vocab.Finish{dup(4, 1, "duplicate-of:1:content-differs", at)}))
		m, err := s.Message(ctx(t), 4)
		require.NoError(t, err)
		require.Equal(t, vocab.RawDigest([]byte{4}), m.Digest, "a duplicate keeps its own digest")

		irr, err := s.IngressIrregular(ctx(t), t0, 10)
		require.NoError(t, err)
		require.Equal(t, int64(2), irr.IdentityConflicts, "the plain duplicate is no conflict")
		require.Len(t, irr.LatestConflicts, 2)
		require.Equal(t, int64(4), irr.LatestConflicts[0].ID, "newest first")
		require.Equal(t, int64(1), irr.LatestConflicts[0].Holder)
		require.True(t, irr.LatestConflicts[0].At.Equal(at))
		irr, err = s.IngressIrregular(ctx(t), at, 10)
		require.NoError(t, err)
		require.Equal(t, int64(1), irr.IdentityConflicts, "finished before the period: not counted")

		backfilledAll(t, s)
		moved, err := s.ArchiveMessages(ctx(t), store.ArchiveMessagesParams{Before: at.Add(time.Hour), Max: 10, Now: at.Add(time.Hour)})
		require.NoError(t, err)
		require.Equal(t, 4, moved.Rows)
		irr, err = s.IngressIrregular(ctx(t), at, 10)
		require.NoError(t, err)
		require.Equal(t, int64(1), irr.IdentityConflicts, "archived: still counted by when it finished")
		require.Len(t, irr.LatestConflicts, 1)
		require.Equal(t, int64(4), irr.LatestConflicts[0].ID)
		m, err = s.Message(ctx(t), 4)
		require.NoError(t, err)
		require.Equal(t, vocab.RawDigest([]byte{4}), m.Digest, "the archive keeps the digest")
	})

	// The largest finished id may be archived already (proc_state_hst): it
	// makes a new id below it late like a live one, and a PENDING id never.
	t.Run("LateRowIsMarkedWithTheLargestArchivedID", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		_, err := s.Enqueue(ctx(t), []int64{10, 20, 30, 40}, t0)
		require.NoError(t, err)
		require.NoError(t, s.FinishMessages(ctx(t), []vocab.Finish{
			{MsgID: 10, Status: vocab.StatusSucceeded, Now: t0}, {MsgID: 30, Status: vocab.StatusSkipped, Now: t0},
		}))
		backfilledAll(t, s)
		moved, err := s.ArchiveMessages(ctx(t), store.ArchiveMessagesParams{Before: t0.Add(time.Hour), Max: 10, Now: t0.Add(2 * time.Hour)})
		require.NoError(t, err)
		require.Equal(t, 2, moved.Rows)
		require.NoError(t, s.FinishMessages(ctx(t), []vocab.Finish{{MsgID: 20, Status: vocab.StatusSucceeded, Now: t0.Add(3 * time.Hour)}}))

		got, err := s.EnqueueNew(ctx(t), []int64{5, 10, 25, 35, 45}, t0.Add(4*time.Hour))
		require.NoError(t, err)
		require.Equal(t, []store.Enqueued{{ID: 5, LateAfter: ptr(int64(30))}, {ID: 25, LateAfter: ptr(int64(30))}, {ID: 35}, {ID: 45}}, got,
			"archived 30 above live 20; 10 archived is not enqueued again; 40 is PENDING, not finished")
	})

	// An enqueue below a known id waits for a business transaction holding
	// PIPELINE_LOCK: the message that transaction finishes makes the row
	// late, so a row is never enqueued unmarked behind a larger id
	// committing at that moment.
	t.Run("EnqueueWaitsForThePipelineLock", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		_, err := s.Enqueue(ctx(t), []int64{20}, t0)
		require.NoError(t, err)
		tx, err := s.Begin(ctx(t))
		require.NoError(t, err)
		defer tx.Rollback(ctx(t))
		_, err = tx.LockPipeline(ctx(t), t0)
		require.NoError(t, err)
		require.NoError(t, tx.FinishMessages(ctx(t), []vocab.Finish{{MsgID: 20, Status: vocab.StatusSucceeded, Now: t0}}))
		short, cancel := context.WithTimeout(ctx(t), 300*time.Millisecond)
		defer cancel()
		_, err = s.EnqueueNew(short, []int64{19}, t0)
		require.Error(t, err, "blocked by the lock until the deadline")
		require.NoError(t, tx.Commit(ctx(t)))
		got, err := s.EnqueueNew(ctx(t), []int64{19}, t0)
		require.NoError(t, err)
		require.Equal(t, []store.Enqueued{{ID: 19, LateAfter: ptr(int64(20))}}, got)
		// Above every known id: no lock needed, nothing late.
		tx, err = s.Begin(ctx(t))
		require.NoError(t, err)
		defer tx.Rollback(ctx(t))
		_, err = tx.LockPipeline(ctx(t), t0)
		require.NoError(t, err)
		bounded, stop := context.WithTimeout(ctx(t), 10*time.Second)
		defer stop()
		got, err = s.EnqueueNew(bounded, []int64{21}, t0)
		require.NoError(t, err)
		require.Equal(t, []store.Enqueued{{ID: 21}}, got, "does not wait for the lock")
	})

	// An enqueue below the largest known id counts itself under the lock;
	// a run carries the count of its read and the lock the count committed
	// before it: the pump abandons a run whose counts differ (an id may have
	// entered inside its range).
	t.Run("EnqueueBelowIsCounted", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		below := func() (run, locked int64) {
			t.Helper()
			_, run, err := s.QueueRun(ctx(t), 10)
			require.NoError(t, err)
			tx, err := s.Begin(ctx(t))
			require.NoError(t, err)
			defer tx.Rollback(ctx(t))
			locked, err = tx.LockPipeline(ctx(t), t0)
			require.NoError(t, err)
			return run, locked
		}
		enqueue := func(ids ...int64) {
			t.Helper()
			_, err := s.EnqueueNew(ctx(t), ids, t0)
			require.NoError(t, err)
		}
		enqueue(10, 30) // above every known id: not counted
		run, locked := below()
		require.Zero(t, run)
		require.Zero(t, locked)

		enqueue(20) // inside the range of a run of 10 and 30
		run, locked = below()
		require.Equal(t, int64(1), run)
		require.Equal(t, int64(1), locked)
		got, _, err := s.QueueRun(ctx(t), 10)
		require.NoError(t, err)
		require.Equal(t, []int64{10, 20, 30}, ids(got))

		enqueue(40)     // above: not counted
		enqueue(20, 30) // nothing new: no lock, not counted
		enqueue(5)      // below the head
		run, locked = below()
		require.Equal(t, int64(2), run)
		require.Equal(t, int64(2), locked)
	})
}
