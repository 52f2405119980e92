package schema_test

import (
	"context"
	"database/sql"
	"testing"
	"testing/fstest"

	"ariga.io/atlas/sql/migrate"
	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/schema"
	"github.com/msgx-aodb/msgx/internal/testdb"
)

// collationSchema is a toy table whose key column k has the COLLATE clause
// given ("" for the type's default), under a unique index.
func collationSchema(collate string) fstest.MapFS {
	return fstest.MapFS{"010_q.sql": {Data: []byte(
		`CREATE TABLE q (id BIGINT NOT NULL, k VARCHAR(40) ` + collate + ` NOT NULL, CONSTRAINT q_pkey PRIMARY KEY (id));
CREATE UNIQUE INDEX q_k_uq ON q (k);`)}}
}

// columnCollations lists table.column=collation of schema ns, for the
// columns with a collation other than their type's default.
func columnCollations(t *testing.T, db *sql.DB, ns string) []string {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), `
SELECT table_name || '.' || column_name || '=' || collation_name
  FROM information_schema.columns
 WHERE table_schema = $1 AND collation_name IS NOT NULL
 ORDER BY 1`, ns)
	require.NoError(t, err)
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		require.NoError(t, rows.Scan(&s))
		out = append(out, s)
	}
	require.NoError(t, rows.Err())
	return out
}

// Atlas's diff ignores a column's collation; Plan, Apply and the generated
// migrations carry it anyway: set, nothing left to plan afterwards, and reset
// when the files drop it.
func TestColumnCollationPlanApplyMigrate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openDB(t, testdb.PostgresEmpty(t))
	plain, c := collationSchema(""), collationSchema(`COLLATE "C"`)

	_, err := schema.ApplyFrom(ctx, db, "public", plain)
	require.NoError(t, err)
	require.Empty(t, columnCollations(t, db, "public"))

	plan, err := schema.PlanFrom(ctx, db, "public", c)
	require.NoError(t, err)
	require.Equal(t, []string{`ALTER TABLE "public"."q" ALTER COLUMN "k" TYPE character varying(40) COLLATE "C"`}, plan)
	_, err = schema.ApplyFrom(ctx, db, "public", c)
	require.NoError(t, err)
	require.Equal(t, []string{"q.k=C"}, columnCollations(t, db, "public"))
	plan, err = schema.PlanFrom(ctx, db, "public", c)
	require.NoError(t, err)
	require.Empty(t, plan, "plan after apply")

	plan, err = schema.PlanFrom(ctx, db, "public", plain)
	require.NoError(t, err)
	require.Equal(t, []string{`ALTER TABLE "public"."q" ALTER COLUMN "k" TYPE character varying(40)`}, plan)
	_, err = schema.ApplyFrom(ctx, db, "public", plain)
	require.NoError(t, err)
	require.Empty(t, columnCollations(t, db, "public"))

	// Migrations: the default from nothing, then "C"; replayed, they give "C".
	dir, err := migrate.NewLocalDir(t.TempDir())
	require.NoError(t, err)
	_, err = schema.GenerateMigrationFrom(ctx, db, dir, "init", plain)
	require.NoError(t, err)
	name, err := schema.GenerateMigrationFrom(ctx, db, dir, "collate", c)
	require.NoError(t, err)
	require.Contains(t, string(readFile(t, dir, name)), `ALTER TABLE "q" ALTER COLUMN "k" TYPE character varying(40) COLLATE "C";`)
	same, err := schema.GenerateMigrationFrom(ctx, db, dir, "noop", c)
	require.NoError(t, err)
	require.Empty(t, same)

	migrated := openDB(t, testdb.PostgresEmpty(t))
	files, err := dir.Files()
	require.NoError(t, err)
	require.NoError(t, schema.ExecFiles(ctx, migrated, "public", files))
	require.Equal(t, []string{"q.k=C"}, columnCollations(t, migrated, "public"))
}

// The identifier columns of the hot-path indexes compare bytewise
// (docs/dev/performance-notes.md), in a database built by Apply (the test template)
// and by the migrations.
func TestIdentifierColumnsCollateC(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	applied := openDB(t, testdb.Postgres(t))
	require.Equal(t, []string{
		"msg_event.idempotency_key=C",
		"msg_event.partition_key=C",
		"msg_event.target=C",
		"proc_state.identity_key=C",
		"proc_state_hst.identity_key=C",
	}, columnCollations(t, applied, "public"))

	migrated := openDB(t, testdb.PostgresEmpty(t))
	dir, err := schema.MigrationDir()
	require.NoError(t, err)
	files, err := dir.Files()
	require.NoError(t, err)
	require.NoError(t, schema.ExecFiles(ctx, migrated, "public", files))
	require.Equal(t, columnCollations(t, applied, "public"), columnCollations(t, migrated, "public"))
}
