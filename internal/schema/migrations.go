package schema

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"regexp"
	"time"

	"ariga.io/atlas/sql/migrate"
	atlas "ariga.io/atlas/sql/schema"

	"github.com/msgx-aodb/msgx/db/pgadmin"
	sqlfiles "github.com/msgx-aodb/msgx/sql"
)

// validName keeps migration file names portable and atlas-parsable
// (<version>_<name>.sql).
var validName = regexp.MustCompile(`^[a-z0-9][a-z0-9_]*$`)

// GenerateMigration writes a new atlas-format versioned migration into the
// directory dirPath, named <UTC timestamp>_<name>.sql, holding the statements
// that bring the state of the existing migrations to the desired schema, and
// rewrites atlas.sum. The existing migrations are replayed into a scratch
// schema on db's server to learn their state. It returns the new file's name,
// or "" when the migrations already match the desired schema.
func GenerateMigration(ctx context.Context, db *sql.DB, dirPath, name string) (string, error) {
	dir, err := migrate.NewLocalDir(dirPath)
	if err != nil {
		return "", err
	}
	src, err := fs.Sub(sqlfiles.PostgresSchema, "postgres/schema")
	if err != nil {
		return "", err
	}
	desired, views, err := desiredWithExtras(ctx, db, src)
	if err != nil {
		return "", err
	}
	return generateMigration(ctx, db, dir, name, desired, views)
}

func generateMigration(ctx context.Context, db *sql.DB, dir migrate.Dir, name string, desired *atlas.Schema, views *extras) (string, error) {
	if !validName.MatchString(name) {
		return "", fmt.Errorf("invalid migration name %q: use lower-case letters, digits and _", name)
	}
	// Like the atlas CLI: never build on a directory whose sum is off.
	if err := migrate.Validate(dir); err != nil {
		return "", fmt.Errorf("migration directory does not match its atlas.sum (%w); restore the edited files", err)
	}
	files, err := dir.Files()
	if err != nil {
		return "", err
	}
	var (
		currentViews  []pgadmin.ViewDefinitionsRow
		currentDeps   []pgadmin.ViewDependenciesRow
		currentParams storageParams
	)
	current, err := inScratch(ctx, db, func(sc *scratch) error {
		for _, f := range files {
			if err := sc.execFile(ctx, f); err != nil {
				return fmt.Errorf("replay migrations: %w", err)
			}
		}
		if currentViews, err = viewDefinitions(ctx, sc.tx, sc.name); err != nil {
			return err
		}
		if currentDeps, err = viewDependencies(ctx, sc.tx, sc.name); err != nil {
			return err
		}
		currentParams, err = tableStorageParams(ctx, sc.tx, sc.name)
		return err
	})
	if err != nil {
		return "", err
	}
	drv, err := openDriver(db)
	if err != nil {
		return "", err
	}
	plan, tableChanges, err := planTableChanges(ctx, drv, current, desired, name, unqualified, func(o *migrate.PlanOptions) { o.Indent = "  " })
	if err != nil {
		return "", err
	}
	// Views, which atlas does not plan: replaced in place, or dropped before
	// the table changes and created after them (views.go).
	drop, create := viewChanges(currentViews, views, breaksViews(tableChanges, currentDeps), currentDeps, "")
	params := storageChanges(currentParams, views.params, desired, "")
	if plan == nil && len(drop)+len(create)+len(params) == 0 {
		return "", nil
	}
	if plan == nil {
		plan = &migrate.Plan{Name: name}
	}
	var changes []*migrate.Change
	for _, d := range drop {
		changes = append(changes, &migrate.Change{Cmd: d, Comment: "drop the views before the tables change"})
	}
	changes = append(changes, plan.Changes...)
	for _, p := range params {
		changes = append(changes, &migrate.Change{Cmd: p, Comment: "storage parameters, which atlas does not plan"})
	}
	for _, c := range create {
		changes = append(changes, &migrate.Change{Cmd: c})
	}
	plan.Changes = changes
	plan.Version = nextVersion(files)
	f, err := migrate.DefaultFormatter.FormatFile(plan)
	if err != nil {
		return "", fmt.Errorf("format migration: %w", err)
	}
	if err := dir.WriteFile(f.Name(), f.Bytes()); err != nil {
		return "", fmt.Errorf("write migration: %w", err)
	}
	sum, err := dir.Checksum()
	if err == nil {
		err = migrate.WriteSumFile(dir, sum)
	}
	if err != nil {
		return "", fmt.Errorf("write atlas.sum: %w", err)
	}
	return f.Name(), nil
}

// RehashMigrations rewrites atlas.sum of the directory dirPath after a
// reviewed hand edit of a migration that is not yet released (what
// `atlas migrate hash` does).
func RehashMigrations(dirPath string) error {
	dir, err := migrate.NewLocalDir(dirPath)
	if err != nil {
		return err
	}
	sum, err := dir.Checksum()
	if err != nil {
		return err
	}
	return migrate.WriteSumFile(dir, sum)
}

// nextVersion is the current UTC time as an atlas version, moved past the
// last existing migration should the clock be behind it.
func nextVersion(files []migrate.File) string {
	const layout = "20060102150405"
	// At the version's precision: a later instant in the same second would
	// repeat the last version, and the names would then sort by their text.
	v := time.Now().UTC().Truncate(time.Second)
	if n := len(files); n > 0 {
		if last, err := time.Parse(layout, files[n-1].Version()); err == nil && !v.After(last) {
			v = last.Add(time.Second)
		}
	}
	return v.Format(layout)
}

// MigrationDir returns the embedded migration directory
// (sqlfiles.PostgresMigrations) as an atlas in-memory directory, e.g. for
// migrate.Validate or an atlas migrate.Executor.
func MigrationDir() (*migrate.MemDir, error) {
	return memDir(sqlfiles.PostgresMigrations, "postgres/migrations")
}

// memDir copies the files of directory root in fsys into a MemDir.
func memDir(fsys fs.FS, root string) (*migrate.MemDir, error) {
	entries, err := fs.ReadDir(fsys, root)
	if err != nil {
		return nil, fmt.Errorf("read migrations: %w", err)
	}
	dir := &migrate.MemDir{}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		b, err := fs.ReadFile(fsys, root+"/"+e.Name())
		if err != nil {
			return nil, fmt.Errorf("read migrations: %w", err)
		}
		if err := dir.WriteFile(e.Name(), b); err != nil {
			return nil, err
		}
	}
	return dir, nil
}
