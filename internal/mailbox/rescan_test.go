package mailbox_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/testdb"
)

// The rescan behind the watermark reads its window, not the table (issue
// #23): with a long backlog of unprocessed rows before the window, MariaDB
// chose a ref lookup of DATE_PROCESSED IS NULL on cminmsgs_unprocessed_ix and
// tested the id range row by row, so every poll read every unprocessed row
// of the table (Handler_icp_attempts). Counted on the one connection of the
// mailbox with SHOW SESSION STATUS.
func TestRescanReadsOnlyItsWindow(t *testing.T) {
	t.Parallel()
	mb, db, _ := newMailbox(t)
	db.SetMaxOpenConns(1) // the session counters are the mailbox's reads
	ctx := t.Context()
	const rows = 3000
	insertBacklog(t, db, rows)

	before := testdb.MailboxReads(t, db)
	ids, err := mb.Rescan(ctx, mailbox.RescanParams{FromID: rows - 100, ToID: rows, ReceivedAfter: time.Date(2019, 12, 31, 0, 0, 0, 0, time.UTC), Limit: 50})
	require.NoError(t, err)
	read := testdb.MailboxReads(t, db) - before
	require.Len(t, ids, 50)
	require.Equal(t, int64(rows-99), ids[0])
	require.LessOrEqual(t, read, int64(100), "rows read for a page of 50 in a window of 100")
}
