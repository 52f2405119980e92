package mailbox_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store"
)

// The set-based backfill reads the rows it updates and nothing else (issue
// #23): with a backlog of unprocessed rows it once read
// cminmsgs_unprocessed_ix over every unprocessed row ("Using buffer") and
// picked each row's values with ELT(FIELD(id, …)), a linear search of the
// chunk per row.
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
	t.Logf("rows read to backfill %d rows: %d", batch, read)
}
