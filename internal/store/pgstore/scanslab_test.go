package pgstore_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/testdb"
)

// Issue #34: a connection reads nullable columns into slabs of values, not
// one allocation each (pgx's own plan): the values and NULLs are as read,
// every row's values its own, and reading 64 rows of nullable columns
// allocates far less than an object per value.
func TestNullableColumnsReadIntoSlabs(t *testing.T) { // not parallel: AllocsPerRun
	pool := testdb.Postgres(t).Pool
	ctx := t.Context()
	conn, err := pool.Acquire(ctx)
	require.NoError(t, err)
	defer conn.Release()
	const query = `SELECT 'v' || i, TIMESTAMPTZ '2026-12-04 10:00Z' + i * INTERVAL '1 minute', i::int, i::bigint,
		NULL::text, NULL::timestamptz, NULL::int, NULL::bigint,
		repeat('x', i * 5)::varchar, CASE WHEN i % 2 = 0 THEN ''::varchar END
		FROM generate_series(1, 64) i`
	type row struct {
		s    *string
		at   *time.Time
		i32  *int32
		i64  *int64
		ns   *string
		nat  *time.Time
		ni32 *int32
		ni64 *int64
		long *string
		odd  *string
	}
	rows := make([]row, 64)
	read := func() {
		r, err := conn.Query(ctx, query)
		require.NoError(t, err)
		defer r.Close()
		for i := 0; r.Next(); i++ {
			x := &rows[i]
			require.NoError(t, r.Scan(&x.s, &x.at, &x.i32, &x.i64, &x.ns, &x.nat, &x.ni32, &x.ni64, &x.long, &x.odd))
		}
		require.NoError(t, r.Err())
	}
	read()
	for i, x := range rows {
		n := i + 1
		require.Equal(t, "v"+strconv.Itoa(n), *x.s)
		require.True(t, x.at.Equal(time.Date(2026, 12, 4, 10, n, 0, 0, time.UTC)), "%v", *x.at)
		require.Equal(t, time.UTC, x.at.Location())
		require.EqualValues(t, n, *x.i32)
		require.EqualValues(t, n, *x.i64)
		require.Nil(t, x.ns)
		require.Nil(t, x.nat)
		require.Nil(t, x.ni32)
		require.Nil(t, x.ni64)
		require.Equal(t, strings.Repeat("x", 5*n), *x.long) // over 128 bytes from n = 26
		if n%2 == 0 {
			require.Equal(t, "", *x.odd)
		} else {
			require.Nil(t, x.odd)
		}
	}
	first := rows[5]
	*rows[5].s, *rows[0].i64 = "changed", -1 // each row's values are its own
	require.Equal(t, "v5", *rows[4].s)
	require.Equal(t, "v7", *rows[6].s)
	require.EqualValues(t, 2, *rows[1].i64)

	allocs := testing.AllocsPerRun(5, read)
	require.Equal(t, "changed", *first.s) // the values read before stay as they were
	require.Equal(t, "v6", *rows[5].s)
	require.Equal(t, strings.Repeat("x", 30), *first.long)
	t.Logf("%.0f objects for 64 rows", allocs)
	// pgx's own plan: one object per non-NULL value and one per string's
	// bytes, 7.5 per row; slabs: a slab per 16 values and per 1 KB of text,
	// the texts over 128 bytes alone (150 with the query's own 84).
	require.Less(t, allocs, 3.0*64)
}
