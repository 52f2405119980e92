package pump

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/store/orastore"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// oracleSchema serialises the scenarios on the one dedicated Oracle schema.
var oracleSchema sync.Mutex

// oracleStore is the Oracle adapter on the dedicated test schema
// (MSGX_TEST_ORACLE_DSN), reset, held by this test until it ends.
func oracleStore(t testing.TB) store.Store {
	t.Helper()
	dsn := os.Getenv("MSGX_TEST_ORACLE_DSN")
	if dsn == "" {
		t.Fatal("MSGX_TEST_DIALECT=oracle11g needs MSGX_TEST_ORACLE_DSN (a dedicated, empty Oracle 11g schema)")
	}
	oracleSchema.Lock()
	t.Cleanup(oracleSchema.Unlock)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	st, err := orastore.Open(ctx, dsn)
	require.NoError(t, err)
	t.Cleanup(st.Close)
	require.NoError(t, orastore.ResetTestSchema(ctx, st))
	return st
}

// TestScheduleThenFlightOpsOnOracle is TestScheduleThenFlightOps on the
// Oracle adapter: a snapshot, a gate change and a stand change through the
// real pump, on a dedicated Oracle schema (reset first).
func TestScheduleThenFlightOpsOnOracle(t *testing.T) {
	dsn := os.Getenv("MSGX_TEST_ORACLE_DSN")
	if dsn == "" {
		t.Skip("pipeline on Oracle not run: set MSGX_TEST_ORACLE_DSN to a dedicated, empty Oracle 11g schema")
	}
	e := newEnvOn(t, oracleStore(t))
	dnld := e.Send(t, schd("DNLD", fltr(1, gates("A1", "A1", "B2")), fltr(2)))
	gt := e.Send(t, flop("GTDT", 1, gates("C3")))
	stnd := e.Send(t, flop("STND", 2, "<STND>201</STND>"))
	e.StepUntilWait(t)
	for _, id := range []int64{dnld, gt, stnd} {
		m := e.msg(t, id)
		require.Equal(t, vocab.StatusSucceeded, m.Status, "message %d: %s %s", id, m.ErrorClass, m.Reason)
	}
	f1 := e.flight(t, 1)
	require.Equal(t, int64(2), f1.StateVersion)
	require.Equal(t, "C3", f1.Groups[flight.GroupGates][0].Fields["GATE"].Raw)
	require.Equal(t, "201", e.flight(t, 2).Scalars["STND"].Raw)
	require.Len(t, e.events(t, gt), 2)
}
