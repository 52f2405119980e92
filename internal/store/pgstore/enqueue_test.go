package pgstore_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/db/postgres"
	"github.com/msgx-aodb/msgx/internal/testdb"
)

// An enqueue reads proc_state in proportion to the ids it enqueues, also on
// a young table the planner takes for empty (a fresh database, before
// autovacuum's first analyze): the largest finished id was a subquery per
// id, a sequential scan of the whole queue per id there — O(n²) over a
// drain and the largest PostgreSQL cost of BenchmarkTenantCPU.
func TestEnqueueReadsInProportionToItsIDs(t *testing.T) {
	t.Parallel()
	pool := testdb.Postgres(t).Pool
	conn, err := pool.Acquire(t.Context())
	require.NoError(t, err)
	defer conn.Release()
	q := postgres.New()
	now := time.Date(2026, 12, 3, 8, 0, 0, 0, time.UTC)
	const batches, size = 6, 500 // the poller's claim-batch
	for b := range batches {
		ids := make([]int64, size)
		for i := range ids {
			ids[i] = int64(b*size + i + 1)
		}
		rows, err := q.ProcStateEnqueue(t.Context(), conn, postgres.ProcStateEnqueueParams{Now: now, MsgIds: ids})
		require.NoError(t, err)
		require.Len(t, rows, size)
	}
	// This backend's counters reach the statistics when it is next idle.
	_, err = conn.Exec(t.Context(), "SELECT pg_stat_force_next_flush()")
	require.NoError(t, err)
	_, err = conn.Exec(t.Context(), "SELECT pg_stat_clear_snapshot()")
	require.NoError(t, err)
	var inserted, read int64
	require.NoError(t, conn.QueryRow(t.Context(), `
SELECT n_tup_ins, coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0)
FROM pg_stat_user_tables WHERE relname = 'proc_state'`).Scan(&inserted, &read))
	require.Equal(t, int64(batches*size), inserted, "the statistics hold the enqueues")
	require.LessOrEqual(t, read, int64(10*batches*size), "proc_state rows read for %d ids enqueued", batches*size)
}
