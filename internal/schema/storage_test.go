package schema_test

import (
	"context"
	"database/sql"
	"testing"
	"testing/fstest"

	"ariga.io/atlas/sql/migrate"
	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/db/pgadmin"
	"github.com/msgx-aodb/msgx/internal/schema"
	"github.com/msgx-aodb/msgx/internal/testdb"
)

// storageSchema is a toy table with the storage parameters given.
func storageSchema(with string) fstest.MapFS {
	return fstest.MapFS{"010_q.sql": {Data: []byte(
		`CREATE TABLE q (id BIGINT NOT NULL, v TEXT NULL, CONSTRAINT q_pkey PRIMARY KEY (id))` + with + `;`)}}
}

// storageParams lists table.name=value of schema ns.
func storageParams(t *testing.T, db *sql.DB, ns string) []string {
	t.Helper()
	rows, err := pgadmin.New().TableStorageParams(context.Background(), db, ns)
	require.NoError(t, err)
	var out []string
	for _, r := range rows {
		out = append(out, r.TableName+"."+r.Name+"="+r.Value)
	}
	return out
}

// Atlas neither inspects nor plans table storage parameters; Plan, Apply and
// the generated migrations carry them anyway: set on a new table, changed,
// reset when the files drop them, and nothing left to plan afterwards.
func TestStorageParamsPlanApplyMigrate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openDB(t, testdb.PostgresEmpty(t))
	v1 := storageSchema(` WITH (fillfactor = 70, autovacuum_vacuum_scale_factor = 0.01)`)
	v2 := storageSchema(` WITH (fillfactor = 90)`)

	plan, err := schema.PlanFrom(ctx, db, "public", v1)
	require.NoError(t, err)
	require.Contains(t, plan, `ALTER TABLE "public"."q" SET (autovacuum_vacuum_scale_factor = 0.01, fillfactor = 70)`)
	_, err = schema.ApplyFrom(ctx, db, "public", v1)
	require.NoError(t, err)
	require.Equal(t, []string{"q.autovacuum_vacuum_scale_factor=0.01", "q.fillfactor=70"}, storageParams(t, db, "public"))
	plan, err = schema.PlanFrom(ctx, db, "public", v1)
	require.NoError(t, err)
	require.Empty(t, plan, "plan after apply")

	plan, err = schema.PlanFrom(ctx, db, "public", v2)
	require.NoError(t, err)
	require.Equal(t, []string{
		`ALTER TABLE "public"."q" RESET (autovacuum_vacuum_scale_factor)`,
		`ALTER TABLE "public"."q" SET (fillfactor = 90)`,
	}, plan)
	_, err = schema.ApplyFrom(ctx, db, "public", v2)
	require.NoError(t, err)
	require.Equal(t, []string{"q.fillfactor=90"}, storageParams(t, db, "public"))

	// Migrations: v1 from nothing, then v2; replayed, they give v2.
	dir, err := migrate.NewLocalDir(t.TempDir())
	require.NoError(t, err)
	name1, err := schema.GenerateMigrationFrom(ctx, db, dir, "init", v1)
	require.NoError(t, err)
	require.Contains(t, string(readFile(t, dir, name1)), `ALTER TABLE "q" SET (autovacuum_vacuum_scale_factor = 0.01, fillfactor = 70);`)
	name2, err := schema.GenerateMigrationFrom(ctx, db, dir, "change", v2)
	require.NoError(t, err)
	require.NotEmpty(t, name2, "a changed storage parameter needs a migration")
	same, err := schema.GenerateMigrationFrom(ctx, db, dir, "noop", v2)
	require.NoError(t, err)
	require.Empty(t, same)

	migrated := openDB(t, testdb.PostgresEmpty(t))
	files, err := dir.Files()
	require.NoError(t, err)
	require.NoError(t, schema.ExecFiles(ctx, migrated, "public", files))
	require.Equal(t, []string{"q.fillfactor=90"}, storageParams(t, migrated, "public"))
}

// flight_schd leaves room on its pages for HOT updates (docs/dev/performance-notes.md),
// in a database built by Apply (the test template) and by the migrations.
func TestFlightSchdFillfactor(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	applied := openDB(t, testdb.Postgres(t))
	require.Contains(t, storageParams(t, applied, "public"), "flight_schd.fillfactor=50")

	migrated := openDB(t, testdb.PostgresEmpty(t))
	dir, err := schema.MigrationDir()
	require.NoError(t, err)
	files, err := dir.Files()
	require.NoError(t, err)
	require.NoError(t, schema.ExecFiles(ctx, migrated, "public", files))
	require.Equal(t, storageParams(t, applied, "public"), storageParams(t, migrated, "public"))
}
