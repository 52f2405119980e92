package pgstore_test

import (
	"maps"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// FlightUpsertColumns (a batch of columnsRows flights or more) writes each
// flight's row exactly as FlightUpsert (a smaller batch) does: the same
// values, NULLs, times (rounded to the microsecond), CREATED_AT kept or
// set, for flights that exist and for one that does not.
func TestFlightUpsertColumnsWritesWhatFlightUpsertWrites(t *testing.T) {
	t.Parallel()
	pool := testdb.Postgres(t).Pool
	s := pgstore.New(pool)
	ctx := t.Context()
	now := time.Date(2026, 12, 2, 8, 0, 0, 987654321, time.UTC).Truncate(time.Microsecond)
	n := pgstore.ColumnsRows + 3
	require.Greater(t, pgstore.ColumnsRows, 1)

	var created []vocab.FlightWrite
	for k := range n - 1 { // the last flight of each set does not exist yet
		created = append(created,
			vocab.FlightWrite{State: pgstore.ColumnsState(int64(1000+k), k+1), New: true},
			vocab.FlightWrite{State: pgstore.ColumnsState(int64(2000+k), k+1), New: true})
	}
	require.NoError(t, s.WriteFlights(ctx, created, now))

	var batch []vocab.FlightWrite
	for k := range n {
		one := []vocab.FlightWrite{{State: pgstore.ColumnsState(int64(1000+k), k)}}
		require.NoError(t, s.WriteFlights(ctx, one, now.Add(time.Minute)), "FlightUpsert")
		batch = append(batch, vocab.FlightWrite{State: pgstore.ColumnsState(int64(2000+k), k)})
	}
	require.NoError(t, s.WriteFlights(ctx, batch, now.Add(time.Minute)), "FlightUpsertColumns")

	rows := func(from int64) []string {
		return textRows(t, pool, `SELECT (to_jsonb(f) - 'flid')::text FROM flight_schd f WHERE flid BETWEEN $1 AND $1 + 999 ORDER BY flid`, from)
	}
	single, columns := rows(1000), rows(2000)
	require.Len(t, single, n)
	require.Equal(t, single, columns)
}

// Issue #34: a DNLD resend changing every flight updates every row of a
// page in one statement, whose old row versions cannot be pruned before it
// commits. Each new version must still fit on its row's page (a HOT
// update: no new entry in flight_schd's indexes); at fillfactor 80 three in
// four moved to another page.
func TestResendUpdatesEveryFlightOnItsPage(t *testing.T) {
	t.Parallel()
	pool := testdb.Postgres(t).Pool
	s := pgstore.New(pool)
	ctx := t.Context()
	now := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	writes := make([]vocab.FlightWrite, 300)
	require.Greater(t, len(writes), pgstore.ColumnsRows)
	for i := range writes {
		writes[i] = vocab.FlightWrite{State: pgstore.ColumnsState(int64(1+i), 2), New: true}
	}
	require.NoError(t, s.WriteFlights(ctx, writes, now))

	pages := func() map[int64]int64 {
		rows, err := pool.Query(ctx, `SELECT flid, (ctid::text::point)[0]::bigint FROM flight_schd`)
		require.NoError(t, err)
		out := map[int64]int64{}
		for rows.Next() {
			var flid, page int64
			require.NoError(t, rows.Scan(&flid, &page))
			out[flid] = page
		}
		require.NoError(t, rows.Err())
		return out
	}
	before := pages()
	require.Len(t, before, len(writes))
	for i, w := range writes {
		next := *w.State
		next.StateVersion++
		next.Scalars = maps.Clone(w.State.Scalars)
		next.Scalars["REMC"] = flight.Value{Raw: "resent"}
		writes[i] = vocab.FlightWrite{State: &next}
	}
	require.NoError(t, s.WriteFlights(ctx, writes, now.Add(time.Minute)))
	require.Equal(t, before, pages(), "page of each flight's row after the resend")
}

// textRows is a query's rows, each one text column, in the order returned.
func textRows(t *testing.T, pool *pgxpool.Pool, sql string, args ...any) []string {
	t.Helper()
	r, err := pool.Query(t.Context(), sql, args...)
	require.NoError(t, err)
	out, err := pgx.CollectRows(r, pgx.RowTo[string])
	require.NoError(t, err)
	return out
}
