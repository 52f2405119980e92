package mailbox_test

import (
	"database/sql"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/testdb"
)

// Open interpolates parameters unless the DSN says otherwise (issue #23): a
// read is one command on the AODB's server, not a prepare, an execute and a
// close. An insert of a body stays a server-side statement, so the body is
// never escaped into the text and BodyLimit holds.
func TestOpenInterpolatesParameters(t *testing.T) {
	t.Parallel()
	_, dsn := testdb.Mailbox(t)
	for _, c := range []struct {
		dsn      string
		prepares int64 // by a read
	}{
		{dsn, 0},
		{dsn + "&interpolateParams=false", 1},
		{dsn + "&interpolateParams=true", 0},
	} {
		db, err := mailbox.Open(t.Context(), c.dsn)
		require.NoError(t, err)
		db.SetMaxOpenConns(1) // the session counters are the mailbox's
		mb := mailbox.New(db)
		before := prepares(t, db)
		_, err = mb.ListAfter(t.Context(), 0, 10)
		require.NoError(t, err)
		require.Equal(t, c.prepares, prepares(t, db)-before, "server-side statements of a read, DSN %s", c.dsn)
		before = prepares(t, db)
		_, err = mb.Insert(t.Context(), []byte(`<MSG a="1">'\`+"\n</MSG>"), t0)
		require.NoError(t, err)
		require.Equal(t, int64(1), prepares(t, db)-before, "an insert is a server-side statement, DSN %s", c.dsn)
		require.NoError(t, db.Close())
	}
}

func prepares(t *testing.T, db *sql.DB) int64 {
	t.Helper()
	var name string
	var n int64
	require.NoError(t, db.QueryRowContext(t.Context(), "SHOW SESSION STATUS LIKE 'Com_stmt_prepare'").Scan(&name, &n))
	return n
}
