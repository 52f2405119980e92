package pgstore_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// fullState is a flight with a dozen scalars and items in every group (two
// or three in some), each value with every parsed form a column can hold:
// what a DNLD with every group writes (the pump's fullRecord).
func fullState(flid int64, at time.Time) *flight.State {
	minutes, days := int32(30), int32(1)
	value := func(raw string) flight.Value {
		return flight.Value{Raw: raw, Time: &at, Minutes: &minutes, Days: &days}
	}
	s := &flight.State{
		FLID: flid, Lifecycle: flight.Active, StateVersion: 1, LastMessageID: 1,
		OperationDay: time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, time.UTC),
		Scalars:      map[string]flight.Value{},
		Structs:      map[string]flight.Struct{},
		Groups:       map[string][]flight.Item{},
		Payloads:     map[string]flight.Payload{},
		Stamps:       flight.Stamps{},
	}
	enums := map[string]string{"MVIN": "A", "FLIN": "I", "ABOP": "A", "CHID": "ON"} // checked columns
	raw := func(name, otherwise string) string {
		if e, ok := enums[name]; ok {
			return e
		}
		return otherwise
	}
	for _, name := range flight.ScalarNames[:12] {
		s.Scalars[name] = value(raw(name, name+"1"))
		s.Stamps[name] = at
	}
	for group, fields := range flight.GroupFields {
		n := 1
		if group == flight.GroupGates || group == flight.GroupCheckins || group == flight.GroupRoute {
			n = 2 + int(flid%2)
		}
		for i := range n {
			seq := int64(i + 1)
			it := flight.Item{SourceSeq: &seq, Fields: map[string]flight.Value{}}
			if group == flight.GroupDelays {
				it.SourceSeq = nil // DELY has no sequence attribute
			}
			for _, f := range fields {
				it.Fields[f] = value(raw(f, f+"x"))
			}
			s.Groups[group] = append(s.Groups[group], it)
		}
	}
	return s
}

// newFlight writes s whole, as a new flight.
func newFlight(s *flight.State) vocab.FlightWrite {
	return vocab.FlightWrite{State: s, New: true, Changes: flight.Replaced(s.StateVersion, flight.Groups, nil)}
}

// BenchmarkFlightsRead: reading back 2 000 full flights (a restarted
// pump's first DNLD resend reads its day so, issue #34), per flight.
func BenchmarkFlightsRead(b *testing.B) {
	const n = 2000
	s := pgstore.New(testdb.Postgres(b).Pool)
	at := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	writes := make([]vocab.FlightWrite, n)
	flids := make([]int64, n)
	for i := range writes {
		flids[i] = int64(i + 1)
		writes[i] = newFlight(fullState(flids[i], at))
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

// A flight read back is the state written: every scalar, stamp and group
// item with the parsed forms its columns hold, in order.
func TestFlightsReadBackWhatWasWritten(t *testing.T) {
	t.Parallel()
	s := pgstore.New(testdb.Postgres(t).Pool)
	at := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	want := fullState(7, at)
	require.NoError(t, s.WriteFlights(t.Context(), []vocab.FlightWrite{newFlight(want)}, at))
	got, err := s.Flights(t.Context(), []int64{7})
	require.NoError(t, err)
	st := got[7]
	require.NotNil(t, st)
	require.Equal(t, want.Scalars["FFID"].Raw, st.Scalars["FFID"].Raw)
	require.Len(t, st.Scalars, len(want.Scalars))
	require.Len(t, st.Stamps, len(want.Stamps))
	for group, items := range want.Groups {
		require.Len(t, st.Groups[group], len(items), group)
		for i, it := range items {
			require.Equal(t, it.SourceSeq, st.Groups[group][i].SourceSeq, group)
			require.Len(t, st.Groups[group][i].Fields, len(it.Fields), group)
			for f, v := range it.Fields {
				require.Equal(t, v.Raw, st.Groups[group][i].Fields[f].Raw, group+"/"+f)
			}
		}
	}
}
