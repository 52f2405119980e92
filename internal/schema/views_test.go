package schema_test

import (
	"context"
	"regexp"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/db/pgadmin"
	"github.com/msgx-aodb/msgx/internal/schema"
	"github.com/msgx-aodb/msgx/internal/testdb"
)

// The views (which atlas does not inspect) reach a database both ways: the
// migrated database and the schema-applied one have the same views with the
// same definitions and comments, and flight_report is one of them.
func TestViewsMigrationsMatchApply(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	migrated := openDB(t, testdb.PostgresEmpty(t))
	dir, err := schema.MigrationDir()
	require.NoError(t, err)
	files, err := dir.Files()
	require.NoError(t, err)
	require.NoError(t, schema.ExecFiles(ctx, migrated, "public", files))

	applied := openDB(t, testdb.PostgresEmpty(t))
	_, err = schema.Apply(ctx, applied, "public")
	require.NoError(t, err)

	q := pgadmin.New()
	fromMigrations, err := q.ViewDefinitions(ctx, migrated, "public")
	require.NoError(t, err)
	fromApply, err := q.ViewDefinitions(ctx, applied, "public")
	require.NoError(t, err)
	require.Equal(t, fromApply, fromMigrations)
	var names []string
	for _, v := range fromApply {
		names = append(names, v.Name)
		require.NotEmpty(t, v.Comment, "view %s has no COMMENT ON VIEW", v.Name)
	}
	require.Contains(t, names, "flight_report")
}

// A toy schema with a view over a table.
func viewSchema(viewSQL string) fstest.MapFS {
	return fstest.MapFS{
		"010_t.sql": {Data: []byte(`CREATE TABLE t (id BIGINT NOT NULL, v VARCHAR(10) NULL, CONSTRAINT t_pkey PRIMARY KEY (id));`)},
		"020_v.sql": {Data: []byte(viewSQL)},
	}
}

// Apply creates views, a second plan is empty, a changed definition or
// comment is re-created, and a table change under a view (which PostgreSQL
// refuses while the view depends on the column) goes through because the
// plan drops the views first.
func TestPlanKeepsViews(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openDB(t, testdb.PostgresEmpty(t))
	q := pgadmin.New()
	apply := func(src fstest.MapFS) []string {
		t.Helper()
		plan, err := schema.PlanFrom(ctx, db, "public", src)
		require.NoError(t, err)
		require.NoError(t, schema.ExecPlan(ctx, db, plan))
		again, err := schema.PlanFrom(ctx, db, "public", src)
		require.NoError(t, err)
		require.Empty(t, again, "not idempotent after %q", plan)
		return plan
	}

	v1 := viewSchema("CREATE VIEW tv AS SELECT id, v FROM t;\nCOMMENT ON VIEW tv IS 'one';\nCOMMENT ON COLUMN tv.v IS 'the v';")
	plan := apply(v1)
	require.Contains(t, plan, "CREATE VIEW tv AS SELECT id, v FROM t")
	defs, err := q.ViewDefinitions(ctx, db, "public")
	require.NoError(t, err)
	require.Len(t, defs, 1)
	require.Equal(t, "one", defs[0].Comment)
	require.Equal(t, "v: the v", defs[0].ColumnComments)

	// A changed comment alone is a change.
	plan = apply(viewSchema("CREATE VIEW tv AS SELECT id, v FROM t;\nCOMMENT ON VIEW tv IS 'two';\nCOMMENT ON COLUMN tv.v IS 'the v';"))
	require.Equal(t, `DROP VIEW "public"."tv"`, plan[0])

	// A changed definition.
	apply(viewSchema("CREATE VIEW tv AS SELECT id, upper(v) AS v FROM t;\nCOMMENT ON VIEW tv IS 'two';"))
	defs, err = q.ViewDefinitions(ctx, db, "public")
	require.NoError(t, err)
	require.Contains(t, defs[0].Definition, "upper")
	require.Empty(t, defs[0].ColumnComments)

	// Widening t.v, which tv reads: PostgreSQL refuses ALTER COLUMN TYPE of a
	// column a view uses, so this only works because the view is dropped first.
	wider := viewSchema("CREATE VIEW tv AS SELECT id, upper(v) AS v FROM t;\nCOMMENT ON VIEW tv IS 'two';")
	wider["010_t.sql"] = &fstest.MapFile{Data: []byte(`CREATE TABLE t (id BIGINT NOT NULL, v VARCHAR(20) NULL, CONSTRAINT t_pkey PRIMARY KEY (id));`)}
	plan = apply(wider)
	require.Equal(t, `DROP VIEW "public"."tv"`, plan[0])

	// A view no file defines is dropped (the schema belongs to msgx).
	plan = apply(fstest.MapFS{"010_t.sql": wider["010_t.sql"]})
	require.Equal(t, []string{`DROP VIEW "public"."tv"`}, plan)
}

// withoutViews drops the statements of a plan that drop, create or comment
// the views, which a plan re-creates around every table change.
func withoutViews(plan []string) []string {
	view := regexp.MustCompile(`^(DROP VIEW |SET LOCAL search_path |CREATE VIEW |COMMENT ON VIEW |COMMENT ON COLUMN flight_report\.)`)
	var out []string
	for _, s := range plan {
		if !view.MatchString(s) {
			out = append(out, s)
		}
	}
	return out
}

// The view statements of the schema files are put on one line for the plan,
// which a "--" comment inside a statement would break.
func TestViewFilesOneLine(t *testing.T) {
	files, err := schema.SchemaFiles()
	require.NoError(t, err)
	stmts, err := schema.ViewStatements(files)
	require.NoError(t, err)
	require.NotEmpty(t, stmts)
	for _, s := range stmts {
		require.NotContains(t, s, "--", "a view statement with a -- comment inside: %s", s)
	}
}
