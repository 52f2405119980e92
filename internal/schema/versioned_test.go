package schema

import (
	"testing"
	"time"

	"ariga.io/atlas/sql/migrate"
	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/db/pgadmin"
)

// merge says what `msgx schema status` shows: a shipped file the database
// applied with another SHA-256 is CHANGED (not after --baseline, which ran
// nothing), a recorded version this binary does not ship comes last with no
// SHA-256 (UNKNOWN), the rest applied or pending.
func TestMergeMarksChangedAndUnknown(t *testing.T) {
	a := migrate.NewLocalFile("20260101000000_a.sql", []byte("CREATE TABLE a (x int);"))
	b := migrate.NewLocalFile("20260102000000_b.sql", []byte("CREATE TABLE b (x int);"))
	c := migrate.NewLocalFile("20260103000000_c.sql", []byte("CREATE TABLE c (x int);"))
	at := time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)
	got := merge([]migrate.File{a, b, c}, map[string]pgadmin.MsgxSchemaVersion{
		"20260101000000": {Version: "20260101000000", Sha256: fileSHA(a), AppliedAt: at},
		"20260102000000": {Version: "20260102000000", Sha256: "edited", AppliedAt: at},
		"20991231000000": {Version: "20991231000000", Name: "20991231000000_future.sql", Sha256: "x", AppliedAt: at},
	})
	require.Len(t, got, 4)
	require.False(t, got[0].Pending())
	require.False(t, got[0].Changed)
	require.True(t, got[1].Changed)
	require.True(t, got[2].Pending())
	require.Equal(t, "20991231000000_future.sql", got[3].Name)
	require.Empty(t, got[3].SHA256)

	baseline := merge([]migrate.File{a}, map[string]pgadmin.MsgxSchemaVersion{
		"20260101000000": {Version: "20260101000000", Sha256: "recorded by an older release", Baseline: true, AppliedAt: at},
	})
	require.False(t, baseline[0].Changed, "a baseline ran nothing: its record is not the file")
}
