package schema_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"ariga.io/atlas/sql/migrate"
	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/schema"
	"github.com/msgx-aodb/msgx/internal/testdb"
)

// Rule 19's upgrade (the flight_stamps migration): an existing flight is
// stamped with its last message's META DTTM under "*", found in proc_state
// or proc_state_hst; a flight whose last message is in neither keeps no
// stamp (the next snapshot applies to it whole).
func TestFlightStampsMigrationStampsExistingFlights(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir, err := schema.MigrationDir()
	require.NoError(t, err)
	files, err := dir.Files()
	require.NoError(t, err)
	at := slices.IndexFunc(files, func(f migrate.File) bool { return strings.HasSuffix(f.Name(), "_flight_stamps.sql") })
	require.GreaterOrEqual(t, at, 0, "no flight_stamps migration")

	db := openDB(t, testdb.PostgresEmpty(t))
	require.NoError(t, schema.ExecFiles(ctx, db, "public", files[:at]))
	_, err = db.ExecContext(ctx, `
INSERT INTO proc_state (msg_id, status, first_seen_at, meta_dttm) VALUES
  (10, 'SUCCEEDED', now(), '2026-12-15 07:30:00+08'),
  (12, 'SUCCEEDED', now(), NULL);
INSERT INTO proc_state_hst (msg_id, status, attempts, first_seen_at, replay_count, created_at, meta_dttm) VALUES
  (11, 'SUCCEEDED', 1, now(), 0, now(), '2026-12-15 06:00:00.5+08');
INSERT INTO flight_schd (flid, sodt, operation_day, last_message_id) VALUES
  (701, '15DEC260800', '2026-12-15', 10),
  (702, '15DEC260900', '2026-12-15', 11),
  (703, '15DEC261000', '2026-12-15', 12),
  (704, '15DEC261100', '2026-12-15', 99)`)
	require.NoError(t, err)
	require.NoError(t, schema.ExecFiles(ctx, db, "public", files[at:at+1]))

	rows, err := db.QueryContext(ctx, `SELECT flid, stamps FROM flight_schd ORDER BY flid`)
	require.NoError(t, err)
	defer rows.Close()
	got := map[int64]*string{}
	for rows.Next() {
		var flid int64
		var stamps *string
		require.NoError(t, rows.Scan(&flid, &stamps))
		got[flid] = stamps
	}
	require.NoError(t, rows.Err())
	require.Equal(t, "1797291000:*", *got[701], "proc_state: 2026-12-15 07:30 +08:00")
	require.Equal(t, "1797285600:*", *got[702], "proc_state_hst, to the second")
	require.Nil(t, got[703], "a last message without DTTM: no stamp")
	require.Nil(t, got[704], "a last message in neither table: no stamp")

	s, err := flight.ParseStamps(*got[701])
	require.NoError(t, err)
	st, ok := s.Of("STND")
	require.True(t, ok, "the default stamp stands for every name")
	require.Equal(t, "2026-12-14T23:30:00Z", st.Format("2006-01-02T15:04:05Z07:00"))
}
