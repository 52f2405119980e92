package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/schema"
	"github.com/msgx-aodb/msgx/internal/testdb"
)

// runMsgx runs the msgx command line in-process.
func runMsgx(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = dispatch(context.Background(), args, streams{in: strings.NewReader(""), out: &out, err: &errb})
	return code, out.String(), errb.String()
}

func TestSchemaPlanApply(t *testing.T) {
	t.Parallel()
	pg := testdb.PostgresEmpty(t)

	code, out, stderr := runMsgx(t, "schema", "plan", "--url", pg.URL)
	require.Equal(t, exitOK, code, stderr)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.Contains(t, out, `CREATE TABLE "public".`)
	for _, l := range lines {
		require.True(t, strings.HasSuffix(l, ";"), "one ;-terminated statement per line: %q", l)
	}

	code, _, stderr = runMsgx(t, "schema", "apply", "--url", pg.URL)
	require.Equal(t, exitUsage, code)
	require.Equal(t, 1, strings.Count(stderr, "\n"), stderr)
	require.Contains(t, stderr, "--yes")

	// apply says what it did in one line; --verbose prints the statements.
	other := testdb.PostgresEmpty(t)
	code, applied, stderr := runMsgx(t, "schema", "apply", "--yes", "--url", other.URL, "--schema", "public")
	require.Equal(t, exitOK, code, stderr)
	require.Empty(t, applied, "no statements without --verbose")
	require.Regexp(t, `^-- applied `+strconv.Itoa(len(lines))+` statements: \d+ CREATE TABLE, `, stderr)
	require.Equal(t, 1, strings.Count(stderr, "\n"), stderr)

	code, applied, stderr = runMsgx(t, "schema", "apply", "--yes", "--verbose", "--url", pg.URL, "--schema", "public")
	require.Equal(t, exitOK, code, stderr)
	require.Equal(t, out, applied, "apply executes what plan printed")
	require.Contains(t, stderr, "applied")

	code, out, stderr = runMsgx(t, "schema", "plan", "--url", pg.URL)
	require.Equal(t, exitOK, code, stderr)
	require.Empty(t, out)
	require.Equal(t, "-- schema is up to date\n", stderr)
}

func TestSchemaURLFromEnv(t *testing.T) {
	pg := testdb.Postgres(t) // already at the desired schema
	t.Setenv("MSGX_PG_URL", pg.URL)
	code, out, stderr := runMsgx(t, "schema", "plan")
	require.Equal(t, exitOK, code, stderr)
	require.Empty(t, out)
	require.Contains(t, stderr, "up to date")

	// Like every command, schema reads the configuration file (and its
	// default is the local development database).
	t.Setenv("MSGX_PG_URL", "")
	cfg := filepath.Join(t.TempDir(), "msgx.yaml")
	require.NoError(t, os.WriteFile(cfg, []byte("postgres:\n  url: "+pg.URL+"\n"), 0o600))
	code, _, stderr = runMsgx(t, "schema", "plan", "--config", cfg)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, stderr, "up to date")
	t.Setenv("MSGX_CONFIG", cfg)
	code, _, stderr = runMsgx(t, "schema", "plan")
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, stderr, "up to date")
}

func TestSchemaBadURL(t *testing.T) {
	t.Parallel()
	for _, url := range []string{"not-a-url://", "postgres://127.0.0.1:1/x", "postgres://u:secret@127.0.0.1:1/x", "%zz"} {
		code, out, stderr := runMsgx(t, "schema", "plan", "--url", url)
		require.Equal(t, exitFailure, code, url)
		require.Empty(t, out)
		require.Equal(t, 1, strings.Count(stderr, "\n"), "one line for %s: %q", url, stderr)
		require.True(t, strings.HasPrefix(stderr, "msgx schema: "), stderr)
		require.NotContains(t, stderr, "secret")
	}
}

func TestSchemaUsage(t *testing.T) {
	t.Parallel()
	code, _, stderr := runMsgx(t, "schema", "drop")
	require.Equal(t, exitUsage, code)
	require.Contains(t, stderr, "unknown subcommand")

	code, _, _ = runMsgx(t, "schema")
	require.Equal(t, exitUsage, code)

	code, _, _ = runMsgx(t, "schema", "plan", "--bogus")
	require.Equal(t, exitUsage, code)
}

// A DBA edits sql/postgres/schema in a checkout and runs the built binary
// from there: the plan shows the edit (the working tree's files, not the
// built-in copy) and says that they differ from the built-in copy; --dir
// names any other directory.
func TestSchemaPlanEditedWorkTree(t *testing.T) {
	pg := testdb.Postgres(t) // at the built-in schema
	tree := t.TempDir()
	dir := filepath.Join(tree, "sql", "postgres", "schema")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.CopyFS(dir, schema.Embedded()))
	t.Chdir(tree)

	// An unedited checkout is the built-in copy: no warning.
	same, err := schema.SameFiles(os.DirFS(dir), schema.Embedded())
	require.NoError(t, err)
	require.True(t, same)

	f := filepath.Join(dir, "050_reference.sql")
	src, err := os.ReadFile(f)
	require.NoError(t, err)
	edit := "\nCREATE TABLE dba_note (id BIGINT NOT NULL, CONSTRAINT dba_note_pkey PRIMARY KEY (id));\n"
	require.NoError(t, os.WriteFile(f, append(src, edit...), 0o600))

	code, out, stderr := runMsgx(t, "schema", "plan", "--url", pg.URL)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, out, `CREATE TABLE "public"."dba_note"`)
	require.Contains(t, stderr, "-- desired schema from sql/postgres/schema, which differs from the copy built into this msgx")

	// --dir from anywhere; a directory without schema files is a usage error.
	t.Chdir(t.TempDir())
	code, out, _ = runMsgx(t, "schema", "plan", "--url", pg.URL, "--dir", dir)
	require.Equal(t, exitOK, code)
	require.Contains(t, out, `"dba_note"`)
	code, _, stderr = runMsgx(t, "schema", "plan", "--url", pg.URL, "--dir", t.TempDir())
	require.Equal(t, exitUsage, code)
	require.Contains(t, stderr, "no *.sql files")
}

// A view msgx re-creates around a table change is no drop to warn of; a
// table or a view the plan leaves dropped is.
func TestUnownedDrops(t *testing.T) {
	t.Parallel()
	stmts := []string{
		`DROP VIEW "public"."flight_report"`,
		`ALTER TABLE "public"."flight_schd" ALTER COLUMN "stnd" TYPE character varying(2000)`,
		`CREATE VIEW "public"."flight_report" AS SELECT 1`,
		`DROP VIEW IF EXISTS "public"."dba_view"`,
		`DROP TABLE "public"."dba_notes"`,
	}
	require.Equal(t, []string{`"public"."dba_view"`, `"public"."dba_notes"`}, unownedDrops(stmts))
	require.Empty(t, unownedDrops(stmts[:3]))
}
