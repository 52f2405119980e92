package pgstore_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/testdb"
)

// The poll's plain insert (ids all new and above every known one when
// checked) gives what the general enqueue gives when another enqueuer got
// in between: an id queued meanwhile fails the insert on the primary key,
// and the ids go the general way, the queued one skipped; a message above
// them finished meanwhile makes them late (rule 17).
func TestEnqueueAboveMeetsAnotherEnqueuer(t *testing.T) {
	t.Parallel()
	db := testdb.Postgres(t)
	s := pgstore.New(db.Pool)
	ctx := t.Context()
	t0 := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)

	got, err := s.EnqueueAbove(ctx, []int64{5, 6}, t0)
	require.NoError(t, err)
	require.Equal(t, []store.Enqueued{{ID: 5}, {ID: 6}}, got, "the usual poll: a plain insert")

	got, err = s.EnqueueAbove(ctx, []int64{6, 7}, t0)
	require.NoError(t, err, "6 was queued meanwhile: the general way")
	require.Equal(t, []store.Enqueued{{ID: 7}}, got)

	_, err = db.Pool.Exec(ctx, "UPDATE proc_state SET status = 'SUCCEEDED', finished_at = $1 WHERE msg_id = 7", t0)
	require.NoError(t, err)
	late := int64(7)
	got, err = s.EnqueueAbove(ctx, []int64{3}, t0)
	require.NoError(t, err)
	require.Equal(t, []store.Enqueued{{ID: 3, LateAfter: &late}}, got, "below a finished message: late")
	counts, err := s.QueueCounts(ctx)
	require.NoError(t, err)
	require.Contains(t, counts, store.StatusCount{Status: "PENDING", Messages: 3}, "5, 6 and 3")
}
