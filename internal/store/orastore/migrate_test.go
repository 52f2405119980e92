package orastore

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestMigrations: the migrations build the schema; on a schema without the
// version table every migration is pending; apply creates the table, runs
// each statement without its `;` and records each version.
func TestMigrations(t *testing.T) {
	all, err := Migrations()
	if err != nil || len(all) == 0 || all[0].Version != "0001_baseline" {
		t.Fatalf("migrations %v, %v", len(all), err)
	}
	// The migrations together are the schema's statements (a later
	// migration adds objects of files the baseline already had). A table is
	// compared by name: a later migration adds columns with ALTER TABLE, and
	// tools/oraclecheck checks that the columns after the migrations are the
	// schema's. An UPDATE, INSERT or DELETE is an upgrade's data, not
	// schema; a later COMMENT ON an object replaces the earlier one.
	schema, _ := SchemaStatements()
	var stmts []string
	commentAt := map[string]int{} // COMMENT ON <object> -> index in stmts
	for _, m := range all {
		for _, st := range m.Statements {
			if strings.HasPrefix(st, "ALTER TABLE ") || strings.HasPrefix(st, "UPDATE ") ||
				strings.HasPrefix(st, "INSERT ") || strings.HasPrefix(st, "DELETE ") {
				continue
			}
			if object, _, ok := strings.Cut(st, " IS "); ok && strings.HasPrefix(st, "COMMENT ON ") {
				if i, seen := commentAt[object]; seen {
					stmts[i] = st
					continue
				}
				commentAt[object] = len(stmts)
			}
			stmts = append(stmts, tableName(st))
		}
	}
	for i, st := range schema {
		schema[i] = tableName(st)
	}
	slices.Sort(stmts)
	slices.Sort(schema)
	if !slices.Equal(stmts, schema) {
		t.Errorf("the migrations are not the schema (%d vs %d statements)", len(stmts), len(schema))
	}
	now := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	f, s := newFake(t, answer{}, answer{err: &oraError{942, "table or view does not exist"}})
	applied, err := ApplyMigrations(ctx, s.db, now)
	if err != nil || len(applied) != len(all) {
		t.Fatalf("applied %d, %v", len(applied), err)
	}
	n := len(f.calls)
	if last := f.calls[n-1]; last.SQL != mustQuery("SchemaVersionAdd").SQL || last.Args["version"] != all[len(all)-1].Version {
		t.Errorf("last call %q %v", last.SQL, last.Args)
	}
	if f.calls[2].SQL != all[0].Statements[0] {
		t.Errorf("first DDL %q", f.calls[2].SQL)
	}
}

// tableName is a CREATE TABLE statement cut to its name; other statements as they are.
func tableName(st string) string {
	if name, _, ok := strings.Cut(st, " ("); ok && strings.HasPrefix(st, "CREATE TABLE ") {
		return name
	}
	return st
}
