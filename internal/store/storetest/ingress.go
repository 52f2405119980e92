package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store"
)

// testIngress: late rows and gaps (rules 16–17).
func testIngress(t *testing.T, newStore Factory) {
	t.Run("LateRowIsMarkedWithTheLargestFinishedID", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		got, err := s.EnqueueNew(ctx(t), []int64{10, 11, 12}, t0)
		require.NoError(t, err)
		require.Equal(t, []store.Enqueued{{ID: 10}, {ID: 11}, {ID: 12}}, got, "in order: none late")
		require.NoError(t, s.FinishMessages(ctx(t), []store.Finish{
			{MsgID: 10, Status: store.StatusSucceeded, Now: t0}, {MsgID: 11, Status: store.StatusDead, ErrorClass: "PROTOCOL", Now: t0},
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

	// The largest finished id may be archived already (proc_state_hst): it
	// makes a new id below it late like a live one, and a PENDING id never.
	t.Run("LateRowIsMarkedWithTheLargestArchivedID", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		_, err := s.Enqueue(ctx(t), []int64{10, 20, 30, 40}, t0)
		require.NoError(t, err)
		require.NoError(t, s.FinishMessages(ctx(t), []store.Finish{
			{MsgID: 10, Status: store.StatusSucceeded, Now: t0}, {MsgID: 30, Status: store.StatusSkipped, Now: t0},
		}))
		moved, err := s.ArchiveMessages(ctx(t), store.ArchiveParams{Before: t0.Add(time.Hour), Max: 10, Now: t0.Add(2 * time.Hour)})
		require.NoError(t, err)
		require.Equal(t, 2, moved.Rows)
		require.NoError(t, s.FinishMessages(ctx(t), []store.Finish{{MsgID: 20, Status: store.StatusSucceeded, Now: t0.Add(3 * time.Hour)}}))

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
		require.NoError(t, tx.LockPipeline(ctx(t), t0))
		require.NoError(t, tx.FinishMessages(ctx(t), []store.Finish{{MsgID: 20, Status: store.StatusSucceeded, Now: t0}}))
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
		require.NoError(t, tx.LockPipeline(ctx(t), t0))
		bounded, stop := context.WithTimeout(ctx(t), 10*time.Second)
		defer stop()
		got, err = s.EnqueueNew(bounded, []int64{21}, t0)
		require.NoError(t, err)
		require.Equal(t, []store.Enqueued{{ID: 21}}, got, "does not wait for the lock")
	})
}
