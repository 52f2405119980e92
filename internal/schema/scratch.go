package schema

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/postgres"
	atlas "ariga.io/atlas/sql/schema"

	"github.com/jackc/pgx/v5"
	"github.com/msgx-aodb/msgx/db/pgadmin"
)

// scratch is a throw-away schema inside a transaction whose search_path
// points at it, so unqualified DDL (schema files, migration files) lands there
// and atlas renders expressions relative to it, exactly as it does for the
// target schema in withSearchPath. The transaction is never committed: rolling
// it back removes the schema, even on error or if the process dies, and the
// DDL costs one transaction rather than one commit per statement.
type scratch struct {
	tx   *sql.Tx
	drv  migrate.Driver
	name string
}

// inScratch runs fn in a new scratch schema and returns atlas's inspection of
// the schema afterwards.
func inScratch(ctx context.Context, db *sql.DB, fn func(*scratch) error) (*atlas.Schema, error) {
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		return nil, err
	}
	sc := &scratch{name: "msgx_dev_" + hex.EncodeToString(b)}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("scratch schema: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // the rollback is the cleanup
	sc.tx = tx
	if _, err := tx.ExecContext(ctx, "CREATE SCHEMA "+quoteIdent(sc.name)); err != nil {
		return nil, fmt.Errorf("create scratch schema: %w", err)
	}
	if err := setSearchPath(ctx, tx, sc.name); err != nil {
		return nil, err
	}
	if sc.drv, err = openDriver(tx); err != nil {
		return nil, err
	}
	if err := fn(sc); err != nil {
		return nil, err
	}
	sch, err := sc.drv.InspectSchema(ctx, sc.name, nil)
	if err != nil {
		return nil, fmt.Errorf("inspect scratch schema: %w", err)
	}
	return sch, nil
}

// execFile runs the statements of one SQL file in the scratch schema.
func (s *scratch) execFile(ctx context.Context, f migrate.File) error {
	return execFile(ctx, s.tx, s.drv, f)
}

// withSearchPath runs fn in a read-only transaction whose search_path is only
// target, so atlas renders the target's expressions without a schema prefix,
// the same way it renders the scratch schema's.
func withSearchPath(ctx context.Context, db *sql.DB, target string, fn func(*sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // read-only
	if err := setSearchPath(ctx, tx, target); err != nil {
		return err
	}
	return fn(tx)
}

// setSearchPath sets search_path for the rest of the transaction only.
func setSearchPath(ctx context.Context, tx *sql.Tx, schemaName string) error {
	if err := pgadmin.New().SetLocalSearchPath(ctx, tx, quoteIdent(schemaName)); err != nil {
		return fmt.Errorf("set search_path: %w", err)
	}
	return nil
}

func openDriver(q atlas.ExecQuerier) (migrate.Driver, error) {
	drv, err := postgres.Open(q)
	if err != nil {
		return nil, fmt.Errorf("atlas: %w", err)
	}
	return drv, nil
}

// planChanges diffs current → desired and lets atlas plan the DDL. The
// schemas' names and attributes (comment) are not msgx's business: desired
// takes current's, so the diff covers tables only. nil means no changes.
func planChanges(ctx context.Context, drv migrate.Driver, current, desired *atlas.Schema, name string, opts ...migrate.PlanOption) (*migrate.Plan, error) {
	plan, _, err := planTableChanges(ctx, drv, current, desired, name, opts...)
	return plan, err
}

// planTableChanges is planChanges that also returns the changes planned, for
// breaksViews.
func planTableChanges(ctx context.Context, drv migrate.Driver, current, desired *atlas.Schema, name string, opts ...migrate.PlanOption) (*migrate.Plan, []atlas.Change, error) {
	desired.Name, desired.Attrs = current.Name, current.Attrs
	// Normalized: both sides are deparsed by the same server (desired is a
	// fixed point of atlas's own DDL, see desiredFrom), so atlas may compare
	// expressions too; otherwise it matches CHECKs by name only and never
	// sees a changed CHECK expression.
	changes, err := drv.SchemaDiff(current, desired, atlas.DiffNormalized())
	if err != nil {
		return nil, nil, fmt.Errorf("atlas diff: %w", err)
	}
	changes = withCollationChanges(current, desired, changes)
	if len(changes) == 0 {
		return nil, nil, nil
	}
	plan, err := drv.PlanChanges(ctx, name, changes, opts...)
	if err != nil {
		return nil, nil, fmt.Errorf("atlas plan: %w", err)
	}
	return plan, changes, nil
}

// unqualified plans statements without a schema prefix; they apply to the
// connection's search_path (as atlas migrate diff writes them for a
// schema-scoped dev database).
func unqualified(o *migrate.PlanOptions) {
	none := ""
	o.SchemaQualifier = &none
}

// planStatements is planTableChanges for direct execution: statements
// qualified with the target schema, one line each.
func planStatements(ctx context.Context, drv migrate.Driver, current, desired *atlas.Schema, target string) ([]string, []atlas.Change, error) {
	plan, changes, err := planTableChanges(ctx, drv, current, desired, "", func(o *migrate.PlanOptions) {
		o.SchemaQualifier = &target
		o.Mode = migrate.PlanModeInPlace
	})
	if err != nil || plan == nil {
		return nil, nil, err
	}
	stmts := make([]string, 0, len(plan.Changes))
	for _, c := range plan.Changes {
		if len(c.Args) > 0 { // the PostgreSQL planner inlines everything
			return nil, nil, fmt.Errorf("atlas plan: statement with arguments: %s", abbrev(c.Cmd))
		}
		stmts = append(stmts, c.Cmd)
	}
	return stmts, changes, nil
}

// sqlFiles returns the *.sql files at the root of src in file-name order.
func sqlFiles(src fs.FS) ([]migrate.File, error) {
	names, err := fs.Glob(src, "*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	files := make([]migrate.File, 0, len(names))
	for _, n := range names {
		b, err := fs.ReadFile(src, n)
		if err != nil {
			return nil, err
		}
		files = append(files, migrate.NewLocalFile(n, b))
	}
	return files, nil
}

// execFile runs the statements of one SQL file on c, split by atlas's
// PostgreSQL lexer (which knows dollar quotes and atlas directives). Errors
// name the file and line of the failing statement.
func execFile(ctx context.Context, tx *sql.Tx, drv migrate.Driver, f migrate.File) error {
	stmts, err := migrate.FileStmtDecls(drv, f)
	if err != nil {
		return fmt.Errorf("%s: %w", f.Name(), err)
	}
	for _, st := range stmts {
		if _, err := tx.ExecContext(ctx, st.Text); err != nil {
			line := 1 + strings.Count(string(f.Bytes()[:st.Pos]), "\n")
			return fmt.Errorf("%s:%d: %w", f.Name(), line, err)
		}
	}
	return nil
}

func quoteIdent(s string) string { return pgx.Identifier{s}.Sanitize() }
