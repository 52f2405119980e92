// Package schema keeps msgx's own PostgreSQL schema at its desired state.
//
// The desired state is the plain SQL in sql/postgres/schema (embedded as
// sqlfiles.PostgresSchema). Atlas (the Go library; the CLI is not needed) turns
// the difference between a live schema and that desired state into DDL:
//
//   - Desired realises the SQL files in a throw-away scratch schema on the
//     same server (inside a transaction that is rolled back) and inspects it. This replaces atlas's "dev database": the
//     server itself normalises types, defaults and expressions, so both sides of
//     a diff are compared in the same canonical form.
//   - Plan / Apply bring a live schema (declaratively) to that state: the
//     development and test route.
//   - GenerateMigration writes atlas-format versioned migrations from it;
//     Migrate / MigrationStatus (versioned.go) run and report them: the
//     production route (docs/upgrade.md).
package schema

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"slices"
	"strings"
	"time"

	"ariga.io/atlas/sql/migrate"
	atlas "ariga.io/atlas/sql/schema"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/msgx-aodb/msgx/db/pgadmin"
	"github.com/msgx-aodb/msgx/internal/oneline"
	sqlfiles "github.com/msgx-aodb/msgx/sql"
)

// DefaultSchema is the PostgreSQL schema msgx's tables live in.
const DefaultSchema = "public"

// connectTimeout bounds connecting to an unreachable or black-holed server.
const connectTimeout = 10 * time.Second

// Open connects to the PostgreSQL server at rawURL (postgres:// or
// postgresql://) through pgx's database/sql driver, which atlas needs, and
// checks that it answers. Errors are one line and never contain the password.
func Open(ctx context.Context, rawURL string) (*sql.DB, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // url.Error repeats the URL, password included
		}
		return nil, fmt.Errorf("invalid database URL: %v", err)
	}
	if u.Scheme != "postgres" && u.Scheme != "postgresql" {
		return nil, fmt.Errorf("invalid database URL: scheme %q is not postgres:// or postgresql://", u.Scheme)
	}
	shown := u.Redacted()
	q := u.Query()
	if q.Get("connect_timeout") == "" {
		q.Set("connect_timeout", fmt.Sprint(int(connectTimeout.Seconds())))
		u.RawQuery = q.Encode()
	}
	cfg, err := pgx.ParseConfig(u.String())
	if err != nil {
		return nil, fmt.Errorf("invalid database URL: %w", err) // pgx redacts the password
	}
	db := stdlib.OpenDB(*cfg)
	pingCtx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	if err := db.PingContext(pingCtx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect to PostgreSQL at %s: %s", shown, oneline.Err(err))
	}
	return db, nil
}

// Desired realises the embedded desired schema (sqlfiles.PostgresSchema) in a
// scratch schema on db's server and returns atlas's inspection of it. The
// scratch schema only ever exists inside a transaction that is rolled back,
// so nothing is left behind; the returned schema keeps its (random) name,
// which Plan and GenerateMigration replace.
func Desired(ctx context.Context, db *sql.DB) (*atlas.Schema, error) {
	return desiredFrom(ctx, db, Embedded())
}

// Embedded is the desired schema built into the binary (the *.sql files of
// sql/postgres/schema when it was compiled).
func Embedded() fs.FS {
	src, err := fs.Sub(sqlfiles.PostgresSchema, "postgres/schema")
	if err != nil {
		panic(err) // a constant, valid path
	}
	return src
}

// SameFiles reports whether a and b hold the same *.sql files, byte for byte:
// `msgx schema` warns when the files it plans with are not the ones built in.
func SameFiles(a, b fs.FS) (bool, error) {
	fa, err := sqlFiles(a)
	if err != nil {
		return false, err
	}
	fb, err := sqlFiles(b)
	if err != nil {
		return false, err
	}
	return slices.EqualFunc(fa, fb, func(x, y migrate.File) bool {
		return x.Name() == y.Name() && bytes.Equal(x.Bytes(), y.Bytes())
	}), nil
}

// desiredFrom is Desired for the *.sql files of any directory (tests use
// throw-away schemas).
//
// The files are realised twice: as written, then re-created from atlas's own
// DDL for that first state, and the second state is returned. PostgreSQL does
// not always parse its own deparsed expressions back to the same text (e.g.
// `status IN ('A', 'B')` on a varchar column in an index predicate), so
// the state a database reaches through Apply or the migrations, which carry
// atlas's DDL, can differ textually from the files; atlas would then plan to
// rebuild those indexes for ever. The second pass is that fixed point, the
// same normalisation atlas does with a dev database.
func desiredFrom(ctx context.Context, db *sql.DB, src fs.FS) (*atlas.Schema, error) {
	tables, _, err := desiredWithExtras(ctx, db, src)
	return tables, err
}

// desiredWithExtras is desiredFrom plus what atlas does not see: the desired
// views (views.go), their statements and the server's deparse of them, and
// the tables' storage parameters (storage.go). Both are read from the first
// pass, the files as written: atlas's DDL carries neither.
func desiredWithExtras(ctx context.Context, db *sql.DB, src fs.FS) (*atlas.Schema, *extras, error) {
	files, err := sqlFiles(src)
	if err != nil {
		return nil, nil, fmt.Errorf("read desired schema: %w", err)
	}
	views := &extras{}
	written, err := inScratch(ctx, db, func(sc *scratch) error {
		for _, f := range files {
			if err := sc.execFile(ctx, f); err != nil {
				return fmt.Errorf("desired schema: %w", err)
			}
		}
		if views.stmts, err = viewStatements(sc.drv, files); err != nil {
			return err
		}
		if views.defs, err = viewDefinitions(ctx, sc.tx, sc.name); err != nil {
			return err
		}
		views.params, err = tableStorageParams(ctx, sc.tx, sc.name)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	tables, err := inScratch(ctx, db, func(sc *scratch) error {
		empty, err := sc.drv.InspectSchema(ctx, sc.name, nil)
		if err != nil {
			return err
		}
		plan, err := planChanges(ctx, sc.drv, empty, written, "", unqualified)
		if err != nil || plan == nil {
			return err
		}
		for _, c := range plan.Changes {
			if _, err := sc.tx.ExecContext(ctx, c.Cmd, c.Args...); err != nil {
				return fmt.Errorf("normalise desired schema: %s: %w", abbrev(c.Cmd), err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return tables, views, nil
}

// Plan returns the DDL statements that bring the schema target (DefaultSchema
// when empty) of db to the desired state, in execution order and without a
// trailing semicolon. It is empty when the schema is up to date. Tables that
// are not in the desired state are dropped: target belongs to msgx alone.
//
// Views (which atlas does not see) are compared by their definitions,
// columns and comments, and replaced in place where PostgreSQL allows it;
// the views a table change breaks (they read what it touches) and the views
// on those are dropped first and created last (views.go). Table storage
// parameters (which atlas does not see either) are set after the table
// changes (storage.go).
func Plan(ctx context.Context, db *sql.DB, target string) ([]string, error) {
	return PlanFrom(ctx, db, target, Embedded())
}

// PlanFrom is Plan with the desired schema read from the *.sql files of src
// (`msgx schema plan --dir`, a working tree's sql/postgres/schema).
func PlanFrom(ctx context.Context, db *sql.DB, target string, src fs.FS, opts ...Option) ([]string, error) {
	desired, views, err := desiredWithExtras(ctx, db, src)
	if err != nil {
		return nil, err
	}
	return planTo(ctx, db, target, desired, views, opts...)
}

// Option changes what Plan and Apply may do.
type Option func(*options)

type options struct{ keepUnowned bool }

// KeepUnowned leaves the tables and views the desired schema does not define
// (a DBA's own, a reporting tool's) in place instead of dropping them
// (`msgx schema plan|apply --keep-unowned`).
func KeepUnowned() Option { return func(o *options) { o.keepUnowned = true } }

func planTo(ctx context.Context, db *sql.DB, target string, desired *atlas.Schema, views *extras, opts ...Option) ([]string, error) {
	if target == "" {
		target = DefaultSchema
	}
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	var stmts []string
	err := withSearchPath(ctx, db, target, func(tx *sql.Tx) error {
		drv, err := openDriver(tx)
		if err != nil {
			return err
		}
		current, err := drv.InspectSchema(ctx, target, nil)
		if atlas.IsNotExistError(err) {
			return fmt.Errorf("schema %q does not exist (create it first)", target)
		}
		if err != nil {
			return fmt.Errorf("inspect schema %q: %w", target, err)
		}
		current.Tables = slices.DeleteFunc(current.Tables, func(t *atlas.Table) bool {
			_, defined := desired.Table(t.Name)
			return t.Name == VersionTable || (o.keepUnowned && !defined)
		})
		tables, changes, err := planStatements(ctx, drv, current, desired, target)
		if err != nil {
			return err
		}
		currentViews, err := viewDefinitions(ctx, tx, target)
		if err != nil {
			return err
		}
		if o.keepUnowned {
			currentViews = slices.DeleteFunc(currentViews, func(v pgadmin.ViewDefinitionsRow) bool {
				return !views.defines(v.Name)
			})
		}
		deps, err := viewDependencies(ctx, tx, target)
		if err != nil {
			return err
		}
		currentParams, err := tableStorageParams(ctx, tx, target)
		if err != nil {
			return err
		}
		drop, create := viewChanges(currentViews, views, breaksViews(changes, deps), deps, target)
		stmts = append(drop, tables...)
		stmts = append(stmts, storageChanges(currentParams, views.params, desired, target)...)
		if len(create) > 0 {
			// The view statements are unqualified, like the files.
			stmts = append(stmts, "SET LOCAL search_path TO "+quoteIdent(target))
			for _, c := range create {
				stmts = append(stmts, oneLineSQL(c))
			}
		}
		return nil
	})
	return stmts, err
}

// Apply executes Plan in one transaction (PostgreSQL DDL is transactional, so
// a failure leaves the schema untouched) and returns the executed statements.
// Applying an up-to-date schema executes nothing.
func Apply(ctx context.Context, db *sql.DB, target string) ([]string, error) {
	return ApplyFrom(ctx, db, target, Embedded())
}

// ApplyFrom is Apply with the desired schema read from src.
func ApplyFrom(ctx context.Context, db *sql.DB, target string, src fs.FS, opts ...Option) ([]string, error) {
	stmts, err := PlanFrom(ctx, db, target, src, opts...)
	if err != nil || len(stmts) == 0 {
		return nil, err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("apply: begin: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // no-op after Commit
	for i, s := range stmts {
		if _, err := tx.ExecContext(ctx, s); err != nil {
			return nil, applyError(i, len(stmts), s, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("apply: commit: %w", err)
	}
	return stmts, nil
}

// abbrev shortens a statement for an error message.
func abbrev(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

// applyError says which statement failed. When objects that are not msgx's
// block it — a reporting tool's view on msgx's view or tables, which
// PostgreSQL will not drop or change under it — it names them (the server's
// DETAIL) and the way out.
func applyError(i, n int, stmt string, err error) error {
	err = fmt.Errorf("apply statement %d of %d (%s): %w", i+1, n, abbrev(stmt), err)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return err
	}
	// 2BP01 dependent_objects_still_exist; 0A000 "cannot alter type of a
	// column used by a view or rule".
	blocked := pe.Code == "2BP01" || (pe.Code == "0A000" && strings.Contains(pe.Message, "used by a view"))
	if !blocked {
		return err
	}
	must := "re-create msgx's views"
	if pe.Code == "0A000" { // their view reads a table column whose type changes
		must = "change a column those objects read"
	}
	return fmt.Errorf("%w; dependent objects: %s; nothing was changed (one transaction). "+
		"This upgrade must %s: drop those objects, run apply again, then re-create them "+
		"(docs/reporting.md, \"Building on flight_report\")",
		err, strings.Join(strings.Split(strings.TrimSpace(pe.Detail), "\n"), "; "), must)
}
