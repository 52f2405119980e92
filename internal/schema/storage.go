package schema

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	atlas "ariga.io/atlas/sql/schema"

	"github.com/msgx-aodb/msgx/db/pgadmin"
)

// Table storage parameters (CREATE TABLE ... WITH (fillfactor = 70, ...)) are
// invisible to atlas's open-source PostgreSQL driver: it inspects and diffs
// those of indexes only, and its CREATE TABLE has no WITH clause. So msgx
// keeps them itself, like the views: the desired parameters are what the
// server made of the schema files (pg_class.reloptions of the scratch
// schema), compared with a database's, and brought there with
// ALTER TABLE ... SET (...) / RESET (...) after atlas's table changes (which
// may have just created the table).

// storageParams maps a table to its parameters (name → value as stored).
type storageParams map[string]map[string]string

// tableStorageParams reads the storage parameters of the tables of schemaName.
func tableStorageParams(ctx context.Context, db pgadmin.DBTX, schemaName string) (storageParams, error) {
	rows, err := pgadmin.New().TableStorageParams(ctx, db, schemaName)
	if err != nil {
		return nil, fmt.Errorf("list table storage parameters of %q: %w", schemaName, err)
	}
	params := storageParams{}
	for _, r := range rows {
		if params[r.TableName] == nil {
			params[r.TableName] = map[string]string{}
		}
		params[r.TableName][r.Name] = r.Value
	}
	return params, nil
}

// plainValue is a parameter value that needs no quotes (numbers, on/off,
// true/false); anything else is written as a string literal.
var plainValue = regexp.MustCompile(`^[A-Za-z0-9_.+-]+$`)

// storageChanges returns the statements that give the tables of desired
// (after atlas's changes) the desired parameters: SET what differs, RESET
// what the files no longer set. Tables that are not desired (atlas drops
// them) are left alone. qualifier prefixes the table names ("" for none).
func storageChanges(current, want storageParams, desired *atlas.Schema, qualifier string) []string {
	var stmts []string
	for _, t := range desired.Tables {
		have, wanted := current[t.Name], want[t.Name]
		var set, reset []string
		for _, k := range slices.Sorted(maps.Keys(wanted)) {
			if v, ok := have[k]; !ok || v != wanted[k] {
				v := wanted[k]
				if !plainValue.MatchString(v) {
					v = "'" + strings.ReplaceAll(v, "'", "''") + "'"
				}
				set = append(set, k+" = "+v)
			}
		}
		for _, k := range slices.Sorted(maps.Keys(have)) {
			if _, ok := wanted[k]; !ok {
				reset = append(reset, k)
			}
		}
		if len(set)+len(reset) == 0 {
			continue
		}
		name := quoteIdent(t.Name)
		if qualifier != "" {
			name = quoteIdent(qualifier) + "." + name
		}
		if len(reset) > 0 {
			stmts = append(stmts, "ALTER TABLE "+name+" RESET ("+strings.Join(reset, ", ")+")")
		}
		if len(set) > 0 {
			stmts = append(stmts, "ALTER TABLE "+name+" SET ("+strings.Join(set, ", ")+")")
		}
	}
	return stmts
}
