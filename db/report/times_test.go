package report_test

import (
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/db/report"
	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// SodtAt is what docs/reporting.md says: the instant the raw airport-time
// text denotes, in whatever zone the reader's pool scans timestamptz (a
// plain pgxpool: time.Local; msgx's pools: UTC). Airport time is
// SodtAt.In(airport).
func TestSodtAtIsTheInstantOfTheAirportText(t *testing.T) {
	t.Parallel()
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	require.NoError(t, err)
	pg := testdb.Postgres(t)
	ctx := t.Context()
	sodt := time.Date(2026, 12, 3, 7, 5, 0, 0, shanghai) // 03DEC260705 read in the airport zone
	st := newState(41, map[string][]flight.Item{})
	st.OperationDay = time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)
	st.Scalars["SODT"] = flight.Value{Raw: "03DEC260705", Time: &sodt}
	require.NoError(t, pgstore.New(pg.Pool).WriteFlights(ctx, []vocab.FlightWrite{
		{State: st, Changes: flight.Replaced(1, flight.Groups, nil), New: true}}, sodt))

	plain, err := pgxpool.New(ctx, pg.URL) // what a reporting tool opens
	require.NoError(t, err)
	defer plain.Close()
	for name, pool := range map[string]*pgxpool.Pool{"plain pool": plain, "msgx pool (ScanInUTC)": pg.Pool} {
		f, err := report.New().Flight(ctx, pool, 41)
		require.NoError(t, err, name)
		require.Equal(t, "03DEC260705", *f.Sodt, name)
		require.True(t, f.SodtAt.Equal(time.Date(2026, 12, 2, 23, 5, 0, 0, time.UTC)), "%s: the instant: %s", name, f.SodtAt)
		require.Equal(t, "2026-12-03 07:05 +08:00", f.SodtAt.In(shanghai).Format("2006-01-02 15:04 -07:00"), name)
	}
	f, err := report.New().Flight(ctx, pg.Pool, 41)
	require.NoError(t, err)
	require.Equal(t, time.UTC, f.SodtAt.Location(), "msgx's pools scan in UTC")
}
