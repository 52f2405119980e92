package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/msgx-aodb/msgx/internal/schema"
)

func init() {
	register("schema", "show (plan) or apply the DDL that brings PostgreSQL to msgx's schema", runSchema)
}

const schemaUsage = `usage: msgx schema plan  [--url URL] [--schema public]
       msgx schema apply --yes [--url URL] [--schema public]
       msgx schema plan|apply --dialect oracle11g [--dsn DSN] [--yes]

plan prints the DDL that brings the schema to sql/postgres/schema, one
statement per line; apply executes it in one transaction. The URL defaults to
$MSGX_PG_URL. Tables in the schema that msgx does not define are dropped.

With --dialect oracle11g, plan prints the migrations of
sql/oracle11g/migrations not yet recorded in MSGX_SCHEMA_VERSION and apply
runs them in order (Oracle DDL commits itself: a failed migration stays
half applied and unrecorded). The DSN defaults to $MSGX_ORACLE_DSN.`

func runSchema(ctx context.Context, args []string, s streams) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintln(s.err, schemaUsage)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	sub := args[0]
	if sub != "plan" && sub != "apply" {
		fmt.Fprintf(s.err, "msgx schema: unknown subcommand %q (want plan or apply)\n", sub)
		return exitUsage
	}
	fs := flag.NewFlagSet("schema "+sub, flag.ContinueOnError)
	fs.SetOutput(s.err)
	fs.Usage = func() { fmt.Fprintln(s.err, schemaUsage) }
	url := fs.String("url", "", "PostgreSQL URL, postgres://... (default $MSGX_PG_URL)")
	target := fs.String("schema", schema.DefaultSchema, "PostgreSQL schema holding msgx's tables")
	yes := fs.Bool("yes", false, "apply: really change the database")
	dialect := fs.String("dialect", "postgres", "postgres or oracle11g")
	dsn := fs.String("dsn", "", "oracle11g: godror DSN (default $MSGX_ORACLE_DSN)")
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(s.err, "msgx schema: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	if sub == "apply" && !*yes {
		fmt.Fprintln(s.err, "msgx schema: apply changes the database: review 'msgx schema plan', then re-run with --yes")
		return exitUsage
	}
	if *dialect == "oracle11g" {
		return schemaOracle(ctx, sub, *dsn, s)
	}
	if *dialect != "postgres" {
		fmt.Fprintf(s.err, "msgx schema: unknown dialect %q (want postgres or oracle11g)\n", *dialect)
		return exitUsage
	}
	if *url == "" {
		*url = os.Getenv("MSGX_PG_URL")
	}
	if *url == "" {
		fmt.Fprintln(s.err, "msgx schema: no database: pass --url or set MSGX_PG_URL")
		return exitUsage
	}

	stmts, err := schemaRun(ctx, sub, *url, *target)
	if err != nil {
		// One line, whatever the driver put in the message.
		fmt.Fprintf(s.err, "msgx schema: %s\n", strings.Join(strings.Fields(err.Error()), " "))
		return exitFailure
	}
	for _, st := range stmts {
		fmt.Fprintf(s.out, "%s;\n", st)
	}
	switch {
	case len(stmts) == 0:
		fmt.Fprintln(s.err, "-- schema is up to date")
	case sub == "apply":
		fmt.Fprintf(s.err, "-- applied %d statements\n", len(stmts))
	}
	return exitOK
}

func schemaRun(ctx context.Context, sub, url, target string) ([]string, error) {
	db, err := schema.Open(ctx, url)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	if sub == "apply" {
		return schema.Apply(ctx, db, target)
	}
	return schema.Plan(ctx, db, target)
}
