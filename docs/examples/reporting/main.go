// Command reporting is a minimal reporting tool over msgx's PostgreSQL: it
// lists the flights of one operation day with the generated, typed accessors of
// github.com/msgx-aodb/msgx/db/postgres and prints each FLID with its SODT as
// the AODB sent it (raw text).
//
//	MSGX_PG_URL=postgres://postgres@127.0.0.1:5432/msgx?sslmode=disable \
//	  go run ./docs/examples/reporting 2026-11-01
//
// Without an argument it lists today's flights in the airport time zone
// (MSGX_AIRPORT_TZ, default Asia/Shanghai). It only reads.
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/msgx-aodb/msgx/db/postgres"
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
	q := postgres.New()
	const pageSize = 500
	var after int64 // keyset paging: FLIDs greater than the last one seen
	n := 0
	for {
		page, err := q.FlightListByDay(ctx, pool, postgres.FlightListByDayParams{
			OperationDay: day,
			AfterFlid:    after,
			PageSize:     pageSize,
		})
		if err != nil {
			return fmt.Errorf("list flights of %s: %w", day.Format(time.DateOnly), err)
		}
		for _, f := range page {
			fmt.Printf("%d\t%s\n", f.Flid, deref(f.Sodt))
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
