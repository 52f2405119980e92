package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/msgx-aodb/msgx/internal/schema"
)

type versionedFlags struct{ to, baseline string }

// schemaVersioned is `msgx schema status|migrate`: the production route, the
// embedded versioned migrations recorded in msgx_schema_version
// (docs/upgrade.md).
func schemaVersioned(ctx context.Context, sub, url, target string, f versionedFlags, s streams) int {
	if sub == "status" && (f.to != "" || f.baseline != "") {
		fmt.Fprintln(s.err, "msgx schema: --to and --baseline belong to migrate")
		return exitUsage
	}
	if f.to != "" && f.baseline != "" {
		fmt.Fprintln(s.err, "msgx schema: --to and --baseline exclude each other")
		return exitUsage
	}
	fail := func(err error) int {
		fmt.Fprintf(s.err, "msgx schema: %s\n", strings.Join(strings.Fields(err.Error()), " "))
		return exitFailure
	}
	db, err := schema.Open(ctx, url)
	if err != nil {
		return fail(err)
	}
	defer db.Close()
	if sub == "status" {
		ms, err := schema.MigrationStatus(ctx, db, target)
		if err != nil {
			return fail(err)
		}
		printMigrations(ms, s)
		return exitOK
	}
	var done []schema.Migration
	if f.baseline != "" {
		done, err = schema.Baseline(ctx, db, target, f.baseline, time.Now())
	} else {
		done, err = schema.Migrate(ctx, db, target, f.to, time.Now())
	}
	for _, m := range done {
		verb := "applied "
		if m.Baseline {
			verb = "recorded"
		}
		fmt.Fprintf(s.out, "%s %s\n", verb, m.Name)
	}
	if err != nil {
		return fail(err)
	}
	if len(done) == 0 {
		fmt.Fprintln(s.err, "-- schema is up to date")
	} else {
		fmt.Fprintf(s.err, "-- %d migrations %s\n", len(done), map[bool]string{true: "recorded", false: "applied"}[f.baseline != ""])
	}
	return exitOK
}

// printMigrations is one line per migration, then a summary: what a DBA
// checks before and after an upgrade.
func printMigrations(ms []schema.Migration, s streams) {
	pending := 0
	for _, m := range ms {
		state := "pending "
		switch {
		case m.SHA256 == "":
			state = "UNKNOWN " // recorded by a newer msgx
		case m.Changed:
			state = "CHANGED "
		case m.Baseline:
			state = "baseline"
		case !m.Pending():
			state = "applied "
		}
		when := ""
		if !m.Pending() {
			when = "  " + m.Applied.UTC().Format(time.RFC3339)
		} else {
			pending++
		}
		fmt.Fprintf(s.out, "%s  %s%s\n", state, m.Name, when)
	}
	fmt.Fprintf(s.out, "-- %d applied, %d pending\n", len(ms)-pending, pending)
}
