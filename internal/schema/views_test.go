package schema_test

import (
	"context"
	"database/sql"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"ariga.io/atlas/sql/migrate"
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

	// A changed comment alone is a change, made in place.
	plan = apply(viewSchema("CREATE VIEW tv AS SELECT id, v FROM t;\nCOMMENT ON VIEW tv IS 'two';\nCOMMENT ON COLUMN tv.v IS 'the v';"))
	require.Contains(t, plan, "CREATE OR REPLACE VIEW tv AS SELECT id, v FROM t")
	require.NotContains(t, plan[0], "DROP VIEW")

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

// A reporting tool's own view on msgx's view (in the tool's schema) does not
// block an upgrade that PostgreSQL lets through with the view in place: a
// changed comment or definition with the same columns, a column added at the
// end of the view, an added table column. An upgrade that must re-create the
// view (a column type under it changes) fails as a whole, naming the tool's
// view and the way out.
func TestPlanKeepsToolViews(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openDB(t, testdb.PostgresEmpty(t))
	table := func(cols string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte("CREATE TABLE t (id BIGINT NOT NULL, " + cols + " CONSTRAINT t_pkey PRIMARY KEY (id));")}
	}
	apply := func(src fstest.MapFS) ([]string, error) {
		t.Helper()
		return schema.ApplyFrom(ctx, db, "public", src)
	}
	toolViewThere := func() {
		t.Helper()
		var n int
		require.NoError(t, db.QueryRowContext(ctx, "SELECT count(*) FROM reports.tool_v").Scan(&n))
	}

	v1 := viewSchema("CREATE VIEW tv AS SELECT id, v FROM t;\nCOMMENT ON VIEW tv IS 'one';\nCOMMENT ON COLUMN tv.v IS 'the v';")
	_, err := apply(v1)
	require.NoError(t, err)
	_, err = db.ExecContext(ctx, "CREATE SCHEMA reports; CREATE VIEW reports.tool_v AS SELECT id, v FROM public.tv")
	require.NoError(t, err)

	// Comments (one dropped), then a new view column at the end.
	plan, err := apply(viewSchema("CREATE VIEW tv AS SELECT id, v FROM t;\nCOMMENT ON VIEW tv IS 'two';"))
	require.NoError(t, err)
	require.Contains(t, plan, `COMMENT ON COLUMN "tv"."v" IS NULL`)
	toolViewThere()
	plan, err = apply(viewSchema("CREATE VIEW tv AS SELECT id, v, upper(v) AS v_upper FROM t;\nCOMMENT ON VIEW tv IS 'two';"))
	require.NoError(t, err)
	require.Contains(t, plan, "CREATE OR REPLACE VIEW tv AS SELECT id, v, upper(v) AS v_upper FROM t")
	toolViewThere()

	// A table column added, with the view reading it at its end.
	added := viewSchema("CREATE VIEW tv AS SELECT id, v, upper(v) AS v_upper, w FROM t;\nCOMMENT ON VIEW tv IS 'two';")
	added["010_t.sql"] = table("v VARCHAR(10) NULL, w INT NULL,")
	_, err = apply(added)
	require.NoError(t, err)
	toolViewThere()
	again, err := schema.PlanFrom(ctx, db, "public", added)
	require.NoError(t, err)
	require.Empty(t, again)

	// Widening t.v needs the view dropped, which the tool's view blocks.
	wider := viewSchema("CREATE VIEW tv AS SELECT id, v, upper(v) AS v_upper, w FROM t;\nCOMMENT ON VIEW tv IS 'two';")
	wider["010_t.sql"] = table("v VARCHAR(20) NULL, w INT NULL,")
	_, err = apply(wider)
	require.ErrorContains(t, err, "view reports.tool_v depends on view tv")
	require.ErrorContains(t, err, "nothing was changed")
	require.ErrorContains(t, err, "drop those objects, run apply again, then re-create them")
	toolViewThere()
	_, err = db.ExecContext(ctx, "DROP VIEW reports.tool_v")
	require.NoError(t, err)
	_, err = apply(wider)
	require.NoError(t, err)
}

// The same on msgx's real schema: a tool's view on flight_report survives an
// upgrade that adds a flight_schd column (the failure when the view must be
// re-created is TestPlanKeepsToolViews's: a full-schema apply costs seconds).
func TestApplyKeepsToolViewOnFlightReport(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openDB(t, testdb.Postgres(t))
	_, err := db.ExecContext(ctx, "CREATE SCHEMA reports; CREATE VIEW reports.daily AS SELECT flid, gate_1 FROM public.flight_report")
	require.NoError(t, err)

	src := fstest.MapFS{}
	files, err := schema.SchemaFiles()
	require.NoError(t, err)
	for _, f := range files {
		src[f.Name()] = &fstest.MapFile{Data: f.Bytes()}
	}
	const remc = "  remc             VARCHAR(1000)  NULL,"
	text := string(src["020_flight.sql"].Data)
	require.Contains(t, text, remc)
	src["020_flight.sql"] = &fstest.MapFile{Data: []byte(strings.Replace(text, remc, remc+"\n  remarks          VARCHAR(200)   NULL,", 1))}
	plan, err := schema.ApplyFrom(ctx, db, "public", src)
	require.NoError(t, err)
	require.Contains(t, strings.Join(plan, "\n"), `"remarks"`)
	require.NotContains(t, strings.Join(plan, "\n"), "DROP VIEW")
	var n int
	require.NoError(t, db.QueryRowContext(ctx, "SELECT count(*) FROM reports.daily").Scan(&n))
}

// depSchema is a toy schema: table t whose column v only view zv reads (in
// its WHERE, not among its columns), k no view reads, and view av on zv —
// created after zv, though before it by name.
func depSchema(kType, vCollate string) fstest.MapFS {
	return fstest.MapFS{
		"010_t.sql": {Data: []byte("CREATE TABLE t (id BIGINT NOT NULL, v VARCHAR(10) " + vCollate + " NULL, k " + kType + " NULL, CONSTRAINT t_pkey PRIMARY KEY (id));")},
		"020_v.sql": {Data: []byte("CREATE VIEW zv AS SELECT id FROM t WHERE v IS NOT NULL;\nCOMMENT ON VIEW zv IS 'z';\nCREATE VIEW av AS SELECT id FROM zv;")},
	}
}

// Only the views that read a changed column are dropped and re-created (and
// the views on them): PostgreSQL's dependency record says which. A type or
// collation change of a column no view reads leaves the views, and a
// reporting tool's view on them, in place; a collation change of a column a
// view reads drops that view and the one on it, which the tool's view then
// blocks with the way out.
func TestPlanDropsOnlyViewsThatReadAChangedColumn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openDB(t, testdb.PostgresEmpty(t))
	toolViewThere := func() {
		t.Helper()
		var n int
		require.NoError(t, db.QueryRowContext(ctx, "SELECT count(*) FROM reports.tool_v").Scan(&n))
	}
	_, err := schema.ApplyFrom(ctx, db, "public", depSchema("VARCHAR(40)", ""))
	require.NoError(t, err)
	_, err = db.ExecContext(ctx, "CREATE SCHEMA reports; CREATE VIEW reports.tool_v AS SELECT id FROM public.av")
	require.NoError(t, err)

	// k, which no view reads: its collation, then its type.
	for _, src := range []fstest.MapFS{depSchema(`VARCHAR(40) COLLATE "C"`, ""), depSchema(`VARCHAR(80) COLLATE "C"`, "")} {
		plan, err := schema.PlanFrom(ctx, db, "public", src)
		require.NoError(t, err)
		require.Len(t, plan, 1)
		require.Contains(t, plan[0], `ALTER TABLE "public"."t" ALTER COLUMN "k" TYPE character varying`)
		_, err = schema.ApplyFrom(ctx, db, "public", src)
		require.NoError(t, err)
		toolViewThere()
	}

	// v, which zv reads: zv and av (on zv) go, which the tool's view on av blocks.
	vc := depSchema(`VARCHAR(80) COLLATE "C"`, `COLLATE "C"`)
	_, err = schema.ApplyFrom(ctx, db, "public", vc)
	require.ErrorContains(t, err, "view reports.tool_v depends on view av")
	require.ErrorContains(t, err, "nothing was changed")
	require.ErrorContains(t, err, "drop those objects, run apply again, then re-create them")
	toolViewThere()

	_, err = db.ExecContext(ctx, "DROP VIEW reports.tool_v")
	require.NoError(t, err)
	plan, err := schema.PlanFrom(ctx, db, "public", vc)
	require.NoError(t, err)
	require.Equal(t, []string{
		`DROP VIEW "public"."av", "public"."zv"`,
		`ALTER TABLE "public"."t" ALTER COLUMN "v" TYPE character varying(10) COLLATE "C"`,
		`SET LOCAL search_path TO "public"`,
		"CREATE VIEW zv AS SELECT id FROM t WHERE v IS NOT NULL",
		"COMMENT ON VIEW zv IS 'z'",
		"CREATE VIEW av AS SELECT id FROM zv",
	}, plan)
	_, err = schema.ApplyFrom(ctx, db, "public", vc)
	require.NoError(t, err)
	again, err := schema.PlanFrom(ctx, db, "public", vc)
	require.NoError(t, err)
	require.Empty(t, again)

	// A tool's view on the table column itself: PostgreSQL refuses the change.
	_, err = db.ExecContext(ctx, "CREATE VIEW reports.tool_k AS SELECT id, k FROM public.t")
	require.NoError(t, err)
	_, err = schema.ApplyFrom(ctx, db, "public", depSchema(`VARCHAR(100) COLLATE "C"`, `COLLATE "C"`))
	require.ErrorContains(t, err, "cannot alter type of a column used by a view or rule")
	require.ErrorContains(t, err, "rule _RETURN on view reports.tool_k depends on column")
	require.ErrorContains(t, err, "This upgrade must change a column those objects read: drop those objects")
}

// The collation migration (identifier_columns_collate_c) changes columns
// flight_report does not read: a reporting tool's view on flight_report stays
// through it, whether the DBA runs the migration file or msgx schema plan and
// apply (neither drops the view).
func TestCollationUpgradeKeepsToolViewOnFlightReport(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir, err := schema.MigrationDir()
	require.NoError(t, err)
	files, err := dir.Files()
	require.NoError(t, err)
	at := slices.IndexFunc(files, func(f migrate.File) bool {
		return strings.HasSuffix(f.Name(), "_identifier_columns_collate_c.sql")
	})
	require.GreaterOrEqual(t, at, 0, "no identifier_columns_collate_c migration")
	require.NotContains(t, string(files[at].Bytes()), "DROP VIEW")

	before := func() *sql.DB {
		t.Helper()
		db := openDB(t, testdb.PostgresEmpty(t))
		require.NoError(t, schema.ExecFiles(ctx, db, "public", files[:at]))
		_, err := db.ExecContext(ctx, "CREATE SCHEMA reports; CREATE VIEW reports.daily AS SELECT flid, gate_1 FROM public.flight_report")
		require.NoError(t, err)
		return db
	}
	toolViewThere := func(db *sql.DB) {
		t.Helper()
		var n int
		require.NoError(t, db.QueryRowContext(ctx, "SELECT count(*) FROM reports.daily").Scan(&n))
	}

	migrated := before()
	require.NoError(t, schema.ExecFiles(ctx, migrated, "public", files[at:at+1]))
	toolViewThere(migrated)

	applied := before()
	plan, err := schema.Plan(ctx, applied, "public")
	require.NoError(t, err)
	require.Contains(t, strings.Join(plan, "\n"), `COLLATE "C"`)
	require.NotContains(t, strings.Join(plan, "\n"), "VIEW")
	_, err = schema.Apply(ctx, applied, "public")
	require.NoError(t, err)
	toolViewThere(applied)
}

// A collation change of a column flight_report reads (in neither its
// definition nor its column types visible) still drops and re-creates it,
// and a tool's view on it blocks that upgrade with the way out.
func TestApplyRecreatesFlightReportWhenAColumnItReadsChanges(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openDB(t, testdb.Postgres(t))
	_, err := db.ExecContext(ctx, "CREATE SCHEMA reports; CREATE VIEW reports.daily AS SELECT flid, gate_1 FROM public.flight_report")
	require.NoError(t, err)

	src := fstest.MapFS{}
	files, err := schema.SchemaFiles()
	require.NoError(t, err)
	for _, f := range files {
		src[f.Name()] = &fstest.MapFile{Data: f.Bytes()}
	}
	const flno = "  flno             VARCHAR(1000)  NULL,"
	text := string(src["020_flight.sql"].Data)
	require.Contains(t, text, flno)
	src["020_flight.sql"] = &fstest.MapFile{Data: []byte(strings.Replace(text, flno, `  flno             VARCHAR(1000)  COLLATE "C" NULL,`, 1))}

	_, err = schema.ApplyFrom(ctx, db, "public", src)
	require.ErrorContains(t, err, "view reports.daily depends on view flight_report")
	require.ErrorContains(t, err, "nothing was changed")

	_, err = db.ExecContext(ctx, "DROP VIEW reports.daily")
	require.NoError(t, err)
	plan, err := schema.ApplyFrom(ctx, db, "public", src)
	require.NoError(t, err)
	require.Equal(t, `DROP VIEW "public"."flight_report"`, plan[0])
	require.Contains(t, plan, `ALTER TABLE "public"."flight_schd" ALTER COLUMN "flno" TYPE character varying(1000) COLLATE "C"`)
}
