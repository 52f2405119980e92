// Command migrate-diff writes the next atlas-format versioned migration of
// msgx's PostgreSQL schema: the statements that bring the existing migrations
// in sql/postgres/migrations to the desired schema in sql/postgres/schema,
// plus the rewritten atlas.sum. It is the atlas-CLI-free equivalent of
// `atlas migrate diff <name> --env local`. Run it from the repository root:
//
//	go run ./scripts/migrate-diff --name add_foo
//
// It needs a PostgreSQL server (MSGX_PG_URL, default the local one) only as a
// scratchpad: it creates and drops throw-away schemas there, nothing else.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/msgx-aodb/msgx/internal/schema"
)

const defaultURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

func main() {
	name := flag.String("name", "", "migration name, e.g. add_flight_remarks (required)")
	dir := flag.String("dir", filepath.Join("sql", "postgres", "migrations"), "migration directory")
	rehash := flag.Bool("rehash", false, "only rewrite atlas.sum after a reviewed hand edit of an unreleased migration")
	flag.Parse()
	if *rehash && flag.NArg() == 0 {
		if err := schema.RehashMigrations(*dir); err != nil {
			fmt.Fprintf(os.Stderr, "migrate-diff: %v\n", err)
			os.Exit(1)
		}
		fmt.Println("migrate-diff: rewrote atlas.sum")
		return
	}
	if *name == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: go run ./scripts/migrate-diff --name <migration_name> [--dir sql/postgres/migrations]\n       go run ./scripts/migrate-diff --rehash [--dir sql/postgres/migrations]")
		os.Exit(2)
	}
	url := os.Getenv("MSGX_PG_URL")
	if url == "" {
		url = defaultURL
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, url, *dir, *name); err != nil {
		fmt.Fprintf(os.Stderr, "migrate-diff: %v\n", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, url, dir, name string) error {
	db, err := schema.Open(ctx, url)
	if err != nil {
		return err
	}
	defer db.Close()
	file, err := schema.GenerateMigration(ctx, db, dir, name)
	if err != nil {
		return err
	}
	if file == "" {
		fmt.Println("migrate-diff: no changes: the migrations already match sql/postgres/schema")
		return nil
	}
	fmt.Printf("migrate-diff: wrote %s and atlas.sum\n", filepath.Join(dir, file))
	return nil
}
