package mailbox_test

import (
	"database/sql"
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// A run's messages are mostly consecutive ids: their XML and sizes are read
// as one range of the primary key, each row by next (issue #23). A list of
// ids costs the server a key lookup per id and the parse of the list (from
// 1 000 ids MariaDB even turns it into a temporary table): ≈ 1.5 µs of
// server CPU per id more (docs/dev/performance-notes.md).
func TestReadRawsReadsConsecutiveIDsAsARange(t *testing.T) {
	t.Parallel()
	mb, db, _ := newMailbox(t)
	db.SetMaxOpenConns(1) // the session counters are the mailbox's reads
	ctx := t.Context()
	insertBacklog(t, db, 3000)
	ids := make([]int64, 1000)
	for i := range ids {
		ids[i] = int64(1001 + i)
	}

	keys, tmp := sessionStatus(t, db, "Handler_read_key"), sessionStatus(t, db, "Handler_tmp_write")
	raws, err := mb.ReadRaws(ctx, ids)
	require.NoError(t, err)
	sizes, err := mb.RawSizes(ctx, ids)
	require.NoError(t, err)
	require.LessOrEqual(t, sessionStatus(t, db, "Handler_read_key")-keys, int64(4), "rows looked up by key")
	require.Zero(t, sessionStatus(t, db, "Handler_tmp_write")-tmp, "rows written to a temporary table")
	require.Len(t, raws, len(ids))
	require.Len(t, sizes, len(ids))
	for _, id := range ids {
		require.Equal(t, "<MSG/>", string(raws[id]))
		require.Equal(t, len("<MSG/>"), sizes[id])
	}
}

// Consecutive or not, a read returns exactly the rows asked for that exist.
func TestReadRawsConsecutiveOrNot(t *testing.T) {
	t.Parallel()
	mb, db, _ := newMailbox(t)
	ctx := t.Context()
	insertBacklog(t, db, 10)
	for _, ids := range [][]int64{{3, 4, 5}, {3, 5}, {5, 4, 3}, {9, 10, 11, 12}, {11, 12}, {7}, {4, 4}} {
		raws, err := mb.ReadRaws(ctx, ids)
		require.NoError(t, err)
		sizes, err := mb.RawSizes(ctx, ids)
		require.NoError(t, err)
		want := slices.Compact(slices.Sorted(slices.Values(slices.DeleteFunc(slices.Clone(ids), func(id int64) bool { return id > 10 }))))
		require.Equal(t, want, slices.Sorted(maps.Keys(raws)), "ids %v", ids)
		require.Equal(t, want, slices.Sorted(maps.Keys(sizes)), "ids %v", ids)
	}
}

// The range reads use the primary key over their ids.
func TestRawRangesUseThePrimaryKey(t *testing.T) {
	t.Parallel()
	_, db, _ := newMailbox(t)
	insertBacklog(t, db, 3000)
	_, err := db.ExecContext(t.Context(), "ANALYZE TABLE cminmsgs")
	require.NoError(t, err)
	for _, name := range []string{"InboundGetRawRange", "InboundRawSizesRange"} {
		plan := explain(t, db, mailboxQuery(t, name), 1001, 2000)
		require.Len(t, plan, 1, "%s: %v", name, plan)
		require.Equal(t, "range", plan[0]["type"], "%s: %v", name, plan)
		require.Equal(t, "PRIMARY", plan[0]["key"], "%s: %v", name, plan)
	}
}

// sessionStatus is one counter of the connection's SHOW SESSION STATUS (the
// pool must hold one connection).
func sessionStatus(t *testing.T, db *sql.DB, name string) int64 {
	t.Helper()
	var k string
	var v int64
	require.NoError(t, db.QueryRowContext(t.Context(), "SHOW SESSION STATUS LIKE ?", name).Scan(&k, &v))
	return v
}
