package compare_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/msgx-aodb/msgx/internal/compare"
	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

var benchDay = time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)

// benchFlights is a day of n flights with 15 detail rows each (3 gates,
// 3 check-in counters, 2 belts, 1 planned stand, 2 chutes, 2 delays, a
// bridge and a chock operation), the shape of the 2 000-flight goal.
func benchFlights(n int) []vocab.FlightWrite {
	at := time.Date(2026, 12, 3, 2, 0, 0, 0, time.UTC)
	v := func(raw string) flight.Value { return flight.Value{Raw: raw} }
	tv := func(raw string) flight.Value { return flight.Value{Raw: raw, Time: &at} }
	it := func(seq int64, f map[string]flight.Value) flight.Item { return flight.Item{SourceSeq: &seq, Fields: f} }
	writes := make([]vocab.FlightWrite, n)
	for i := range n {
		s := &flight.State{FLID: int64(10000 + i), Lifecycle: flight.Active, OperationDay: benchDay, StateVersion: 2, LastMessageID: 7,
			Scalars: map[string]flight.Value{"FLNO": v(fmt.Sprintf("CA%d", i)), "SODT": tv("03DEC261000"), "STND": v("101"), "ESTT": tv("03DEC261010")},
			Structs: map[string]flight.Struct{}, Payloads: map[string]flight.Payload{},
			Groups: map[string][]flight.Item{
				flight.GroupGates:      {it(1, map[string]flight.Value{"GATE": v("A1"), "PGOT": tv("x")}), it(2, map[string]flight.Value{"GATE": v("A2")}), it(4, map[string]flight.Value{"GATE": v("A4")})},
				flight.GroupCheckins:   {it(1, map[string]flight.Value{"CHKC": v("C1")}), it(2, map[string]flight.Value{"CHKC": v("C2")}), it(3, map[string]flight.Value{"CHKC": v("C3")})},
				flight.GroupBelts:      {it(1, map[string]flight.Value{"BELT": v("B1")}), it(2, map[string]flight.Value{"BELT": v("B2")})},
				flight.GroupStandPlans: {it(1, map[string]flight.Value{"PSST": v("101"), "STST": tv("x")})},
				flight.GroupChutes:     {it(1, map[string]flight.Value{"CHUT": v("K1")}), it(2, map[string]flight.Value{"CHUT": v("K2")})},
				flight.GroupDelays:     {{Fields: map[string]flight.Value{"CODE": v("93")}}, {Fields: map[string]flight.Value{"CODE": v("41")}}},
				flight.GroupBridgeOps:  {it(1, map[string]flight.Value{"ABDG": v("J1"), "ABOP": v("A")})},
				flight.GroupChockOps:   {it(1, map[string]flight.Value{"CHID": v("ON")})},
			}}
		writes[i] = vocab.FlightWrite{State: s, New: true, Changes: flight.Replaced(1, flight.Groups, nil)}
	}
	return writes
}

// BenchmarkCompare2000: two databases of 2 000 flights × 15 details (issue
// goal: compared in ≤ 2 s). "read" is the baseline in the same run: reading
// both databases without comparing; "compare" reads both and compares.
func BenchmarkCompare2000(b *testing.B) {
	dbs := make([]*testdb.PG, 2)
	for i := range dbs {
		dbs[i] = testdb.Postgres(b)
		if err := pgstore.New(dbs[i].Pool).WriteFlights(b.Context(), benchFlights(2000), start); err != nil {
			b.Fatal(err)
		}
	}
	read := func(b *testing.B) (map[int64]*flight.State, map[int64]*flight.State) {
		x, err := compare.Load(b.Context(), dbs[0].Pool, compare.LoadOptions{Day: &benchDay})
		if err != nil {
			b.Fatal(err)
		}
		y, err := compare.Load(b.Context(), dbs[1].Pool, compare.LoadOptions{Day: &benchDay})
		if err != nil {
			b.Fatal(err)
		}
		return x.States, y.States
	}
	b.Run("read", func(b *testing.B) {
		for range b.N {
			read(b)
		}
	})
	b.Run("compare", func(b *testing.B) {
		for range b.N {
			x, y := read(b)
			diffs, sum := compare.Compare(x, y, compare.Options{})
			if len(diffs) != 0 || sum.Equal != 2000 {
				b.Fatalf("%d differences, %+v", len(diffs), sum)
			}
		}
	})
}
