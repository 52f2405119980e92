package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/msgx-aodb/msgx/internal/dbopen"
	"github.com/msgx-aodb/msgx/internal/plural"
	"github.com/msgx-aodb/msgx/internal/store/orastore"
)

// schemaOracle is `msgx schema plan|apply --dialect oracle11g`: the
// versioned migrations of sql/oracle11g/migrations (docs/schema.md).
func schemaOracle(ctx context.Context, sub, dsn string, s streams) int {
	if dsn == "" {
		dsn = os.Getenv("MSGX_ORACLE_DSN")
	}
	if dsn == "" {
		fmt.Fprintln(s.err, "msgx schema: no database: pass --dsn or set MSGX_ORACLE_DSN")
		return exitUsage
	}
	st, err := dbopen.Oracle(ctx, dsn)
	if err != nil {
		fmt.Fprintf(s.err, "msgx schema: %s\n", strings.Join(strings.Fields(err.Error()), " "))
		return exitFailure
	}
	defer st.Close()
	var migrations []orastore.Migration
	if sub == "apply" {
		migrations, err = orastore.ApplyMigrations(ctx, st.DB(), time.Now())
	} else {
		migrations, err = orastore.PendingMigrations(ctx, st.DB())
	}
	if err != nil {
		fmt.Fprintf(s.err, "msgx schema: %s\n", strings.Join(strings.Fields(err.Error()), " "))
		return exitFailure
	}
	for _, m := range migrations {
		fmt.Fprintf(s.out, "-- migration %s\n", m.Version)
		for _, stmt := range m.Statements {
			fmt.Fprintf(s.out, "%s;\n", stmt)
		}
	}
	switch {
	case len(migrations) == 0:
		fmt.Fprintln(s.err, "-- schema is up to date")
	case sub == "apply":
		fmt.Fprintf(s.err, "-- applied %s\n", plural.Count(len(migrations), "migration"))
	}
	return exitOK
}
