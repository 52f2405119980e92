package main

import (
	"cmp"
	"context"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/plural"
	"github.com/msgx-aodb/msgx/internal/schema"
)

func init() {
	register("schema", "show (plan) or apply the DDL that brings PostgreSQL to msgx's schema", runSchema)
}

const schemaUsage = `usage: msgx schema status  [--config FILE] [--url URL] [--schema public]
       msgx schema migrate --yes [--to VERSION] [--baseline VERSION] [--config FILE] [--url URL] [--schema public]
       msgx schema plan  [--keep-unowned] [--config FILE] [--url URL] [--schema public] [--dir DIR]
       msgx schema apply --yes [--verbose] [--keep-unowned] [--config FILE] [--url URL] [--schema public] [--dir DIR]
       msgx schema status|migrate|plan|apply --dialect oracle11g [--dsn DSN] [--yes]

Production route (docs/upgrade.md): status lists the versioned migrations
built into msgx (sql/postgres/migrations, also shipped in
/usr/share/msgx/migrations for review) as applied or pending; migrate --yes
runs the pending ones in order, each in one transaction with its record in
msgx_schema_version, up to --to VERSION when given. A schema set up with
"schema apply" has no record: --baseline VERSION records the migrations up
to VERSION as applied without running them.

Declarative (development, tests): plan prints the DDL that brings the
schema to sql/postgres/schema, one statement per line on stdout ("-- schema
is up to date" on stderr when there is none); apply executes it in one
transaction and prints a one-line summary on stderr ("-- applied 234
statements: 40 CREATE TABLE, ..."), and the statements on stdout with
--verbose. The desired
schema is the *.sql files of --dir, else of ./sql/postgres/schema when the
working directory has one (a checkout), else the copy built into msgx; a
line on stderr says when the files used differ from the built-in copy.
Tables and views in the schema that msgx does not define are DROPPED,
unless --keep-unowned; a "-- WARNING" line on stderr names them first.

The database is --url, else postgres.url of the configuration (--config /
$MSGX_CONFIG, MSGX_PG_URL; docs/config.md), whose default is the local
development database.

With --dialect oracle11g (default: database.dialect of the configuration),
status and plan print the migrations of sql/oracle11g/migrations not yet
recorded in MSGX_SCHEMA_VERSION and migrate and apply run them in order
(Oracle DDL commits itself: a failed migration stays half applied and
unrecorded). The DSN is --dsn, else oracle.dsn of the configuration
(MSGX_ORACLE_DSN).

Exit codes: 0 planned / applied; 1 the database failed; 2 bad flags, invalid
configuration, or apply / migrate without --yes.`

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
	if sub != "plan" && sub != "apply" && sub != "status" && sub != "migrate" {
		fmt.Fprintf(s.err, "msgx schema: unknown subcommand %q (want status, migrate, plan or apply)\n", sub)
		return exitUsage
	}
	fs := newFlags("schema "+sub, schemaUsage)
	configPath := configFlag(fs)
	url := fs.String("url", "", "PostgreSQL URL, postgres://... (default postgres.url of the configuration)")
	target := fs.String("schema", schema.DefaultSchema, "PostgreSQL schema holding msgx's tables")
	yes := fs.Bool("yes", false, "apply: really change the database")
	verbose := fs.Bool("verbose", false, "apply: print every statement applied, as plan does")
	dialect := fs.String("dialect", "", "postgres or oracle11g (default database.dialect of the configuration)")
	dsn := fs.String("dsn", "", "oracle11g: godror DSN (default oracle.dsn of the configuration)")
	dir := fs.String("dir", "", "plan, apply: directory of the desired schema's *.sql files (default "+workTreeSchema+" when present, else the built-in copy)")
	keep := fs.Bool("keep-unowned", false, "plan, apply: never drop tables and views msgx does not define")
	to := fs.String("to", "", "migrate: stop after this migration version (default: all)")
	baseline := fs.String("baseline", "", "migrate: record the migrations up to this version as applied, without running them")
	if code, ok := parseFlags(fs, args[1:], s); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(s.err, "msgx schema: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	if (sub == "apply" || sub == "migrate") && !*yes {
		fmt.Fprintf(s.err, "msgx schema: %s changes the database: review 'msgx schema %s', then re-run with --yes\n", sub, map[string]string{"apply": "plan", "migrate": "status"}[sub])
		return exitUsage
	}
	cfg, ok := loadConfig("schema", *configPath, s)
	if !ok {
		return exitUsage
	}
	switch cmp.Or(*dialect, cfg.Dialect) {
	case config.DialectOracle11g:
		// Oracle has only the versioned route: status is plan, migrate apply.
		return schemaOracle(ctx, cmp.Or(map[string]string{"status": "plan", "migrate": "apply"}[sub], sub), cmp.Or(*dsn, cfg.OracleDSN), s)
	case config.DialectPostgres:
	default:
		fmt.Fprintf(s.err, "msgx schema: unknown dialect %q (want postgres or oracle11g)\n", *dialect)
		return exitUsage
	}
	*url = cmp.Or(*url, cfg.PGURL)
	if sub == "status" || sub == "migrate" {
		return schemaVersioned(ctx, sub, *url, *target, versionedFlags{to: *to, baseline: *baseline}, s)
	}
	var opts []schema.Option
	if *keep {
		opts = append(opts, schema.KeepUnowned())
	}
	src, ok := desiredSchema(*dir, s)
	if !ok {
		return exitUsage
	}

	stmts, err := schemaRun(ctx, sub, *url, *target, src, opts...)
	if err != nil {
		// One line, whatever the driver put in the message.
		fmt.Fprintf(s.err, "msgx schema: %s\n", strings.Join(strings.Fields(err.Error()), " "))
		return exitFailure
	}
	if drops := unownedDrops(stmts); len(drops) > 0 {
		// Said before anything else: the one change a DBA must not miss.
		fmt.Fprintf(s.err, "-- WARNING: this %s drops %s msgx does not define: %s (keep them with --keep-unowned)\n",
			sub, plural.Count(len(drops), "object"), strings.Join(drops, ", "))
	}
	if sub == "plan" || *verbose {
		for _, st := range stmts {
			fmt.Fprintf(s.out, "%s;\n", st)
		}
	}
	switch {
	case len(stmts) == 0:
		fmt.Fprintln(s.err, "-- schema is up to date")
	case sub == "apply":
		fmt.Fprintf(s.err, "-- applied %s\n", statementSummary(stmts))
	}
	return exitOK
}

// unownedDrops names the tables and views a plan drops for good: a DROP
// TABLE, or a DROP VIEW the plan does not create again (msgx re-creates its
// own views around a table change). Only objects msgx does not define are
// dropped so: the desired schema keeps every one of its own.
func unownedDrops(stmts []string) []string {
	var drops []string
	for i, st := range stmts {
		f := strings.Fields(st)
		if len(f) < 3 || !strings.EqualFold(f[0], "DROP") || (!strings.EqualFold(f[1], "TABLE") && !strings.EqualFold(f[1], "VIEW")) {
			continue
		}
		name := f[2]
		if strings.EqualFold(name, "IF") && len(f) >= 5 { // DROP ... IF EXISTS name
			name = f[4]
		}
		name = strings.TrimSuffix(name, ";")
		recreated := false
		for _, later := range stmts[i+1:] {
			if strings.Contains(later, "VIEW "+name) && strings.HasPrefix(strings.ToUpper(later), "CREATE") {
				recreated = true
				break
			}
		}
		if !recreated {
			drops = append(drops, name)
		}
	}
	return drops
}

// statementSummary counts statements by what they do: "3 statements: 2 CREATE
// TABLE, 1 CREATE INDEX", kinds in order of first appearance.
func statementSummary(stmts []string) string {
	var kinds []string
	n := map[string]int{}
	for _, st := range stmts {
		var w []string
		for _, f := range strings.Fields(strings.ToUpper(st)) {
			switch f {
			case "UNIQUE", "OR", "REPLACE", "IF", "NOT", "EXISTS", "CONCURRENTLY":
				continue
			}
			if w = append(w, f); len(w) == 2 {
				break
			}
		}
		k := strings.Join(w, " ")
		if n[k] == 0 {
			kinds = append(kinds, k)
		}
		n[k]++
	}
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%d %s", n[k], k)
	}
	return plural.Count(len(stmts), "statement") + ": " + strings.Join(parts, ", ")
}

// workTreeSchema is where a checkout keeps the desired schema: a DBA who edits
// it and runs bin/msgx schema plan from the checkout plans with the edit.
const workTreeSchema = "sql/postgres/schema"

// desiredSchema picks the desired schema's files: dir, else workTreeSchema
// when the working directory has it, else the built-in copy. Files that
// differ from the built-in copy are said on stderr, so neither the edited
// files nor a stale binary go unnoticed.
func desiredSchema(dir string, s streams) (fs.FS, bool) {
	if dir == "" {
		if st, err := os.Stat(workTreeSchema); err != nil || !st.IsDir() {
			return schema.Embedded(), true
		}
		dir = workTreeSchema
	}
	src := os.DirFS(dir)
	if names, err := fs.Glob(src, "*.sql"); err != nil || len(names) == 0 {
		fmt.Fprintf(s.err, "msgx schema: --dir %s: no *.sql files there\n", dir)
		return nil, false
	}
	same, err := schema.SameFiles(src, schema.Embedded())
	if err != nil {
		fmt.Fprintf(s.err, "msgx schema: --dir %s: %v\n", dir, err)
		return nil, false
	}
	if !same {
		fmt.Fprintf(s.err, "-- desired schema from %s, which differs from the copy built into this msgx (rebuild it to ship the change)\n", dir)
	}
	return src, true
}

func schemaRun(ctx context.Context, sub, url, target string, src fs.FS, opts ...schema.Option) ([]string, error) {
	db, err := schema.Open(ctx, url)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	if sub == "apply" {
		return schema.ApplyFrom(ctx, db, target, src, opts...)
	}
	return schema.PlanFrom(ctx, db, target, src, opts...)
}
