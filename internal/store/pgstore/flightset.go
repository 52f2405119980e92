package pgstore

import (
	"context"

	"github.com/msgx-aodb/msgx/db/postgres"
)

// flightSet is how the detail reads ask for a list of flights: the flights
// of one span, span.first to span.last, as one range of each table's index,
// and the others (probe) one by one. The AODB numbers the flights of a day
// it schedules at once in a row (FLID, its key), as a download then lists
// them, and a resend after a restart reads them all back: one descent of
// the index per flight and table was 10 to 20 µs of PostgreSQL per flight
// (issue #34). Scattered flights, a run of FLOP messages, are probed as
// before.
type flightSet struct {
	probe       []int64
	first, last int64 // the span; none when first > last
}

const (
	// spanMin is the fewest flights a span holds: below it probing them is
	// as cheap as the range.
	spanMin = 32
	// spanStep is the largest step between two flights of a span. The
	// flights between them are read too (deleted ones, another day's
	// added later) and dropped by the caller: at most one per asked flight.
	spanStep = 2
)

// flightSetOf splits sorted, distinct flids into the longest span of flights
// at most spanStep apart, when it holds spanMin flights or more, and the
// flights to probe.
func flightSetOf(flids []int64) flightSet {
	best, bestLen := 0, 0
	for i := 0; i < len(flids); {
		j := i + 1
		for j < len(flids) && flids[j]-flids[j-1] <= spanStep {
			j++
		}
		if j-i > bestLen {
			best, bestLen = i, j-i
		}
		i = j
	}
	if bestLen < spanMin {
		return flightSet{probe: flids, first: 1, last: 0}
	}
	end := best + bestLen
	probe := make([]int64, 0, len(flids)-bestLen)
	probe = append(append(probe, flids[:best]...), flids[end:]...)
	return flightSet{probe: probe, first: flids[best], last: flids[end-1]}
}

// spanParams is the parameters every *ListByFlights statement takes
// (sql/postgres/queries/flight_detail.sql), each its own generated type.
type spanParams interface {
	~struct {
		Flids     []int64 `json:"flids"`
		SpanFirst int64   `json:"span_first"`
		SpanLast  int64   `json:"span_last"`
	}
}

// byFlightSet adapts a generated *ListByFlights to a flightSet.
func byFlightSet[A spanParams, L any](list func(context.Context, postgres.DBTX, A) ([]L, error)) func(context.Context, postgres.DBTX, flightSet) ([]L, error) {
	return func(ctx context.Context, db postgres.DBTX, s flightSet) ([]L, error) {
		return list(ctx, db, A{Flids: s.probe, SpanFirst: s.first, SpanLast: s.last})
	}
}
