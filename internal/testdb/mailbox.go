package testdb

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/stretchr/testify/require"

	sqlfiles "github.com/msgx-aodb/msgx/sql"
)

// DefaultMailboxDSN is the MariaDB/MySQL server used when
// MSGX_TEST_MAILBOX_DSN is not set.
const DefaultMailboxDSN = "root@tcp(127.0.0.1:3306)/?parseTime=true"

var mailboxAdmin = sync.OnceValues(func() (*mysql.Config, error) {
	dsn := os.Getenv("MSGX_TEST_MAILBOX_DSN")
	if dsn == "" {
		dsn = DefaultMailboxDSN
	}
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		return nil, fmt.Errorf("MSGX_TEST_MAILBOX_DSN: %w", err)
	}
	cfg.DBName = ""
	cfg.ParseTime = true
	if cfg.Timeout == 0 {
		cfg.Timeout = 10 * time.Second
	}
	return cfg, nil
})

// Mailbox returns a fresh MariaDB/MySQL database msgx_mb_<random> holding the
// mailbox tables of sqlfiles.MailboxSchema, and its DSN (parseTime=true).
func Mailbox(t testing.TB) (*sql.DB, string) {
	t.Helper()
	cfg, err := mailboxAdmin()
	if err != nil {
		t.Fatalf("testdb: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), setupTimeout)
	defer cancel()
	adm, err := sql.Open("mysql", cfg.FormatDSN())
	if err != nil {
		t.Fatalf("testdb: %v", err)
	}
	defer adm.Close()
	name := "msgx_mb_" + randomHex(t)
	if _, err := adm.ExecContext(ctx, "CREATE DATABASE `"+name+"` CHARACTER SET utf8mb4"); err != nil {
		t.Fatalf("testdb: MariaDB for tests is unavailable (start it, or point MSGX_TEST_MAILBOX_DSN at one): %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		adm, err := sql.Open("mysql", cfg.FormatDSN())
		if err == nil {
			_, err = adm.ExecContext(ctx, "DROP DATABASE IF EXISTS `"+name+"`")
			adm.Close()
		}
		if err != nil {
			t.Errorf("testdb: drop mailbox database %s: %v", name, err)
		}
	})

	dbCfg := cfg.Clone()
	dbCfg.DBName = name
	dsn := dbCfg.FormatDSN()
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatalf("testdb: %v", err)
	}
	t.Cleanup(func() { db.Close() }) // runs before the drop above
	if err := execMailboxSchema(ctx, db); err != nil {
		t.Fatalf("testdb: mailbox schema: %v", err)
	}
	return db, dsn
}

func execMailboxSchema(ctx context.Context, db *sql.DB) error {
	names, err := fs.Glob(sqlfiles.MailboxSchema, "mysql/schema/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	for _, n := range names {
		b, err := fs.ReadFile(sqlfiles.MailboxSchema, n)
		if err != nil {
			return err
		}
		for _, stmt := range splitStatements(string(b)) {
			if _, err := db.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("%s: %w", n, err)
			}
		}
	}
	return nil
}

// splitStatements splits MySQL DDL at lines ending in ';' and drops
// comment-only lines; the mailbox files are plain CREATE TABLE statements.
func splitStatements(src string) []string {
	var stmts []string
	var cur strings.Builder
	sc := bufio.NewScanner(strings.NewReader(src))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "--") {
			continue
		}
		cur.WriteString(line)
		cur.WriteByte('\n')
		if strings.HasSuffix(line, ";") {
			stmts = append(stmts, strings.TrimSuffix(strings.TrimSpace(cur.String()), ";"))
			cur.Reset()
		}
	}
	if s := strings.TrimSpace(cur.String()); s != "" {
		stmts = append(stmts, s)
	}
	return stmts
}

// MailboxReads is the session's count of rows read by the storage engine
// (index and table scans, index condition checks). db must hold one
// connection (SetMaxOpenConns(1)) so the session is the mailbox's.
func MailboxReads(t testing.TB, db *sql.DB) int64 {
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

// Rows reads every row of rows (and closes it) as column → text, nil for
// NULL: a test's view of whatever a query returns (a plan, a table dump).
func Rows(t testing.TB, rows *sql.Rows) []map[string]*string {
	t.Helper()
	defer rows.Close()
	cols, err := rows.Columns()
	require.NoError(t, err)
	var out []map[string]*string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		require.NoError(t, rows.Scan(ptrs...))
		row := make(map[string]*string, len(cols))
		for i, c := range cols {
			if vals[i].Valid {
				row[c] = &vals[i].String
			} else {
				row[c] = nil
			}
		}
		out = append(out, row)
	}
	require.NoError(t, rows.Err())
	return out
}
