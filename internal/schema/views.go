package schema

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"ariga.io/atlas/sql/migrate"

	"github.com/msgx-aodb/msgx/db/pgadmin"
)

// Views are invisible to atlas's open-source PostgreSQL driver (it inspects
// tables only), so msgx keeps them itself: the desired views are the view
// statements of the schema files, compared with a database by their
// server-deparsed definitions and comments. When anything differs — or any
// table changes, which a view may depend on — every view of the schema is
// dropped before the table changes and the desired ones are created after.

// viewSet is the desired views: the statements that create and comment them,
// in file order, and what the server made of them.
type viewSet struct {
	stmts []string
	defs  []pgadmin.ViewDefinitionsRow
}

var (
	createView      = regexp.MustCompile(`(?is)^\s*CREATE\s+(OR\s+REPLACE\s+)?VIEW\s+("?)([a-z_][a-z0-9_]*)`)
	commentView     = regexp.MustCompile(`(?is)^\s*COMMENT\s+ON\s+VIEW\s`)
	commentColumnOn = regexp.MustCompile(`(?is)^\s*COMMENT\s+ON\s+COLUMN\s+"?([a-z_][a-z0-9_]*)"?\.`)
)

// viewStatements picks the statements of files that create a view or
// comment on one (or on one of its columns).
func viewStatements(drv migrate.Driver, files []migrate.File) ([]string, error) {
	var out []string
	views := map[string]bool{}
	for _, f := range files {
		stmts, err := migrate.FileStmtDecls(drv, f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name(), err)
		}
		for _, st := range stmts {
			text := strings.TrimSuffix(strings.TrimSpace(st.Text), ";")
			if m := createView.FindStringSubmatch(text); m != nil {
				views[strings.ToLower(m[3])] = true
				out = append(out, text)
			} else if commentView.MatchString(text) {
				out = append(out, text)
			} else if m := commentColumnOn.FindStringSubmatch(text); m != nil && views[strings.ToLower(m[1])] {
				out = append(out, text)
			}
		}
	}
	return out, nil
}

// viewDefinitions lists the views of schemaName as the server sees them.
func viewDefinitions(ctx context.Context, db pgadmin.DBTX, schemaName string) ([]pgadmin.ViewDefinitionsRow, error) {
	defs, err := pgadmin.New().ViewDefinitions(ctx, db, schemaName)
	if err != nil {
		return nil, fmt.Errorf("list views of %q: %w", schemaName, err)
	}
	return defs, nil
}

// viewChanges returns the statements that drop the current views and those
// that create the desired ones, or nothing when they already agree and no
// table changes. qualifier prefixes the dropped names ("" for none).
func viewChanges(current []pgadmin.ViewDefinitionsRow, desired *viewSet, tablesChange bool, qualifier string) (drop, create []string) {
	if !tablesChange && slices.Equal(current, desired.defs) {
		return nil, nil
	}
	if len(current) > 0 {
		names := make([]string, len(current))
		for i, v := range current {
			names[i] = quoteIdent(v.Name)
			if qualifier != "" {
				names[i] = quoteIdent(qualifier) + "." + names[i]
			}
		}
		// One statement: PostgreSQL drops views that depend on each other
		// together; a view of someone else's on top of them makes it fail.
		drop = []string{"DROP VIEW " + strings.Join(names, ", ")}
	}
	return drop, desired.stmts
}

// oneLineSQL puts a view statement on one line, as the plan prints every
// statement: each line trimmed, joined by a space. The view files carry no
// "--" comment inside a statement (TestViewFilesOneLine), which this would
// turn into a comment up to the end of the statement.
func oneLineSQL(stmt string) string {
	lines := strings.Split(stmt, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return strings.Join(slices.DeleteFunc(lines, func(l string) bool { return l == "" }), " ")
}
