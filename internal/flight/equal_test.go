package flight

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/sis"
)

// A resend's unchanged lists and values are compared with the current state
// without building items or values (issue #34): the shortcut must agree with
// building them and comparing, on every kind of difference (only where a
// name is set twice with different values may it say "different" for equal
// lists: Next then builds them and compares), and a list sent again
// unchanged keeps the current items.
func TestSameItemsAgreesWithBuildingThem(t *testing.T) {
	at := time.Date(2026, 12, 2, 10, 0, 0, 0, cst)
	delay := func(code, reason string, mins int64) sis.Item {
		return sis.Item{
			Attrs: []sis.NamedField{{Name: "CODE", Field: set(code)}, {Name: "DURA", Field: sis.Field{Op: sis.Set, Type: sis.TypeDuration, Raw: "0030", Num: mins}}},
			Text:  set(reason),
		}
	}
	timed := func(seq int64, raw string, t time.Time) sis.Item {
		return sis.Item{HasSeq: true, Seq: seq, Fields: []sis.NamedField{{Name: "GATE", Field: set("A1")}, {Name: "GOTM", Field: setTime(raw, t)}}}
	}
	cur := [][]sis.Item{
		{gate(1, "A1"), gate(2, "B2")},
		{delay("93", "late", 30)},
		{timed(1, "02DEC261000", at)},
	}
	variants := [][]sis.Item{
		{gate(1, "A1"), gate(2, "B2")}, // same
		{gate(1, "A1")},                // shorter
		{gate(1, "A1"), gate(2, "B3")}, // a value
		{gate(1, "A1"), gate(3, "B2")}, // a sequence number
		{gate(1, "A1"), {Fields: []sis.NamedField{{Name: "GATE", Field: set("B2")}}}},                                                                        // no sequence number
		{gate(1, "A1"), {HasSeq: true, Seq: 2, Fields: []sis.NamedField{{Name: "GATE", Field: set("B2")}, {Name: "GTYP", Field: set("R")}}}},                 // a field more
		{gate(1, "A1"), {HasSeq: true, Seq: 2, Fields: []sis.NamedField{{Name: "GATE", Field: set("X")}, {Name: "GATE", Field: set("B2")}}}},                 // a name twice, the last wins
		{gate(1, "A1"), {HasSeq: true, Seq: 2, Fields: []sis.NamedField{{Name: "GATE", Field: set("B2")}, {Name: "GATE", Field: set("B2")}}}},                // a name twice, same
		{gate(1, "A1"), {HasSeq: true, Seq: 2, Fields: []sis.NamedField{{Name: "GATE", Field: set("B2")}, {Name: "GTYP", Field: sis.Field{Op: sis.Clear}}}}}, // a cleared field
		{delay("93", "late", 30)},
		{delay("93", "later", 30)},
		{delay("93", "late", 45)},
		{timed(1, "02DEC261000", at)},
		{timed(1, "02DEC261000", at.UTC())},            // the same instant in UTC (read back)
		{timed(1, "02DEC261000", at.Add(time.Minute))}, // another instant
		{timed(1, "02DEC261001", at)},                  // another raw text
		{{HasSeq: true, Seq: 1, Fields: []sis.NamedField{{Name: "GATE", Field: set("A1")}, {Name: "GOTM", Field: set("02DEC261000")}}}}, // text, not a time
	}
	for i, c := range cur {
		current := build(c)
		for j, v := range variants {
			t.Run(fmt.Sprintf("%d-%d", i, j), func(t *testing.T) {
				want := itemsEqual(current, build(v))
				if j == 6 {
					require.False(t, sameItems(current, v))
					return
				}
				require.Equal(t, want, sameItems(current, v))
			})
		}
	}

	rec := &sis.FlightRecord{FLID: 7}
	rec.Groups.Set(sis.GTDT, newRecord(7).Groups.Get(sis.GTDT))
	base := apply(t, nil, newRecord(7), 1).Next
	r := apply(t, base, rec, 2)
	require.False(t, r.Changed)
	require.Same(t, &base.Groups[GroupGates][0], &r.Next.Groups[GroupGates][0], "the current items are kept")
}

func build(items []sis.Item) []Item {
	out := make([]Item, len(items))
	for i := range items {
		out[i] = item(&items[i])
	}
	return out
}
