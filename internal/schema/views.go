package schema

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"ariga.io/atlas/sql/migrate"
	atlas "ariga.io/atlas/sql/schema"

	"github.com/msgx-aodb/msgx/db/pgadmin"
)

// Views are invisible to atlas's open-source PostgreSQL driver (it inspects
// tables only), so msgx keeps them itself: the desired views are the view
// statements of the schema files, compared with a database by their
// server-deparsed definitions, columns and comments.
//
// A reporting tool may build its own views on msgx's (docs/reporting.md), and
// PostgreSQL refuses to drop a view another one depends on. So a view is
// replaced in place (CREATE OR REPLACE VIEW) whenever PostgreSQL allows it —
// the same columns with the same types, new ones only at the end. A view is
// dropped and re-created only when a table change touches what it reads (a
// table or column of it dropped or renamed, a column's type or collation
// changed), as PostgreSQL's dependency record says (ViewDependencies), and
// with it the views that read it.

// viewStmt is one statement of the schema files about a view.
type viewStmt struct {
	view string // lower-case name
	text string
}

// extras is what atlas does not see of the desired state: the views (the
// statements that create and comment them, in file order, and what the
// server made of them) and the tables' storage parameters (storage.go).
type extras struct {
	stmts  []viewStmt
	defs   []pgadmin.ViewDefinitionsRow
	params storageParams
}

// defines reports whether the desired schema has the view name.
func (e *extras) defines(name string) bool {
	return slices.ContainsFunc(e.defs, func(v pgadmin.ViewDefinitionsRow) bool { return v.Name == name })
}

var (
	createView      = regexp.MustCompile(`(?is)^\s*CREATE\s+(OR\s+REPLACE\s+)?VIEW\s+("?)([a-z_][a-z0-9_]*)`)
	commentView     = regexp.MustCompile(`(?is)^\s*COMMENT\s+ON\s+VIEW\s+"?([a-z_][a-z0-9_]*)`)
	commentColumnOn = regexp.MustCompile(`(?is)^\s*COMMENT\s+ON\s+COLUMN\s+"?([a-z_][a-z0-9_]*)"?\.`)
	createKeyword   = regexp.MustCompile(`(?is)^\s*CREATE\s+(OR\s+REPLACE\s+)?VIEW\s`)
)

// viewStatements picks the statements of files that create a view or
// comment on one (or on one of its columns).
func viewStatements(drv migrate.Driver, files []migrate.File) ([]viewStmt, error) {
	var out []viewStmt
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
				out = append(out, viewStmt{strings.ToLower(m[3]), text})
			} else if m := commentView.FindStringSubmatch(text); m != nil {
				out = append(out, viewStmt{strings.ToLower(m[1]), text})
			} else if m := commentColumnOn.FindStringSubmatch(text); m != nil && views[strings.ToLower(m[1])] {
				out = append(out, viewStmt{strings.ToLower(m[1]), text})
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

// viewDependencies lists what the views of schemaName read, as the server
// recorded it.
func viewDependencies(ctx context.Context, db pgadmin.DBTX, schemaName string) ([]pgadmin.ViewDependenciesRow, error) {
	deps, err := pgadmin.New().ViewDependencies(ctx, db, schemaName)
	if err != nil {
		return nil, fmt.Errorf("list view dependencies of %q: %w", schemaName, err)
	}
	return deps, nil
}

// viewChanges returns the statements that drop views before the table
// changes and those that create, replace or comment views after them;
// nothing when the views agree and no table change breaks them. broken are
// the current views the table changes break (breaksViews); deps what the
// current views read, so a view on a dropped view is dropped (and
// re-created) too. qualifier prefixes the dropped names ("" for none).
func viewChanges(current []pgadmin.ViewDefinitionsRow, desired *extras, broken map[string]bool, deps []pgadmin.ViewDependenciesRow, qualifier string) (drop, create []string) {
	want := map[string]pgadmin.ViewDefinitionsRow{}
	for _, v := range desired.defs {
		want[v.Name] = v
	}
	gone := map[string]bool{}
	for _, v := range current {
		w, ok := want[v.Name]
		if broken[v.Name] || !ok || (w != v && !replaceable(v.Columns, w.Columns)) {
			gone[v.Name] = true
		}
	}
	// PostgreSQL refuses to drop a view another one reads.
	for grew := true; grew; {
		grew = false
		for _, d := range deps {
			if gone[d.Relation] && !gone[d.ViewName] {
				gone[d.ViewName], grew = true, true
			}
		}
	}
	have := map[string]pgadmin.ViewDefinitionsRow{}
	var dropped []string
	for _, v := range current {
		if gone[v.Name] {
			dropped = append(dropped, v.Name)
		} else {
			have[v.Name] = v
		}
	}
	if len(dropped) > 0 {
		names := make([]string, len(dropped))
		for i, n := range dropped {
			names[i] = quoteIdent(n)
			if qualifier != "" {
				names[i] = quoteIdent(qualifier) + "." + names[i]
			}
		}
		// One statement: PostgreSQL drops views that depend on each other
		// together; a view of someone else's on top of them makes it fail
		// (applyError says which and what to do).
		drop = []string{"DROP VIEW " + strings.Join(names, ", ")}
	}
	for _, name := range fileOrder(desired.stmts) {
		w, ok := want[name]
		if !ok {
			continue
		}
		v, kept := have[w.Name]
		if kept && v == w {
			continue
		}
		for _, st := range desired.stmts {
			if st.view != w.Name {
				continue
			}
			text := st.text
			if kept {
				text = createKeyword.ReplaceAllString(text, "CREATE OR REPLACE VIEW ")
			}
			create = append(create, text)
		}
		if kept { // comments the files no longer set would stay
			if v.Comment != "" && w.Comment == "" {
				create = append(create, "COMMENT ON VIEW "+quoteIdent(w.Name)+" IS NULL")
			}
			for _, c := range commentedColumns(v.ColumnComments) {
				if !slices.Contains(commentedColumns(w.ColumnComments), c) {
					create = append(create, "COMMENT ON COLUMN "+quoteIdent(w.Name)+"."+quoteIdent(c)+" IS NULL")
				}
			}
		}
	}
	return drop, create
}

// fileOrder is the views of stmts in the order the files create them, which
// creates a view after those it reads.
func fileOrder(stmts []viewStmt) []string {
	var names []string
	for _, st := range stmts {
		if !slices.Contains(names, st.view) {
			names = append(names, st.view)
		}
	}
	return names
}

// replaceable says whether CREATE OR REPLACE VIEW can turn a view with the
// columns have into one with want: the same names and types in the same
// order, new columns only at the end.
func replaceable(have, want string) bool {
	return want == have || strings.HasPrefix(want, have+", ")
}

// commentedColumns are the column names of a ViewDefinitionsRow.ColumnComments.
func commentedColumns(comments string) []string {
	var names []string
	for _, l := range strings.Split(comments, "\n") {
		if name, _, ok := strings.Cut(l, ": "); ok {
			names = append(names, name)
		}
	}
	return names
}

// breaksViews returns the views (of deps, what the current views read) that
// read what atlas's table changes touch, which PostgreSQL refuses to change
// while they exist: a dropped or renamed table, a dropped or renamed column,
// a column whose type, collation or generation changes. A view that reads a
// whole row (an empty column in deps) reads every column. Added tables and
// columns, indexes, constraints, defaults, NULL-ness and comments, and
// changes of columns no view reads, leave the views alone.
func breaksViews(changes []atlas.Change, deps []pgadmin.ViewDependenciesRow) map[string]bool {
	broken := map[string]bool{}
	touch := func(table, column string) {
		for _, d := range deps {
			if d.Relation == table && (column == "" || d.ColumnName == "" || d.ColumnName == column) {
				broken[d.ViewName] = true
			}
		}
	}
	for _, c := range changes {
		switch c := c.(type) {
		case *atlas.DropTable:
			touch(c.T.Name, "")
		case *atlas.RenameTable:
			touch(c.From.Name, "")
		case *atlas.ModifyTable:
			for _, tc := range c.Changes {
				switch tc := tc.(type) {
				case *atlas.DropColumn:
					touch(c.T.Name, tc.C.Name)
				case *atlas.RenameColumn:
					touch(c.T.Name, tc.From.Name)
				case *atlas.ModifyColumn:
					if tc.Change&^(atlas.ChangeComment|atlas.ChangeNull|atlas.ChangeDefault) != 0 {
						touch(c.T.Name, tc.From.Name)
					}
				}
			}
		}
	}
	return broken
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
