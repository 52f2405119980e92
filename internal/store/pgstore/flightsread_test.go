package pgstore_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/store/storetest"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Issue #34: the flights of a day the AODB scheduled at once, numbered in a
// row, are read as one span of each detail table (flightset.go), the others
// probed. Each reads back as it reads alone (by a probe): the span's rows in
// the order of the table's pages (flights rewritten since sit at its end),
// the rows of a flight inside the span but not asked for (1050) dropped.
func TestFlightsOfASpanReadAsAlone(t *testing.T) {
	t.Parallel()
	s := pgstore.New(testdb.Postgres(t).Pool)
	at := time.Date(2026, 12, 5, 8, 0, 0, 0, time.UTC)
	asked := []int64{1, 2, 3, 200, 300, 5000}       // scattered
	for flid := int64(1001); flid <= 1100; flid++ { // the day, in a row
		if flid != 1050 {
			asked = append(asked, flid)
		}
	}
	var writes []vocab.FlightWrite
	for _, flid := range asked {
		writes = append(writes, vocab.FlightWrite{State: storetest.RichFlight(flid), Changes: storetest.AllChanged, New: true})
	}
	writes = append(writes, vocab.FlightWrite{State: storetest.RichFlight(1050), Changes: storetest.AllChanged, New: true})
	require.NoError(t, s.WriteFlights(t.Context(), writes, at))
	var again []vocab.FlightWrite // their detail rows move to the tables' end
	for _, w := range writes[len(writes)-40 : len(writes)-20] {
		again = append(again, vocab.FlightWrite{State: w.State, Changes: storetest.AllChanged})
	}
	require.NoError(t, s.WriteFlights(t.Context(), again, at.Add(time.Minute)))

	got, err := s.Flights(t.Context(), asked)
	require.NoError(t, err)
	require.Len(t, got, len(asked))
	require.NotContains(t, got, int64(1050), "not asked for")
	for _, flid := range asked {
		alone, err := s.Flights(t.Context(), []int64{flid})
		require.NoError(t, err)
		require.Equal(t, alone[flid], got[flid], "flight %d", flid)
		require.Len(t, got[flid].Groups, len(flight.Groups), "flight %d: every group", flid)
	}
}

// BenchmarkFlightsRead: reading back 2 000 flights with every group
// (storetest.RichFlight; a restarted pump's first DNLD resend reads its day
// so, issue #34), per flight. That they read back as written is the
// conformance suite's (EverythingReadsBackIdenticalAndInOrder).
func BenchmarkFlightsRead(b *testing.B) {
	const n = 2000
	s := pgstore.New(testdb.Postgres(b).Pool)
	at := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	writes := make([]vocab.FlightWrite, n)
	flids := make([]int64, n)
	for i := range writes {
		flids[i] = int64(i + 1)
		writes[i] = vocab.FlightWrite{State: storetest.RichFlight(flids[i]), Changes: storetest.AllChanged, New: true}
	}
	require.NoError(b, s.WriteFlights(b.Context(), writes, at))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		got, err := s.Flights(b.Context(), flids)
		if err != nil || len(got) != n {
			b.Fatal(err, len(got))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/flight")
}
