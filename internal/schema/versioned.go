package schema

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"ariga.io/atlas/sql/migrate"

	"github.com/msgx-aodb/msgx/db/pgadmin"
	sqlfiles "github.com/msgx-aodb/msgx/sql"
)

// The versioned route (docs/upgrade.md): the embedded migrations of
// sql/postgres/migrations, each run in its own transaction and recorded in
// msgx_schema_version (sql/postgres/bookkeeping), the twin of Oracle's
// MSGX_SCHEMA_VERSION.

// VersionTable is msgx's record of the applied migrations. Plan and Apply
// never drop it: it is msgx's, though not part of the desired schema.
const VersionTable = "msgx_schema_version"

// migrateLockKey serialises concurrent `msgx schema migrate` runs on one
// database (an advisory lock; any constant msgx uses nowhere else).
const migrateLockKey = 0x6d736778_6d696772 // "msgxmigr"

// Migration is one file of the migration directory and whether the database
// has it.
type Migration struct {
	Version string // the file's version, e.g. 20261202155912
	Name    string // the file name, e.g. 20261202155912_baseline.sql
	SHA256  string // of the file as shipped
	// Applied is when it was recorded; zero while pending.
	Applied time.Time
	// Baseline: recorded by --baseline, never executed by msgx.
	Baseline bool
	// Changed: the database recorded another SHA-256 for this version, so
	// the shipped file is not what was applied (a released migration was
	// edited): migrate refuses to run.
	Changed bool
}

// Pending reports whether the migration is still to run.
func (m Migration) Pending() bool { return m.Applied.IsZero() }

// ErrNeedsBaseline: the schema holds tables but no version record, i.e. it
// was set up with `msgx schema apply`; migrate cannot know which migrations
// its tables already reflect.
var ErrNeedsBaseline = errors.New("the schema has tables but no " + VersionTable +
	" (set up with `msgx schema apply`?): record the version it is at with --baseline VERSION, " +
	"the last migration of the release that applied it (docs/upgrade.md, \"A site set up with schema apply\")")

// migrationFiles are the embedded migrations, checked against atlas.sum.
func migrationFiles() ([]migrate.File, error) {
	dir, err := MigrationDir()
	if err != nil {
		return nil, err
	}
	if err := migrate.Validate(dir); err != nil {
		return nil, fmt.Errorf("embedded migrations do not match atlas.sum: %w", err)
	}
	return dir.Files()
}

func fileSHA(f migrate.File) string {
	sum := sha256.Sum256(f.Bytes())
	return hex.EncodeToString(sum[:])
}

// MigrationStatus lists every embedded migration with what the schema target
// (DefaultSchema when empty) of db recorded for it. Versions the database
// recorded that this binary does not ship (a newer release ran) are
// returned as Migrations with an empty SHA256 and a non-zero Applied.
func MigrationStatus(ctx context.Context, db *sql.DB, target string) ([]Migration, error) {
	if target == "" {
		target = DefaultSchema
	}
	var out []Migration
	err := withSearchPath(ctx, db, target, func(tx *sql.Tx) error {
		files, err := migrationFiles()
		if err != nil {
			return err
		}
		recorded, err := recordedVersions(ctx, tx, target)
		if err != nil {
			return err
		}
		out = merge(files, recorded)
		return nil
	})
	return out, err
}

func recordedVersions(ctx context.Context, tx *sql.Tx, target string) (map[string]pgadmin.MsgxSchemaVersion, error) {
	q := pgadmin.New()
	exists, err := q.SchemaVersionTableExists(ctx, tx, target)
	if err != nil || !exists {
		return nil, err
	}
	rows, err := q.SchemaVersionList(ctx, tx)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", VersionTable, err)
	}
	m := make(map[string]pgadmin.MsgxSchemaVersion, len(rows))
	for _, r := range rows {
		m[r.Version] = r
	}
	return m, nil
}

func merge(files []migrate.File, recorded map[string]pgadmin.MsgxSchemaVersion) []Migration {
	out := make([]Migration, 0, len(files))
	shipped := map[string]bool{}
	for _, f := range files {
		m := Migration{Version: f.Version(), Name: f.Name(), SHA256: fileSHA(f)}
		shipped[m.Version] = true
		if r, ok := recorded[m.Version]; ok {
			m.Applied, m.Baseline, m.Changed = r.AppliedAt, r.Baseline, r.Sha256 != m.SHA256 && !r.Baseline
		}
		out = append(out, m)
	}
	for v, r := range recorded {
		if !shipped[v] {
			out = append(out, Migration{Version: v, Name: r.Name, Applied: r.AppliedAt, Baseline: r.Baseline})
		}
	}
	slices.SortFunc(out, func(a, b Migration) int { return strings.Compare(a.Version, b.Version) })
	return out
}

// Migrate runs the pending embedded migrations up to and including version
// to (all when empty) on the schema target of db, each in its own
// transaction together with its record in msgx_schema_version, and returns
// those it ran. A failed migration changes nothing (PostgreSQL DDL is
// transactional); those before it stay applied. It refuses to run when a
// recorded migration differs from the shipped file, when the database
// recorded a migration this binary does not ship (it is older than the
// schema), and, on a schema with tables but no record, with
// ErrNeedsBaseline.
func Migrate(ctx context.Context, db *sql.DB, target, to string, now time.Time) ([]Migration, error) {
	return runMigrations(ctx, db, target, to, now, false)
}

// Baseline records the embedded migrations up to and including version as
// applied without running them: for a schema that `msgx schema apply`
// brought to that version. It returns what it recorded.
func Baseline(ctx context.Context, db *sql.DB, target, version string, now time.Time) ([]Migration, error) {
	if version == "" {
		return nil, errors.New("baseline: no version")
	}
	return runMigrations(ctx, db, target, version, now, true)
}

func runMigrations(ctx context.Context, db *sql.DB, target, to string, now time.Time, baseline bool) ([]Migration, error) {
	if target == "" {
		target = DefaultSchema
	}
	files, err := migrationFiles()
	if err != nil {
		return nil, err
	}
	if to != "" && !hasVersion(files, to) {
		return nil, fmt.Errorf("no migration has version %q (see `msgx schema status`)", to)
	}
	var done []Migration
	for _, f := range files {
		if to != "" && f.Version() > to {
			break
		}
		ran, err := migrateOne(ctx, db, target, files, f, now, baseline)
		if err != nil {
			return done, err
		}
		if ran != nil {
			done = append(done, *ran)
		}
	}
	return done, nil
}

func hasVersion(files []migrate.File, v string) bool {
	for _, f := range files {
		if f.Version() == v {
			return true
		}
	}
	return false
}

// migrateOne runs (or, baseline, records) f unless the database has it, in
// one transaction under the migrate lock, re-reading the record there so two
// concurrent runs never both run a file.
func migrateOne(ctx context.Context, db *sql.DB, target string, files []migrate.File, f migrate.File, now time.Time, baseline bool) (*Migration, error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("migrate: begin: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // no-op after Commit
	q := pgadmin.New()
	if err := q.AdvisoryXactLock(ctx, tx, migrateLockKey); err != nil {
		return nil, fmt.Errorf("migrate: lock: %w", err)
	}
	if err := setSearchPath(ctx, tx, target); err != nil {
		return nil, err
	}
	recorded, err := recordedVersions(ctx, tx, target)
	if err != nil {
		return nil, err
	}
	if len(recorded) == 0 && !baseline {
		hasTables, err := q.SchemaHasTables(ctx, tx, target)
		if err != nil {
			return nil, err
		}
		if hasTables {
			return nil, ErrNeedsBaseline
		}
	}
	for _, m := range merge(files, recorded) {
		switch {
		case m.SHA256 == "":
			return nil, fmt.Errorf("the database has migration %s, which this msgx does not ship: it is older than the schema (roll the schema back first, or run the newer msgx)", m.Name)
		case m.Changed:
			return nil, fmt.Errorf("migration %s differs from the one the database applied: a released migration was edited", m.Name)
		}
	}
	if _, ok := recorded[f.Version()]; ok {
		return nil, nil
	}
	if _, err := tx.ExecContext(ctx, string(sqlfiles.PostgresBookkeeping)); err != nil {
		return nil, fmt.Errorf("create %s: %w", VersionTable, err)
	}
	if !baseline {
		drv, err := openDriver(tx)
		if err != nil {
			return nil, err
		}
		if err := execFile(ctx, tx, drv, f); err != nil {
			return nil, fmt.Errorf("migrate: %w; nothing of it was applied (one transaction)", err)
		}
	}
	m := Migration{Version: f.Version(), Name: f.Name(), SHA256: fileSHA(f), Applied: now, Baseline: baseline}
	if err := q.SchemaVersionAdd(ctx, tx, pgadmin.SchemaVersionAddParams{
		Version: m.Version, Name: m.Name, Sha256: m.SHA256, Baseline: baseline, AppliedAt: now,
	}); err != nil {
		return nil, fmt.Errorf("record %s: %w", m.Name, err)
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("migrate: commit %s: %w", m.Name, err)
	}
	return &m, nil
}
