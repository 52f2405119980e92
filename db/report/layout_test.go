package report_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// sqlc turns every comment line of a statement, from the end of the one
// before, into the method's doc: a file header above a file's first query
// became part of `go doc report.FlightsByDay`. Each query file starts with
// its first `-- name:` (sql/postgres/reports/README.md says what each holds),
// and no generated doc has a comment that is no query's own.
func TestReportDocsHoldNoFileHeader(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../../sql/postgres/reports/*.sql")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		require.True(t, strings.HasPrefix(string(b), "-- name: "),
			"%s: starts with its first -- name: line (a header above it becomes that query's doc; put it in README.md)", f)
	}

	readme, err := os.ReadFile("../../sql/postgres/reports/README.md")
	require.NoError(t, err)
	gen, err := filepath.Glob("*.sql.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	checked := 0
	for _, g := range gen {
		file, err := parser.ParseFile(fset, g, nil, parser.ParseComments)
		require.NoError(t, err)
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || fn.Doc == nil {
				continue
			}
			doc := fn.Doc.Text()
			for _, phrase := range []string{"Read-only queries for reporting tools", "generated into db/report", "sql/postgres/queries"} {
				require.NotContains(t, doc, phrase, "%s: %s's doc holds a file header", g, fn.Name.Name)
			}
			require.False(t, strings.Contains(string(readme), strings.TrimSpace(strings.SplitN(doc, "\n", 2)[0])),
				"%s: %s's doc opens with a line of the directory's README: %q", g, fn.Name.Name, doc)
			checked++
		}
	}
	require.Greater(t, checked, 10)
}
