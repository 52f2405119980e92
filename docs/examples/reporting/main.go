// Command reporting is a minimal reporting tool over msgx's PostgreSQL: it
// lists the flights of one operation day in the old fixed-slot shape (the
// flight_report view: first and second gate, counts, last delay; see
// docs/reporting.md) with the read-only, generated accessors of
// github.com/msgx-aodb/msgx/db/report, and prints each FLID with its SODT as
// the AODB sent it (raw text), its first gate and its number of gates.
//
// After `make run` has played the demo's day (testdata/sample-day):
//
//	MSGX_PG_URL=postgres://postgres@127.0.0.1:5432/msgx?sslmode=disable \
//	  go run ./docs/examples/reporting 2026-12-03
//
// Without an argument it lists today's flights in the airport time zone
// (MSGX_AIRPORT_TZ, default Asia/Shanghai). It only reads: db/report has
// nothing else.
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/msgx-aodb/msgx/db/report"
)

func main() {
	if err := run(context.Background(), os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "reporting:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	url := os.Getenv("MSGX_PG_URL")
	if url == "" {
		url = "postgres://postgres@127.0.0.1:5432/msgx?sslmode=disable"
	}
	day, err := operationDay(args)
	if err != nil {
		return err
	}

	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		return err
	}
	defer pool.Close()

	// Queries holds no connection: every call takes the pool (or a pgx.Tx).
	q := report.New()
	const pageSize = 500
	var after int64 // keyset paging: FLIDs greater than the last one seen
	n := 0
	for {
		page, err := q.FlightReportsByDay(ctx, pool, report.FlightReportsByDayParams{
			OperationDay: day,
			AfterFlid:    after,
			PageSize:     pageSize,
		})
		if err != nil {
			return fmt.Errorf("list flights of %s: %w", day.Format(time.DateOnly), err)
		}
		for _, f := range page {
			fmt.Printf("%d\t%s\t%s\tgate %s of %d\n", f.Flid, deref(f.Sodt), f.Lifecycle, deref(f.Gate1), f.GateCount)
			after = f.Flid
		}
		n += len(page)
		if len(page) < pageSize {
			break
		}
	}
	fmt.Fprintf(os.Stderr, "%d flights on %s\n", n, day.Format(time.DateOnly))
	return nil
}

// operationDay is the day given as YYYY-MM-DD, or today in the airport's zone.
func operationDay(args []string) (time.Time, error) {
	if len(args) > 0 {
		d, err := time.Parse(time.DateOnly, args[0])
		if err != nil {
			return time.Time{}, fmt.Errorf("operation day %q: want YYYY-MM-DD", args[0])
		}
		return d, nil
	}
	tz := os.Getenv("MSGX_AIRPORT_TZ")
	if tz == "" {
		tz = "Asia/Shanghai"
	}
	loc, err := time.LoadLocation(tz)
	if err != nil {
		return time.Time{}, fmt.Errorf("MSGX_AIRPORT_TZ: %w", err)
	}
	y, m, d := time.Now().In(loc).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC), nil
}

func deref(s *string) string {
	if s == nil {
		return "-"
	}
	return *s
}
