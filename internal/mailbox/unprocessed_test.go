package mailbox_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/testdb"
)

// The reconciliation pass pages the unprocessed rows by id at any age, and
// the page reads through the index msgx asks of the AODB's DBA
// (cminmsgs_unprocessed_ix), not the whole primary key.
func TestUnprocessedPagesUseTheIndex(t *testing.T) {
	t.Parallel()
	mb, db, _ := newMailbox(t)
	ctx := t.Context()
	for i := 1; i <= 300; i++ {
		processed := "NOW()"
		if i%100 == 0 {
			processed = "NULL"
		}
		_, err := db.ExecContext(ctx, "INSERT INTO cminmsgs (CMINMSGS_ID, CMINMSGS_CLOB_MSG, CMINMSGS_DATE_RECEIVED, CMINMSGS_DATE_PROCESSED) VALUES (?, '<MSG/>', '2020-01-01 00:00:00', "+processed+")", i)
		require.NoError(t, err)
	}
	ids, err := mb.Unprocessed(ctx, mailbox.UnprocessedParams{UpTo: 250, Limit: 1})
	require.NoError(t, err)
	require.Equal(t, []int64{100}, ids, "one page, however old")
	ids, err = mb.Unprocessed(ctx, mailbox.UnprocessedParams{AfterID: 100, UpTo: 250, Limit: 10})
	require.NoError(t, err)
	require.Equal(t, []int64{200}, ids, "up to the bound")

	_, err = db.ExecContext(ctx, "ANALYZE TABLE cminmsgs")
	require.NoError(t, err)
	plan := explain(t, db, mailboxQuery(t, "InboundUnprocessedPage"), 0, 250, 500)
	require.Equal(t, "cminmsgs_unprocessed_ix", plan[0]["key"], "plan: %v", plan)
}

// A page reads its rows, not the unprocessed rows before it (issue #23): the
// rescan's plan (a ref lookup of DATE_PROCESSED IS NULL filtering the id
// range row by row) would read the whole backlog on every page.
func TestUnprocessedPageReadsOnlyItsPage(t *testing.T) {
	t.Parallel()
	mb, db, _ := newMailbox(t)
	db.SetMaxOpenConns(1) // the session counters are the mailbox's reads
	ctx := t.Context()
	const rows = 3000
	insertBacklog(t, db, rows)
	_, err := db.ExecContext(ctx, "ANALYZE TABLE cminmsgs")
	require.NoError(t, err)

	before := testdb.MailboxReads(t, db)
	ids, err := mb.Unprocessed(ctx, mailbox.UnprocessedParams{AfterID: rows - 100, UpTo: rows, Limit: 50})
	require.NoError(t, err)
	read := testdb.MailboxReads(t, db) - before
	require.Len(t, ids, 50)
	require.Equal(t, int64(rows-99), ids[0])
	require.LessOrEqual(t, read, int64(60), "rows read for a page of 50")
	t.Logf("rows read for a page of 50: %d; plan %v", read,
		explain(t, db, mailboxQuery(t, "InboundUnprocessedPage"), rows-100, rows, 50))
}
