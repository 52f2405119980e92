package orastore

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"time"

	sqlfiles "github.com/msgx-aodb/msgx/sql"
)

// Migration is one versioned file of sql/oracle11g/migrations.
type Migration struct {
	Version    string // the file name without .sql, e.g. 0001_baseline
	Statements []string
}

// Migrations lists the embedded migrations in version order.
func Migrations() ([]Migration, error) {
	files, err := fs.Glob(sqlfiles.OracleMigrations, "oracle11g/migrations/*.sql")
	if err != nil {
		return nil, err
	}
	out := make([]Migration, 0, len(files))
	for _, f := range files {
		data, err := fs.ReadFile(sqlfiles.OracleMigrations, f)
		if err != nil {
			return nil, err
		}
		out = append(out, Migration{Version: strings.TrimSuffix(path.Base(f), ".sql"), Statements: splitScript(string(data))})
	}
	return out, nil
}

// PendingMigrations are the migrations MSGX_SCHEMA_VERSION does not record
// (all of them before the table exists: ORA-00942).
func PendingMigrations(ctx context.Context, ex Execer) ([]Migration, error) {
	all, err := Migrations()
	if err != nil {
		return nil, err
	}
	applied := map[string]bool{}
	err = executor{ex: ex}.query(ctx, "SchemaVersionList", nil, func(r *sql.Rows) error {
		var v string
		err := r.Scan(&v)
		applied[v] = true
		return err
	})
	if err != nil && !isNoTable(err) {
		return nil, err
	}
	var pending []Migration
	for _, m := range all {
		if !applied[m.Version] {
			pending = append(pending, m)
		}
	}
	return pending, nil
}

// ApplyMigrations runs the pending migrations in order, each recorded once
// its statements ran. Oracle DDL commits itself: a failure leaves the
// statements before it applied and the version unrecorded (docs/schema.md).
func ApplyMigrations(ctx context.Context, ex Execer, now time.Time) ([]Migration, error) {
	e := executor{ex: ex}
	if _, err := e.exec(ctx, "SchemaVersionCreate", nil); err != nil {
		return nil, err
	}
	pending, err := PendingMigrations(ctx, ex)
	if err != nil {
		return nil, err
	}
	for _, m := range pending {
		for _, s := range m.Statements {
			if _, err := ex.ExecContext(ctx, s); err != nil {
				return nil, fmt.Errorf("migration %s: %s: %w", m.Version, firstLine(s), interpret(ctx, err))
			}
		}
		if _, err := e.exec(ctx, "SchemaVersionAdd", map[string]any{"version": m.Version, "now": instant(now)}); err != nil {
			return nil, err
		}
	}
	return pending, nil
}
