package mailbox_test

import (
	"database/sql"
	"testing"

	"github.com/stretchr/testify/require"
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
	ids, err := mb.Unprocessed(ctx, 0, 250, 1)
	require.NoError(t, err)
	require.Equal(t, []int64{100}, ids, "one page, however old")
	ids, err = mb.Unprocessed(ctx, 100, 250, 10)
	require.NoError(t, err)
	require.Equal(t, []int64{200}, ids, "up to the bound")

	_, err = db.ExecContext(ctx, "ANALYZE TABLE cminmsgs")
	require.NoError(t, err)
	rows, err := db.QueryContext(ctx, `EXPLAIN SELECT CMINMSGS_ID FROM cminmsgs
WHERE CMINMSGS_DATE_PROCESSED IS NULL AND CMINMSGS_ID > 0 AND CMINMSGS_ID <= 250
ORDER BY CMINMSGS_ID LIMIT 500`)
	require.NoError(t, err)
	defer rows.Close()
	cols, err := rows.Columns()
	require.NoError(t, err)
	require.True(t, rows.Next())
	vals := make([]sql.NullString, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	require.NoError(t, rows.Scan(ptrs...))
	plan := map[string]string{}
	for i, c := range cols {
		plan[c] = vals[i].String
	}
	require.Equal(t, "cminmsgs_unprocessed_ix", plan["key"], "plan: %v", plan)
}
