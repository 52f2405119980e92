package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Statement is one statement of an Oracle (or PostgreSQL) SQL file: a named
// query of a queries/*.sql file, or one `;`-terminated statement of a script.
type Statement struct {
	File   string   // path as given
	Line   int      // 1-based line of the statement's first line in File
	Name   string   // query name ("" in scripts)
	Kind   string   // ":one", ":many", ... ("" in scripts)
	StepOf []string // "-- step of: A, B": a helper step of those PostgreSQL queries
	// OracleOnly: "-- oracle only: why", a statement PostgreSQL needs no twin of.
	OracleOnly bool
	// PostgresOnly: "-- postgres only: why", a PostgreSQL query Oracle
	// needs no twin of (another form of one that has a twin).
	PostgresOnly bool
	Text         string // the statement as it is sent (queries) or run (scripts)
}

func (s Statement) where() string {
	if s.Name != "" {
		return fmt.Sprintf("%s:%d (%s)", s.File, s.Line, s.Name)
	}
	return fmt.Sprintf("%s:%d", s.File, s.Line)
}

var (
	nameRe   = regexp.MustCompile(`^--\s*name:\s*(\w+)\s+(:\w+)\s*$`)
	stepOfRe = regexp.MustCompile(`^--\s*step of:\s*(.+)$`)
	onlyRe   = regexp.MustCompile(`^--\s*oracle only:`)
	pgOnlyRe = regexp.MustCompile(`^--\s*postgres only:`)
)

// readQueries splits a sqlc-style query file at its `-- name: X :kind` lines.
func readQueries(path string) ([]Statement, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Statement
	var cur *Statement
	var body []string
	flush := func() {
		if cur != nil {
			cur.Text = strings.TrimSpace(strings.Join(body, "\n"))
			out = append(out, *cur)
		}
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if m := nameRe.FindStringSubmatch(line); m != nil {
			flush()
			cur = &Statement{File: path, Line: n + 1, Name: m[1], Kind: m[2]}
			body = nil
			continue
		}
		if cur == nil {
			continue
		}
		if m := stepOfRe.FindStringSubmatch(line); m != nil {
			for _, p := range strings.Split(m[1], ",") {
				cur.StepOf = append(cur.StepOf, strings.TrimSpace(p))
			}
		}
		if onlyRe.MatchString(line) {
			cur.OracleOnly = true
		}
		if pgOnlyRe.MatchString(line) {
			cur.PostgresOnly = true
		}
		body = append(body, line)
	}
	flush()
	return out, sc.Err()
}

// readScript splits a DDL script at each `;` that ends a line outside a
// quoted string (sql/oracle11g/README.md, "Applying"); each statement keeps
// its `;`, as SQL*Plus reads it. A PL/SQL unit ends at a line holding `/`.
func readScript(path string) ([]Statement, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []Statement
	lines := strings.Split(string(data), "\n")
	var buf []string
	start, inQuote, plsql := 0, false, false
	for i, line := range lines {
		trimmed := strings.TrimSpace(line)
		if len(buf) == 0 {
			if trimmed == "" || strings.HasPrefix(trimmed, "--") {
				continue
			}
			start = i + 1
			up := strings.ToUpper(trimmed)
			plsql = strings.HasPrefix(up, "BEGIN") || strings.HasPrefix(up, "DECLARE") ||
				regexp.MustCompile(`^CREATE\s+(OR\s+REPLACE\s+)?(TYPE|TRIGGER|PROCEDURE|FUNCTION|PACKAGE)\b`).MatchString(up)
		}
		if plsql && trimmed == "/" {
			out = append(out, Statement{File: path, Line: start, Text: strings.Join(buf, "\n")})
			buf = nil
			continue
		}
		buf = append(buf, line)
		for j := 0; j < len(line); j++ {
			if inQuote {
				if line[j] == '\'' {
					inQuote = false
				}
				continue
			}
			if line[j] == '\'' {
				inQuote = true
			} else if line[j] == '-' && j+1 < len(line) && line[j+1] == '-' {
				break
			}
		}
		if !plsql && !inQuote && strings.HasSuffix(strings.TrimRight(stripComment(line), " \t"), ";") {
			out = append(out, Statement{File: path, Line: start, Text: strings.Join(buf, "\n")})
			buf = nil
		}
	}
	if len(buf) > 0 {
		out = append(out, Statement{File: path, Line: start, Text: strings.Join(buf, "\n")})
	}
	return out, nil
}

// stripComment drops a trailing `-- ...` outside quotes.
func stripComment(line string) string {
	in := false
	for j := 0; j < len(line); j++ {
		switch {
		case line[j] == '\'':
			in = !in
		case !in && line[j] == '-' && j+1 < len(line) && line[j+1] == '-':
			return line[:j]
		}
	}
	return line
}

func sqlFiles(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.sql"))
	sort.Strings(files)
	return files, err
}
