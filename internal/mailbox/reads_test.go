package mailbox_test

import (
	"database/sql"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/testdb"
	sqlfiles "github.com/msgx-aodb/msgx/sql"
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

// explain returns the rows of EXPLAIN query, one map (column → value) per
// table, in join order.
func explain(t *testing.T, db *sql.DB, query string, args ...any) []map[string]string {
	t.Helper()
	rows, err := db.QueryContext(t.Context(), "EXPLAIN "+query, args...)
	require.NoError(t, err)
	var plan []map[string]string
	for _, r := range testdb.Rows(t, rows) {
		row := map[string]string{}
		for c, v := range r {
			if v != nil {
				row[c] = *v
			} else {
				row[c] = ""
			}
		}
		plan = append(plan, row)
	}
	return plan
}

// mailboxQuery is the text of the named query of sql/mysql/queries as the
// server sees it: sqlc's named arguments become placeholders.
func mailboxQuery(t *testing.T, name string) string {
	t.Helper()
	src, err := sqlfiles.MailboxQueries.ReadFile("mysql/queries/mailbox.sql")
	require.NoError(t, err)
	_, rest, ok := strings.Cut(string(src), "-- name: "+name+" ")
	require.True(t, ok, "query %s", name)
	_, rest, _ = strings.Cut(rest, "\n")
	query, _, _ := strings.Cut(rest, ";")
	return regexp.MustCompile(`sqlc\.n?arg\(\w+\)`).ReplaceAllString(query, "?")
}
