package schema

import (
	"context"
	"database/sql"
	"io/fs"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/postgres"
)

// Test hooks: the same code paths as the exported API, but with a desired
// schema from any directory instead of the embedded one.

// GenerateMigrationFrom is GenerateMigration with the desired schema read from src.
func GenerateMigrationFrom(ctx context.Context, db *sql.DB, dir migrate.Dir, name string, src fs.FS) (string, error) {
	desired, views, err := desiredWithExtras(ctx, db, src)
	if err != nil {
		return "", err
	}
	return generateMigration(ctx, db, dir, name, desired, views)
}

// DesiredFrom is Desired with the desired schema read from src.
var DesiredFrom = desiredFrom

// ExecFiles runs files, in order, with search_path set to target: what a
// DBA's `atlas migrate apply` does to the migration files.
func ExecFiles(ctx context.Context, db *sql.DB, target string, files []migrate.File) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := setSearchPath(ctx, tx, target); err != nil {
		return err
	}
	drv, err := openDriver(tx)
	if err != nil {
		return err
	}
	for _, f := range files {
		if err := execFile(ctx, tx, drv, f); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// SchemaFiles returns the embedded desired-schema files.
func SchemaFiles() ([]migrate.File, error) {
	return sqlFiles(Embedded())
}

// ExecPlan runs planned statements in one transaction, as Apply does.
func ExecPlan(ctx context.Context, db *sql.DB, stmts []string) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, s := range stmts {
		if _, err := tx.ExecContext(ctx, s); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// ViewStatements is viewStatements with a PostgreSQL driver that needs no
// connection (statement splitting only).
func ViewStatements(files []migrate.File) ([]string, error) {
	stmts, err := viewStatements(&postgres.Driver{}, files)
	texts := make([]string, len(stmts))
	for i, st := range stmts {
		texts[i] = st.text
	}
	return texts, err
}
