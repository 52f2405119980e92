package testdb

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/schema"
)

func databaseExists(t *testing.T, name string) bool {
	t.Helper()
	db, err := admin()
	require.NoError(t, err)
	var n int
	require.NoError(t, db.QueryRow(`SELECT count(*) FROM pg_database WHERE datname = $1`, name).Scan(&n))
	return n == 1
}

func TestTemplateIsDesiredSchema(t *testing.T) {
	t.Parallel()
	pg := Postgres(t)
	require.True(t, strings.HasPrefix(pg.Name, "msgx_t_"))
	ctx := context.Background()
	db, err := schema.Open(ctx, pg.URL)
	require.NoError(t, err)
	defer db.Close()
	plan, err := schema.Plan(ctx, db, "public")
	require.NoError(t, err)
	require.Empty(t, plan, "a cloned database is exactly the desired schema")

	tpl, err := template()
	require.NoError(t, err)
	sum, err := schemaHash()
	require.NoError(t, err)
	require.Equal(t, fmt.Sprintf("msgx_tpl_%x", sum[:4]), tpl, "template named by the schema hash")
	adm, err := admin()
	require.NoError(t, err)
	var isTemplate, allowConn bool
	require.NoError(t, adm.QueryRow(`SELECT datistemplate, datallowconn FROM pg_database WHERE datname = $1`, tpl).Scan(&isTemplate, &allowConn))
	require.True(t, isTemplate)
	require.False(t, allowConn)
}

func TestTemplateClonesAreIsolated(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a, b := Postgres(t), Postgres(t)
	require.NotEqual(t, a.Name, b.Name)

	_, err := a.Pool.Exec(ctx, `CREATE TABLE only_in_a (id int)`)
	require.NoError(t, err)
	var n int
	require.NoError(t, b.Pool.QueryRow(ctx, `SELECT count(*) FROM pg_tables WHERE tablename = 'only_in_a'`).Scan(&n))
	require.Zero(t, n)

	var tablesA, tablesB int
	q := `SELECT count(*) FROM pg_tables WHERE schemaname = 'public'`
	require.NoError(t, a.Pool.QueryRow(ctx, q).Scan(&tablesA))
	require.NoError(t, b.Pool.QueryRow(ctx, q).Scan(&tablesB))
	require.Equal(t, tablesA, tablesB+1)
	require.Positive(t, tablesB, "the clone has msgx's tables")
}

func TestPostgresParallelAndDropped(t *testing.T) {
	names := make(chan string, 4)
	t.Run("group", func(t *testing.T) {
		for i := range 4 {
			t.Run(fmt.Sprint(i), func(t *testing.T) {
				t.Parallel()
				pg := Postgres(t)
				names <- pg.Name
				var one int
				require.NoError(t, pg.Pool.QueryRow(context.Background(), `SELECT 1`).Scan(&one))
				require.True(t, databaseExists(t, pg.Name))
			})
		}
	})
	close(names)
	var n int
	for name := range names {
		n++
		require.False(t, databaseExists(t, name), "%s not dropped", name)
	}
	require.Equal(t, 4, n)
}

func TestPostgresEmpty(t *testing.T) {
	t.Parallel()
	pg := PostgresEmpty(t)
	var n int
	require.NoError(t, pg.Pool.QueryRow(context.Background(), `SELECT count(*) FROM pg_tables WHERE schemaname = 'public'`).Scan(&n))
	require.Zero(t, n)
}

func TestMailbox(t *testing.T) {
	t.Parallel()
	var name string
	t.Run("use", func(t *testing.T) {
		db, dsn := Mailbox(t)
		require.Contains(t, dsn, "parseTime=true")
		require.NoError(t, db.QueryRow(`SELECT DATABASE()`).Scan(&name))
		require.True(t, strings.HasPrefix(name, "msgx_mb_"), name)
		require.Contains(t, dsn, "/"+name)

		received := time.Date(2026, 5, 1, 12, 30, 0, 0, time.UTC)
		res, err := db.Exec(`INSERT INTO cminmsgs (CMINMSGS_CLOB_MSG, CMINMSGS_DATE_RECEIVED) VALUES (?, ?)`, "<MSG/>", received)
		require.NoError(t, err)
		id, err := res.LastInsertId()
		require.NoError(t, err)
		var got time.Time
		require.NoError(t, db.QueryRow(`SELECT CMINMSGS_DATE_RECEIVED FROM cminmsgs WHERE CMINMSGS_ID = ?`, id).Scan(&got))
		require.True(t, received.Equal(got), "parseTime: got %v", got)

		var n int
		require.NoError(t, db.QueryRow(`SELECT count(*) FROM coutmsgs`).Scan(&n))
		require.Zero(t, n)
	})
	cfg, err := mailboxAdmin()
	require.NoError(t, err)
	adm, err := sql.Open("mysql", cfg.FormatDSN())
	require.NoError(t, err)
	defer adm.Close()
	var n int
	require.NoError(t, adm.QueryRow(`SELECT count(*) FROM information_schema.schemata WHERE schema_name = ?`, name).Scan(&n))
	require.Zero(t, n, "mailbox database not dropped")
}

func TestSplitStatements(t *testing.T) {
	got := splitStatements("-- header\nCREATE TABLE a (\n  x int -- inline\n);\n\n-- between\nCREATE TABLE b (y int);\n")
	require.Equal(t, []string{"CREATE TABLE a (\nx int -- inline\n)", "CREATE TABLE b (y int)"}, got)
}

// Long skips unless MSGX_TEST_LONG is set (make test-long sets it).
func TestLongSkipsUnlessAskedFor(t *testing.T) {
	skipped := func() (s bool) {
		t.Run("", func(t *testing.T) {
			defer func() { s = t.Skipped() }()
			Long(t)
		})
		return s
	}
	t.Setenv(LongEnv, "")
	require.True(t, skipped())
	t.Setenv(LongEnv, "1")
	require.False(t, skipped())
}
