package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Options says where the repository is and which PostgreSQL server gives
// the reference catalog ("" skips the schema comparison).
type Options struct {
	Root  string
	PGURL string
}

// Result holds the findings of each check; empty means it held.
type Result struct {
	Statements int      // statements parsed
	Parse      []string // check 1: the grammar
	Lint       []string // check 2: 11g rules
	Parity     []string // check 3: twins and schema
	Skipped    []string // what could not be checked here, one line each
}

func (r Result) Failed() bool { return len(r.Parse)+len(r.Lint)+len(r.Parity) > 0 }

// Check runs checks 1-3 over sql/oracle11g of the tree at opt.Root.
func Check(ctx context.Context, opt Options) (Result, error) {
	var r Result
	dir := func(p ...string) string { return filepath.Join(append([]string{opt.Root, "sql"}, p...)...) }

	var scripts, queries []Statement
	isMigration := map[string]bool{}
	for _, d := range []string{dir("oracle11g", "schema"), dir("oracle11g", "migrations")} {
		files, err := sqlFiles(d)
		if err != nil {
			return r, err
		}
		for _, f := range files {
			s, err := readScript(f)
			if err != nil {
				return r, err
			}
			isMigration[f] = d == dir("oracle11g", "migrations")
			scripts = append(scripts, s...)
		}
	}
	read := func(d string) ([]Statement, error) {
		files, err := sqlFiles(d)
		if err != nil {
			return nil, err
		}
		var all []Statement
		for _, f := range files {
			s, err := readQueries(f)
			if err != nil {
				return nil, err
			}
			all = append(all, s...)
		}
		return all, nil
	}
	queries, err := read(dir("oracle11g", "queries"))
	if err != nil {
		return r, err
	}
	pgQueries, err := read(dir("postgres", "queries"))
	if err != nil {
		return r, err
	}
	// sql/postgres/arrays holds PostgreSQL queries too (their array
	// parameters have a sqlc package of their own): a file there pairs with
	// the Oracle file of its name, as one of queries/ does.
	pgArrays, err := read(dir("postgres", "arrays"))
	if err != nil {
		return r, err
	}
	pgQueries = append(pgQueries, pgArrays...)

	var schema, migrations []*Parsed
	for _, s := range scripts {
		p := parse(s)
		r.Parse = append(r.Parse, p.Errors...)
		r.Lint = append(r.Lint, lint(p, false)...)
		if isMigration[s.File] {
			migrations = append(migrations, p)
		} else {
			schema = append(schema, p)
		}
	}
	// The migrations in order must build the schema the files describe.
	if len(migrations) > 0 {
		for _, f := range compareCatalogs(oracleCatalog(schema), oracleCatalog(migrations)) {
			r.Parity = append(r.Parity, "migrations: "+strings.NewReplacer("in sql/postgres/schema", "in sql/oracle11g/schema", "in Oracle", "after the migrations", "in PostgreSQL", "in the schema", "PostgreSQL's type maps to", "the schema has").Replace(f))
		}
	}
	for _, s := range queries {
		p := parse(s)
		r.Parse = append(r.Parse, p.Errors...)
		r.Lint = append(r.Lint, lint(p, true)...)
	}
	r.Statements = len(scripts) + len(queries)

	r.Parity = append(r.Parity, compareQueries(byFile(pgQueries), byFile(queries))...)

	// The schema's reference catalog comes from a real PostgreSQL only in
	// the schema/ subtree that has one (fixtures carry no PostgreSQL schema).
	pgSchema, err := sqlFiles(dir("postgres", "schema"))
	if err != nil {
		return r, err
	}
	switch {
	case len(pgSchema) == 0:
	case opt.PGURL == "":
		r.Skipped = append(r.Skipped, "schema parity: not run (Options.PGURL is empty)")
	default:
		pg, err := postgresCatalog(ctx, opt.PGURL, pgSchema)
		if err != nil {
			return r, fmt.Errorf("postgres catalog (schema parity needs a PostgreSQL: start it, or point MSGX_TEST_PG_URL at one): %w", err)
		}
		r.Parity = append(r.Parity, compareCatalogs(pg, oracleCatalog(schema))...)
	}
	return r, nil
}

// defaultPGURL is the PostgreSQL the parity check uses when
// MSGX_TEST_PG_URL is not set: the same default as the main module's tests
// (internal/testdb.DefaultPostgresURL; TestDefaultPGURLIsTestdbs keeps them
// equal), so a missing Oracle column fails `go test .` rather than being
// reported as "not run".
const defaultPGURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// pgURL is MSGX_TEST_PG_URL, else defaultPGURL.
func pgURL() string {
	if u := os.Getenv("MSGX_TEST_PG_URL"); u != "" {
		return u
	}
	return defaultPGURL
}

func main() {
	root := "../.."
	if len(os.Args) > 1 {
		root = os.Args[1]
	}
	r, err := Check(context.Background(), Options{Root: root, PGURL: pgURL()})
	if err != nil {
		fmt.Fprintln(os.Stderr, "oraclecheck:", err)
		os.Exit(2)
	}
	for _, group := range [][]string{r.Parse, r.Lint, r.Parity, r.Skipped} {
		for _, line := range group {
			fmt.Println(line)
		}
	}
	fmt.Printf("oraclecheck: %d statements; %d parse, %d lint, %d parity findings\n", r.Statements, len(r.Parse), len(r.Lint), len(r.Parity))
	if r.Failed() {
		os.Exit(1)
	}
}
