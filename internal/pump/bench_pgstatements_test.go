package pump

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// pgStatements profiles PostgreSQL per statement over a benchmark's drain
// when MSGX_BENCH_PG_STATEMENTS is set (scripts/pg-profile.sh: a private
// server with pg_stat_statements preloaded). start resets the statistics;
// the function it returns logs every statement of the benchmark's database
// since then, per message, by total execution time (docs/dev/performance-notes.md).
func pgStatements(tb testing.TB, e *env) (report func(n int)) {
	if os.Getenv("MSGX_BENCH_PG_STATEMENTS") == "" || e.PG == nil {
		return func(int) {}
	}
	ctx := tb.Context()
	_, err := e.PG.Pool.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
	require.NoError(tb, err, "MSGX_BENCH_PG_STATEMENTS needs shared_preload_libraries=pg_stat_statements (scripts/pg-profile.sh)")
	_, err = e.PG.Pool.Exec(ctx, "SELECT pg_stat_statements_reset(), pg_stat_reset()")
	require.NoError(tb, err)
	return func(n int) {
		rows, err := e.PG.Pool.Query(ctx, `
SELECT calls, rows, total_exec_time, shared_blks_hit + shared_blks_read, shared_blks_dirtied, wal_bytes,
  regexp_replace(query, '\s+', ' ', 'g')
FROM pg_stat_statements
WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
ORDER BY total_exec_time DESC`)
		require.NoError(tb, err)
		defer rows.Close()
		var sb strings.Builder
		var sumMS float64
		var sumCalls int64
		fmt.Fprintf(&sb, "pg_stat_statements per message (%d messages):\n%9s %9s %9s %9s %9s %9s  %s\n",
			n, "calls", "rows", "µs", "blks", "dirtied", "walB", "query")
		for rows.Next() {
			var calls, nrows, blks, dirtied int64
			var ms float64
			var wal float64
			var q string
			require.NoError(tb, rows.Scan(&calls, &nrows, &ms, &blks, &dirtied, &wal, &q))
			sumMS += ms
			sumCalls += calls
			per := func(v float64) float64 { return v / float64(n) }
			if len(q) > 160 {
				q = q[:160] + "…"
			}
			fmt.Fprintf(&sb, "%9.3f %9.3f %9.2f %9.2f %9.3f %9.0f  %s\n",
				per(float64(calls)), per(float64(nrows)), per(ms*1000), per(float64(blks)), per(float64(dirtied)), per(wal), q)
		}
		require.NoError(tb, rows.Err())
		fmt.Fprintf(&sb, "total: %.3f statements and %.2f µs execution per message\n",
			float64(sumCalls)/float64(n), sumMS*1000/float64(n))
		tb.Log(sb.String())
		tb.Log(pgTableStats(tb, e, n))
	}
}

// pgTableStats is the row and index work per message of every table
// written or scanned since pg_stat_reset (the statistics collector's view
// lags up to a second: the drain's last commit may be missing).
func pgTableStats(tb testing.TB, e *env, n int) string {
	ctx := tb.Context()
	_, err := e.PG.Pool.Exec(ctx, "SELECT pg_stat_clear_snapshot()")
	require.NoError(tb, err)
	rows, err := e.PG.Pool.Query(ctx, `
SELECT t.relname, t.n_tup_ins, t.n_tup_upd, t.n_tup_hot_upd, t.n_tup_del,
  coalesce(string_agg(i.indexrelname || '=' || i.idx_scan || '/' || i.idx_tup_read, ' ' ORDER BY i.indexrelname), '')
FROM pg_stat_user_tables t LEFT JOIN pg_stat_user_indexes i ON i.relid = t.relid
WHERE t.n_tup_ins + t.n_tup_upd + t.n_tup_del + coalesce(t.idx_scan, 0) + coalesce(t.seq_scan, 0) > 0
GROUP BY 1, 2, 3, 4, 5 ORDER BY 2 + 3 + 5 DESC`)
	require.NoError(tb, err)
	defer rows.Close()
	var sb strings.Builder
	fmt.Fprintf(&sb, "tables per message (%d messages; indexes: scans/tuples read over the drain):\n%-20s %7s %7s %7s %7s  %s\n",
		n, "table", "ins", "upd", "hot", "del", "indexes")
	for rows.Next() {
		var name, idx string
		var ins, upd, hot, del int64
		require.NoError(tb, rows.Scan(&name, &ins, &upd, &hot, &del, &idx))
		per := func(v int64) float64 { return float64(v) / float64(n) }
		fmt.Fprintf(&sb, "%-20s %7.3f %7.3f %7.3f %7.3f  %s\n", name, per(ins), per(upd), per(hot), per(del), idx)
	}
	require.NoError(tb, rows.Err())
	return sb.String()
}
