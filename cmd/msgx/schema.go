package main

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/schema"
)

func init() {
	register("schema", "show (plan) or apply the DDL that brings PostgreSQL to msgx's schema", runSchema)
}

const schemaUsage = `usage: msgx schema plan  [--config FILE] [--url URL] [--schema public]
       msgx schema apply --yes [--config FILE] [--url URL] [--schema public]
       msgx schema plan|apply --dialect oracle11g [--dsn DSN] [--yes]

plan prints the DDL that brings the schema to sql/postgres/schema, one
statement per line on stdout ("-- schema is up to date" on stderr when there
is none); apply executes it in one transaction and says how many statements
it applied on stderr. The database is --url, else postgres.url of the
configuration (--config / $MSGX_CONFIG, MSGX_PG_URL; docs/config.md), whose
default is the local development database. Tables in the schema that msgx
does not define are dropped.

With --dialect oracle11g (default: database.dialect of the configuration),
plan prints the migrations of sql/oracle11g/migrations not yet recorded in
MSGX_SCHEMA_VERSION and apply runs them in order (Oracle DDL commits itself:
a failed migration stays half applied and unrecorded). The DSN is --dsn,
else oracle.dsn of the configuration (MSGX_ORACLE_DSN).

Exit codes: 0 planned / applied; 1 the database failed; 2 bad flags, invalid
configuration, or apply without --yes.`

func runSchema(ctx context.Context, args []string, s streams) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		if len(args) == 0 {
			fmt.Fprintln(s.err, schemaUsage)
			return exitUsage
		}
		fmt.Fprintln(s.out, schemaUsage)
		return exitOK
	}
	sub := args[0]
	if sub != "plan" && sub != "apply" {
		fmt.Fprintf(s.err, "msgx schema: unknown subcommand %q (want plan or apply)\n", sub)
		return exitUsage
	}
	fs := newFlags("schema "+sub, schemaUsage)
	configPath := configFlag(fs)
	url := fs.String("url", "", "PostgreSQL URL, postgres://... (default postgres.url of the configuration)")
	target := fs.String("schema", schema.DefaultSchema, "PostgreSQL schema holding msgx's tables")
	yes := fs.Bool("yes", false, "apply: really change the database")
	dialect := fs.String("dialect", "", "postgres or oracle11g (default database.dialect of the configuration)")
	dsn := fs.String("dsn", "", "oracle11g: godror DSN (default oracle.dsn of the configuration)")
	if code, ok := parseFlags(fs, args[1:], s); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(s.err, "msgx schema: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	if sub == "apply" && !*yes {
		fmt.Fprintln(s.err, "msgx schema: apply changes the database: review 'msgx schema plan', then re-run with --yes")
		return exitUsage
	}
	cfg, ok := loadConfig("schema", *configPath, s)
	if !ok {
		return exitUsage
	}
	switch cmp.Or(*dialect, cfg.Dialect) {
	case config.DialectOracle11g:
		return schemaOracle(ctx, sub, cmp.Or(*dsn, cfg.OracleDSN), s)
	case config.DialectPostgres:
	default:
		fmt.Fprintf(s.err, "msgx schema: unknown dialect %q (want postgres or oracle11g)\n", *dialect)
		return exitUsage
	}
	*url = cmp.Or(*url, cfg.PGURL)

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
