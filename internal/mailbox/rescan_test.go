package mailbox_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
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
	var sb strings.Builder
	sb.WriteString("INSERT INTO cminmsgs (CMINMSGS_CLOB_MSG, CMINMSGS_DATE_RECEIVED) VALUES ")
	for i := range rows {
		if i > 0 {
			sb.WriteString(",")
		}
		sb.WriteString("('<MSG/>', '2020-01-01 00:00:00')")
	}
	_, err := db.ExecContext(ctx, sb.String())
	require.NoError(t, err)

	reads := func() int64 {
		var total int64
		r, err := db.QueryContext(ctx, "SHOW SESSION STATUS WHERE Variable_name IN ('Handler_read_next', 'Handler_read_rnd_next', 'Handler_icp_attempts')")
		require.NoError(t, err)
		defer r.Close()
		for r.Next() {
			var k, v string
			require.NoError(t, r.Scan(&k, &v))
			n, err := strconv.ParseInt(v, 10, 64)
			require.NoError(t, err)
			total += n
		}
		require.NoError(t, r.Err())
		return total
	}
	before := reads()
	ids, err := mb.Rescan(ctx, rows-100, rows, time.Date(2019, 12, 31, 0, 0, 0, 0, time.UTC), 50)
	require.NoError(t, err)
	read := reads() - before
	require.Len(t, ids, 50)
	require.Equal(t, int64(rows-99), ids[0])
	require.LessOrEqual(t, read, int64(100), "rows read for a page of 50 in a window of 100")
}
