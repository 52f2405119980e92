package mailbox_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store"
	sqlfiles "github.com/msgx-aodb/msgx/sql"
)

// The set-based backfill costs O(rows it updates) (issue #23): it reads
// those rows and nothing else, each found by its primary key from its JSON
// element. It once picked each row's values with ELT(FIELD(id, …)), a
// linear search of the chunk's ids (as doubles) per row and column: few
// rows read, but O(chunk²) work per statement, which only the plan shows.
func TestBackfillManyReadsOnlyItsRows(t *testing.T) {
	t.Parallel()
	mb, db, _ := newMailbox(t)
	db.SetMaxOpenConns(1) // the session counters are the mailbox's reads
	ctx := t.Context()
	const rows, batch = 3000, 100
	insertBacklog(t, db, rows)
	_, err := db.ExecContext(ctx, "ANALYZE TABLE cminmsgs")
	require.NoError(t, err)

	todos := make([]store.Backfill, batch)
	for i := range todos {
		todos[i] = store.Backfill{MsgID: int64(1000 + i), MailboxStatus: store.StatusSucceeded, ProcessedAt: t0}
	}
	before := handlerReads(t, db)
	done, invalid, err := mb.BackfillMany(ctx, todos)
	require.NoError(t, err)
	read := handlerReads(t, db) - before
	require.Len(t, done, batch)
	require.Empty(t, invalid)
	var n int
	require.NoError(t, db.QueryRowContext(ctx, "SELECT COUNT(*) FROM cminmsgs WHERE CMINMSGS_DATE_PROCESSED IS NOT NULL").Scan(&n))
	require.Equal(t, batch, n)
	// Per row: its JSON_TABLE element, its primary-key lookup, and the
	// multi-table update's write-back (a scan of its buffer, a read by
	// position); plus the ends of the scans.
	require.LessOrEqual(t, read, int64(4*batch+10), "rows read to backfill %d rows", batch)

	// The plan: each JSON element finds its row by the primary key (eq_ref),
	// not a range over the id list with a per-row search for its values.
	plan := explain(t, db, sqlfiles.MailboxBackfillMany,
		`[{"id":2000,"at":"2026-12-02 08:30:15","status":"SUCCEEDED"},{"id":2001,"at":"2026-12-02 08:30:15","status":"SUCCEEDED"}]`)
	require.Len(t, plan, 2, "plan: %v", plan)
	require.Contains(t, plan[0]["Extra"], "json_table", "plan: %v", plan)
	require.Equal(t, "eq_ref", plan[1]["type"], "plan: %v", plan)
	require.Equal(t, "PRIMARY", plan[1]["key"], "plan: %v", plan)
}
