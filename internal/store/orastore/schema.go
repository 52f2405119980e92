package orastore

import (
	"context"
	"fmt"
	"io/fs"
	"strings"

	sqlfiles "github.com/msgx-aodb/msgx/sql"
)

// SchemaStatements splits the embedded sql/oracle11g/schema files, in file
// order, into the statements a driver sends: split at a `;` that ends a line
// outside a quoted string, the `;` dropped (OCI rejects it, ORA-00911).
// sql/oracle11g/README.md ("Applying") describes the same rule for DBAs.
func SchemaStatements() ([]string, error) {
	files, err := fs.Glob(sqlfiles.OracleSchema, "oracle11g/schema/*.sql")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range files {
		data, err := fs.ReadFile(sqlfiles.OracleSchema, f)
		if err != nil {
			return nil, err
		}
		out = append(out, splitScript(string(data))...)
	}
	return out, nil
}

func splitScript(script string) []string {
	var out []string
	var buf []string
	inQuote := false
	for _, line := range strings.Split(script, "\n") {
		trimmed := strings.TrimSpace(line)
		if len(buf) == 0 && (trimmed == "" || strings.HasPrefix(trimmed, "--")) {
			continue
		}
		buf = append(buf, line)
		end := -1
		for j := 0; j < len(line); j++ {
			c := line[j]
			if inQuote {
				if c == '\'' {
					inQuote = false
				}
				continue
			}
			if c == '\'' {
				inQuote = true
			} else if c == '-' && j+1 < len(line) && line[j+1] == '-' {
				break
			} else if c == ';' {
				end = j
			} else if c != ' ' && c != '\t' {
				end = -1
			}
		}
		if !inQuote && end >= 0 {
			stmt := strings.Join(buf, "\n")
			stmt = strings.TrimSpace(stmt[:len(stmt)-len(line)+end])
			out = append(out, stmt)
			buf = nil
		}
	}
	return out
}

// ApplySchema creates msgx's objects in an empty schema (tests; DBAs apply
// the files with SQL*Plus, docs/schema.md).
func ApplySchema(ctx context.Context, ex Execer) error {
	stmts, err := SchemaStatements()
	if err != nil {
		return err
	}
	for _, s := range stmts {
		if _, err := ex.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("%s: %w", firstLine(s), interpret(ctx, err))
		}
	}
	return nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// ResetTestSchema drops every table and sequence of the connected schema
// and creates msgx's: the tests' fresh database on MSGX_TEST_ORACLE_DSN,
// which must name a dedicated schema (never a site's).
func ResetTestSchema(ctx context.Context, s *Store) error {
	if _, err := s.exec(ctx, "TestSchemaReset", nil); err != nil {
		return err
	}
	return ApplySchema(ctx, s.db)
}
