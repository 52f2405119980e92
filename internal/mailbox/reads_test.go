package mailbox_test

import (
	"database/sql"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// insertBacklog adds rows unprocessed rows received 2020-01-01, ids 1..rows
// on a fresh mailbox, in one statement.
func insertBacklog(t *testing.T, db *sql.DB, rows int) {
	t.Helper()
	var sb strings.Builder
	sb.WriteString("INSERT INTO cminmsgs (CMINMSGS_CLOB_MSG, CMINMSGS_DATE_RECEIVED) VALUES ")
	for i := range rows {
		if i > 0 {
			sb.WriteString(",")
		}
		sb.WriteString("('<MSG/>', '2020-01-01 00:00:00')")
	}
	_, err := db.ExecContext(t.Context(), sb.String())
	require.NoError(t, err)
}

// handlerReads is the session's count of rows read by the storage engine
// (index and table scans, index condition checks). db must hold one
// connection (SetMaxOpenConns(1)) so the session is the mailbox's.
func handlerReads(t *testing.T, db *sql.DB) int64 {
	t.Helper()
	var total int64
	r, err := db.QueryContext(t.Context(), "SHOW SESSION STATUS WHERE Variable_name IN ('Handler_read_key', 'Handler_read_next', 'Handler_read_prev', 'Handler_read_rnd', 'Handler_read_rnd_next', 'Handler_icp_attempts')")
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
