package pgstore_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/store/storetest"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

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
