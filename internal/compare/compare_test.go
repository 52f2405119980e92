package compare

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/flight"
)

var (
	opDay = time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)
	t0    = time.Date(2026, 12, 3, 1, 0, 0, 0, time.UTC)
)

func p(s string) *string { return &s }

func sq(n int64) *int64 { return &n }

func gate(seq int64, code string) flight.Item {
	return flight.Item{SourceSeq: sq(seq), Fields: map[string]flight.Value{"GATE": {Raw: code}}}
}

// base is a flight with a scalar, a parsed time, a structure, three gates
// and a payload.
func base(flid int64) *flight.State {
	at := t0.Add(time.Hour)
	return &flight.State{
		FLID: flid, Lifecycle: flight.Active, OperationDay: opDay, StateVersion: 3, LastMessageID: 40,
		CreatedAt: t0, UpdatedAt: t0,
		Scalars: map[string]flight.Value{"FLNO": {Raw: "1501"}, "ESTT": {Raw: "03DEC261000", Time: &at}},
		Structs: map[string]flight.Struct{"FDIV": {Text: p("x"), Attrs: map[string]string{"DDES": "PEK"}}},
		Groups: map[string][]flight.Item{
			flight.GroupGates: {gate(1, "A1"), gate(5, "A5"), gate(5, "B5")},
		},
		Payloads: map[string]flight.Payload{"SRVT": {Format: "xml", Content: "<SRVT/>"}},
	}
}

func run(a, b map[int64]*flight.State, opt Options) ([]Diff, Summary) { return Compare(a, b, opt) }

func TestEqual(t *testing.T) {
	diffs, sum := run(map[int64]*flight.State{1: base(1)}, map[int64]*flight.State{1: base(1)}, Options{})
	require.Empty(t, diffs)
	require.Equal(t, Summary{Flights: 1, Equal: 1}, sum)
}

// Each kind of difference is one exact line: flight, group, item, field,
// kind and both values.
func TestEachKindOfDifference(t *testing.T) {
	a := base(1)
	later := t0.Add(2 * time.Hour)
	cases := []struct {
		name   string
		change func(b *flight.State)
		want   []Diff
	}{
		{"scalar value", func(b *flight.State) { b.Scalars["FLNO"] = flight.Value{Raw: "1502"} },
			[]Diff{{FLID: 1, Group: GroupFlight, Field: "FLNO", Kind: KindValue, A: p("1501"), B: p("1502")}}},
		{"parsed value only", func(b *flight.State) { b.Scalars["ESTT"] = flight.Value{Raw: "03DEC261000", Time: &later} },
			[]Diff{{FLID: 1, Group: GroupFlight, Field: "ESTT.time", Kind: KindValue, A: p("2026-12-03T02:00:00Z"), B: p("2026-12-03T03:00:00Z")}}},
		{"null vs empty", func(b *flight.State) { b.Scalars["REMC"] = flight.Value{Raw: ""} },
			[]Diff{{FLID: 1, Group: GroupFlight, Field: "REMC", Kind: KindNull, A: nil, B: p("")}}},
		{"order", func(b *flight.State) {
			b.Groups[flight.GroupGates] = []flight.Item{gate(5, "A5"), gate(1, "A1"), gate(5, "B5")}
		}, []Diff{{FLID: 1, Group: "GTDT", Field: "order", Kind: KindOrder,
			A: p(`1: SOURCE_SEQ=1 GATE="A1"; 2: SOURCE_SEQ=5 GATE="A5"; 3: SOURCE_SEQ=5 GATE="B5"`),
			B: p(`1: SOURCE_SEQ=5 GATE="A5"; 2: SOURCE_SEQ=1 GATE="A1"; 3: SOURCE_SEQ=5 GATE="B5"`)}}},
		{"item attribute and source seq", func(b *flight.State) {
			b.Groups[flight.GroupGates] = []flight.Item{gate(1, "A1"), gate(6, "A6"), gate(5, "B5")}
		}, []Diff{
			{FLID: 1, Group: "GTDT", Item: 2, Field: "SOURCE_SEQ", Kind: KindValue, A: p("5"), B: p("6")},
			{FLID: 1, Group: "GTDT", Item: 2, Field: "GATE", Kind: KindValue, A: p("A5"), B: p("A6")},
		}},
		{"extra item", func(b *flight.State) {
			b.Groups[flight.GroupGates] = append(b.Groups[flight.GroupGates], flight.Item{Fields: map[string]flight.Value{"GATE": {Raw: "C9"}}})
		}, []Diff{
			{FLID: 1, Group: "GTDT", Field: "count", Kind: KindCount, A: p("3"), B: p("4")},
			{FLID: 1, Group: "GTDT", Item: 4, Field: "item", Kind: KindExtra, A: nil, B: p(`SOURCE_SEQ=NULL GATE="C9"`)},
		}},
		{"empty group", func(b *flight.State) { b.Groups[flight.GroupGates] = nil },
			[]Diff{
				{FLID: 1, Group: "GTDT", Field: "count", Kind: KindCount, A: p("3"), B: p("0")},
				{FLID: 1, Group: "GTDT", Item: 1, Field: "item", Kind: KindExtra, A: p(`SOURCE_SEQ=1 GATE="A1"`)},
				{FLID: 1, Group: "GTDT", Item: 2, Field: "item", Kind: KindExtra, A: p(`SOURCE_SEQ=5 GATE="A5"`)},
				{FLID: 1, Group: "GTDT", Item: 3, Field: "item", Kind: KindExtra, A: p(`SOURCE_SEQ=5 GATE="B5"`)},
			}},
		{"structure", func(b *flight.State) { b.Structs["FDIV"] = flight.Struct{Text: p("x")} },
			[]Diff{{FLID: 1, Group: "FDIV", Field: "DDES", Kind: KindNull, A: p("PEK")}}},
		{"payload", func(b *flight.State) {
			b.Payloads["SRVT"] = flight.Payload{Format: "xml", Content: "<SRVT><X/></SRVT>"}
		},
			[]Diff{{FLID: 1, Group: GroupPayload, Field: "SRVT.content", Kind: KindValue, A: p("<SRVT/>"), B: p("<SRVT><X/></SRVT>")}}},
		{"lifecycle", func(b *flight.State) { b.Lifecycle = flight.Deleted },
			[]Diff{{FLID: 1, Group: GroupFlight, Field: "lifecycle", Kind: KindValue, A: p("ACTIVE"), B: p("DELETED")}}},
		{"bookkeeping", func(b *flight.State) { b.StateVersion = 4 },
			[]Diff{{FLID: 1, Group: GroupFlight, Field: "state_version", Kind: KindValue, A: p("3"), B: p("4")}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := base(1)
			c.change(b)
			diffs, sum := run(map[int64]*flight.State{1: a}, map[int64]*flight.State{1: b}, Options{})
			require.Equal(t, c.want, diffs)
			require.Equal(t, Summary{Flights: 1, Differing: 1, Differences: len(c.want)}, sum)
		})
	}
}

func TestMissingFlights(t *testing.T) {
	diffs, sum := run(map[int64]*flight.State{1: base(1), 2: base(2)}, map[int64]*flight.State{2: base(2), 3: base(3)}, Options{})
	require.Equal(t, []Diff{
		{FLID: 1, Group: GroupFlight, Field: "flight", Kind: KindOnlyA, A: p("ACTIVE")},
		{FLID: 3, Group: GroupFlight, Field: "flight", Kind: KindOnlyB, B: p("ACTIVE")},
	}, diffs)
	require.Equal(t, Summary{Flights: 3, Equal: 1, OnlyInA: 1, OnlyInB: 1, Differences: 2}, sum)
}

// Bookkeeping is left out only when named, column by column.
func TestIgnoreBookkeeping(t *testing.T) {
	a, b := base(1), base(1)
	b.StateVersion, b.LastMessageID, b.UpdatedAt = 9, 99, t0.Add(time.Minute)
	diffs, _ := run(map[int64]*flight.State{1: a}, map[int64]*flight.State{1: b}, Options{Ignore: []string{"state_version"}})
	require.Equal(t, []Diff{
		{FLID: 1, Group: GroupFlight, Field: "last_message_id", Kind: KindValue, A: p("40"), B: p("99")},
		{FLID: 1, Group: GroupFlight, Field: "updated_at", Kind: KindValue, A: p("2026-12-03T01:00:00Z"), B: p("2026-12-03T01:01:00Z")},
	}, diffs)
	diffs, _ = run(map[int64]*flight.State{1: a}, map[int64]*flight.State{1: b}, Options{Ignore: Bookkeeping})
	require.Empty(t, diffs)
}

// A mask compares only what the record carried: a value the DNLD left out
// is not compared, one it carried is, and bookkeeping is out of scope.
func TestMask(t *testing.T) {
	a, b := base(1), base(1)
	a.Scalars["STND"] = flight.Value{Raw: "S1"} // not in the DNLD
	b.StateVersion = 1                          // the DNLD has no versions
	b.Scalars["FLNO"] = flight.Value{Raw: "1502"}
	mask := &Mask{Scalars: map[string]bool{"FLNO": true}, Groups: map[string]bool{flight.GroupGates: true}}
	diffs, _ := run(map[int64]*flight.State{1: a}, map[int64]*flight.State{1: b}, Options{Masks: map[int64]*Mask{1: mask}})
	require.Equal(t, []Diff{{FLID: 1, Group: GroupFlight, Field: "FLNO", Kind: KindValue, A: p("1501"), B: p("1502")}}, diffs)
}
