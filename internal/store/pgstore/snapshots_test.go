package pgstore_test

import (
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// snapshotDay writes n flights of one day and its first generation, the
// state a DNLD's members are written in.
func snapshotDay(t *testing.T, n int) (*pgxpool.Pool, *pgstore.Store, time.Time, []int64) {
	t.Helper()
	pool := testdb.Postgres(t).Pool
	s := pgstore.New(pool)
	now := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	day := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	writes := make([]vocab.FlightWrite, n)
	flids := make([]int64, n)
	for i := range writes {
		flids[i] = int64(i + 1)
		writes[i] = vocab.FlightWrite{New: true, State: &flight.State{FLID: flids[i], Lifecycle: flight.Active,
			StateVersion: 1, LastMessageID: 1, OperationDay: day, Scalars: map[string]flight.Value{}}}
	}
	require.NoError(t, s.WriteFlights(t.Context(), writes, now))
	require.NoError(t, s.AdvanceSnapshotGen(t.Context(), vocab.AdvanceSnapshotGenParams{FDay: day, MessageID: 1, Now: now}))
	return pool, s, day, flids
}

// Writing a day's members neither reads nor locks its flights: the foreign
// key's check took a KEY SHARE lock on every member's flight_schd row (a
// heap write and a query per flight, on a young table a scan of a whole
// index), most of a DNLD's PostgreSQL time (docs/dev/performance-notes.md).
func TestSnapshotMembersLockNoFlight(t *testing.T) {
	t.Parallel()
	pool, s, day, flids := snapshotDay(t, 200)
	require.NoError(t, s.ReplaceSnapshotMembers(t.Context(), day, flids))
	var locked int
	require.NoError(t, pool.QueryRow(t.Context(), "SELECT count(*) FROM flight_schd WHERE xmax <> 0").Scan(&locked))
	require.Zero(t, locked, "flight rows locked (xmax set) by writing the members")
	members, err := s.SnapshotMembers(t.Context(), day)
	require.NoError(t, err)
	require.Equal(t, flids, members)
}

// A snapshot of the same flights (the daily resend) rewrites no member row;
// a changed list deletes and inserts only the difference.
func TestSnapshotMembersWriteOnlyTheDifference(t *testing.T) {
	t.Parallel()
	pool, s, day, flids := snapshotDay(t, 10)
	versions := func() map[int64]string { // each member row's xmin: a rewritten row has a new one
		rows, err := pool.Query(t.Context(), "SELECT flid, xmin::text FROM schd_gen_flid WHERE fday = $1", day)
		require.NoError(t, err)
		defer rows.Close()
		out := map[int64]string{}
		for rows.Next() {
			var flid int64
			var xmin string
			require.NoError(t, rows.Scan(&flid, &xmin))
			out[flid] = xmin
		}
		require.NoError(t, rows.Err())
		return out
	}
	require.NoError(t, s.ReplaceSnapshotMembers(t.Context(), day, flids[:8]))
	first := versions()
	require.Len(t, first, 8)

	require.NoError(t, s.ReplaceSnapshotMembers(t.Context(), day, flids[:8]))
	require.Equal(t, first, versions(), "the same members: no row written")

	require.NoError(t, s.ReplaceSnapshotMembers(t.Context(), day, append([]int64{10}, flids[2:9]...)))
	second := versions()
	require.Len(t, second, 8)
	for _, id := range flids[2:8] {
		require.Equal(t, first[id], second[id], "flight %d stayed a member: its row is untouched", id)
	}
	require.NotContains(t, second, int64(1))
	require.NotContains(t, second, int64(2))
	require.Contains(t, second, int64(9))
	require.Contains(t, second, int64(10))

	require.NoError(t, s.ReplaceSnapshotMembers(t.Context(), day, nil))
	require.Empty(t, versions(), "no member left")
}
