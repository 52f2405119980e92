package report_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// db/report is for reporting tools, which must only read: every query in
// sql/postgres/reports is a SELECT returning rows (:one or :many), and the
// generated package has no statement of another kind.
func TestReportQueriesOnlySelect(t *testing.T) {
	files, err := filepath.Glob("../../sql/postgres/reports/*.sql")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	header := regexp.MustCompile(`(?m)^-- name: (\w+) (:\w+)\s*$`)
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		text := string(b)
		locs := header.FindAllStringSubmatchIndex(text, -1)
		for i, loc := range locs {
			name, kind := text[loc[2]:loc[3]], text[loc[4]:loc[5]]
			require.Contains(t, []string{":one", ":many"}, kind, "%s: %s is %s, not a read", f, name, kind)
			end := len(text)
			if i+1 < len(locs) {
				end = locs[i+1][0]
			}
			require.Equal(t, "SELECT", firstKeyword(text[loc[1]:end]), "%s: %s is not a SELECT", f, name)
			n++
		}
	}
	require.Positive(t, n)

	gen, err := filepath.Glob("*.sql.go")
	require.NoError(t, err)
	require.NotEmpty(t, gen)
	for _, f := range gen {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range header.FindAllStringSubmatch(string(b), -1) {
			require.Contains(t, []string{":one", ":many"}, m[2], "%s: generated %s is %s", f, m[1], m[2])
		}
	}
}

// firstKeyword is the first word of a statement after its comment lines.
func firstKeyword(stmt string) string {
	for _, l := range strings.Split(stmt, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "--") {
			continue
		}
		return strings.ToUpper(strings.Fields(l)[0])
	}
	return ""
}

func TestFirstKeyword(t *testing.T) {
	require.Equal(t, "SELECT", firstKeyword("\n-- a\n  select 1"))
	require.Equal(t, "DELETE", firstKeyword("-- x\nDELETE FROM t"))
	require.Equal(t, "WITH", firstKeyword("WITH d AS (DELETE FROM t) SELECT 1"))
}
