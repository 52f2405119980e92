package orastore

import (
	"bufio"
	"database/sql"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"sort"
	"strings"

	sqlfiles "github.com/msgx-aodb/msgx/sql"
)

// Query is one statement of sql/oracle11g/queries, as it is sent: comment
// lines dropped, no trailing `;` (a PL/SQL block keeps its `END;`).
type Query struct {
	Name  string
	Kind  string   // :one, :many, :exec, :execrows, :copyfrom, :batchexec
	SQL   string   // the text sent to the driver
	Binds []string // distinct bind names in order of first use
	PLSQL bool     // an anonymous block (BEGIN/DECLARE ... END;)
}

var (
	nameLine = regexp.MustCompile(`^--\s*name:\s*(\w+)\s+(:\w+)\s*$`)
	bindRe   = regexp.MustCompile(`:([A-Za-z_][A-Za-z0-9_]*)`)
)

// loadQueries reads every query of the embedded Oracle files by name.
func loadQueries(fsys fs.FS) (map[string]*Query, error) {
	files, err := fs.Glob(fsys, "oracle11g/queries/*.sql")
	if err != nil {
		return nil, err
	}
	out := map[string]*Query{}
	for _, f := range files {
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		var cur *Query
		var body []string
		flush := func() error {
			if cur == nil {
				return nil
			}
			cur.SQL = strings.TrimSpace(strings.Join(body, "\n"))
			cur.Binds = bindNames(cur.SQL)
			up := strings.ToUpper(cur.SQL)
			cur.PLSQL = strings.HasPrefix(up, "BEGIN") || strings.HasPrefix(up, "DECLARE")
			if _, dup := out[cur.Name]; dup {
				return fmt.Errorf("%s: query %s defined twice", f, cur.Name)
			}
			out[cur.Name] = cur
			return nil
		}
		sc := bufio.NewScanner(strings.NewReader(string(data)))
		for sc.Scan() {
			line := sc.Text()
			if m := nameLine.FindStringSubmatch(line); m != nil {
				if err := flush(); err != nil {
					return nil, err
				}
				cur, body = &Query{Name: m[1], Kind: m[2]}, nil
				continue
			}
			if cur == nil || strings.HasPrefix(strings.TrimSpace(line), "--") {
				continue
			}
			body = append(body, line)
		}
		if err := flush(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// bindNames lists the `:name` binds outside string literals and comments,
// each once (godror binds a repeated name once).
func bindNames(text string) []string {
	var names []string
	inQuote := false
	var plain strings.Builder
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case inQuote:
			if c == '\'' {
				inQuote = false
			}
			plain.WriteByte(' ')
		case c == '\'':
			inQuote = true
			plain.WriteByte(' ')
		case c == '-' && i+1 < len(text) && text[i+1] == '-':
			for i < len(text) && text[i] != '\n' {
				i++
			}
			plain.WriteByte('\n')
		default:
			plain.WriteByte(c)
		}
	}
	for _, m := range bindRe.FindAllStringSubmatch(plain.String(), -1) {
		n := strings.ToLower(m[1])
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}

// args turns the values the adapter passes into named binds, and refuses a
// call whose names are not exactly the query's binds: every bind name of a
// query file is passed and no other (issue #15, check 3).
func (q *Query) args(values map[string]any) ([]any, error) {
	var missing, extra []string
	for _, b := range q.Binds {
		if _, ok := values[b]; !ok {
			missing = append(missing, b)
		}
	}
	for k := range values {
		if !slices.Contains(q.Binds, k) {
			extra = append(extra, k)
		}
	}
	if len(missing)+len(extra) > 0 {
		sort.Strings(extra)
		return nil, fmt.Errorf("orastore: %s: binds do not match the query file: missing %v, not in the query %v", q.Name, missing, extra)
	}
	out := make([]any, 0, len(q.Binds))
	for _, b := range q.Binds {
		out = append(out, sql.Named(b, values[b]))
	}
	return out, nil
}

// queries is the loaded set; the files are embedded, so a load error is a
// build defect and the package refuses to start.
var queries = func() map[string]*Query {
	q, err := loadQueries(sqlfiles.OracleQueries)
	if err != nil {
		panic(err)
	}
	return q
}()

func mustQuery(name string) *Query {
	q, ok := queries[name]
	if !ok {
		panic("orastore: no query " + name + " in sql/oracle11g/queries")
	}
	return q
}
