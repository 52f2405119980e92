package flight

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/sis"
)

var (
	cst = time.FixedZone("CST", 8*3600)
	now = time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
)

func set(raw string) sis.Field { return sis.Field{Op: sis.Set, Type: sis.TypeText, Raw: raw} }

func setTime(raw string, t time.Time) sis.Field {
	return sis.Field{Op: sis.Set, Type: sis.TypeTime, Raw: raw, Time: t}
}

func gate(seq int64, code string) sis.Item {
	return sis.Item{HasSeq: true, Seq: seq, Fields: []sis.NamedField{{Name: "GATE", Field: set(code)}}}
}

// newRecord is a schedule record for a new flight on 2 Dec 2026 local time.
func newRecord(flid int64) *sis.FlightRecord {
	r := &sis.FlightRecord{FLID: flid}
	r.FFID = set("CA-CA101-D-02DEC260030-D")
	r.Scalars.Set(sis.SODT, setTime("02DEC260030", time.Date(2026, 12, 2, 0, 30, 0, 0, cst)))
	r.Scalars.Set(sis.ALCD, set("CA"))
	r.Scalars.Set(sis.STND, set("201"))
	r.Groups.Set(sis.GTDT, sis.GroupOp{Op: sis.Replace, Items: []sis.Item{gate(1, "A1"), gate(3, "A1"), gate(2, "B2")}})
	return r
}

func apply(t *testing.T, cur *State, rec *sis.FlightRecord, msg int64) Result {
	t.Helper()
	r, err := Next(cur, rec, false, msg, now, Sent{})
	require.NoError(t, err)
	return r
}

func TestNewFlight(t *testing.T) {
	r := apply(t, nil, newRecord(7), 100)
	require.True(t, r.Changed)
	require.True(t, r.Write)
	s := r.Next
	require.Equal(t, int64(1), s.StateVersion)
	require.Equal(t, int64(100), s.LastMessageID)
	require.Equal(t, Active, s.Lifecycle)
	require.Equal(t, time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC), s.OperationDay, "the local date of SODT, not the UTC one (1 Dec)")
	require.Equal(t, "CA-CA101-D-02DEC260030-D", s.Scalars["FFID"].Raw)
	require.Len(t, s.Groups[GroupGates], 3, "two gates with the same code stay two")
	require.Equal(t, int64(3), *s.Groups[GroupGates][1].SourceSeq)
	require.Equal(t, Replaced(1, Groups, nil).Groups, r.Changes.Groups, "a new flight writes every collection, at version 1")
}

func TestNewFlightWithoutSODTIsRefused(t *testing.T) {
	rec := newRecord(7)
	rec.Scalars.Set(sis.SODT, sis.Field{})
	_, err := Next(nil, rec, false, 1, now, Sent{})
	var re *RuleError
	require.True(t, errors.As(err, &re))
}

func TestFieldOperationsEachOnTheirOwn(t *testing.T) {
	cur := apply(t, nil, newRecord(7), 1).Next

	t.Run("Unchanged", func(t *testing.T) {
		r := apply(t, cur, &sis.FlightRecord{FLID: 7}, 2)
		require.False(t, r.Changed, "an empty record changes nothing")
		require.False(t, r.Write)
		require.Equal(t, cur.StateVersion, r.Next.StateVersion)
	})
	t.Run("Set", func(t *testing.T) {
		rec := &sis.FlightRecord{FLID: 7}
		rec.Scalars.Set(sis.STND, set("305"))
		r := apply(t, cur, rec, 2)
		require.True(t, r.Changed)
		require.Equal(t, "305", r.Next.Scalars["STND"].Raw)
		require.Equal(t, "CA", r.Next.Scalars["ALCD"].Raw, "other scalars are kept")
		require.Equal(t, int64(2), r.Next.StateVersion)
		require.Empty(t, r.Changes.Groups, "no collection is rewritten for a scalar change")
		require.Equal(t, "201", cur.Scalars["STND"].Raw, "the current state is not mutated")
	})
	t.Run("SetSameValueIsNoChange", func(t *testing.T) {
		rec := &sis.FlightRecord{FLID: 7}
		rec.Scalars.Set(sis.STND, set("201"))
		require.False(t, apply(t, cur, rec, 2).Changed)
	})
	t.Run("Clear", func(t *testing.T) {
		rec := &sis.FlightRecord{FLID: 7}
		rec.Scalars.Set(sis.STND, sis.Field{Op: sis.Clear})
		r := apply(t, cur, rec, 2)
		require.True(t, r.Changed)
		require.NotContains(t, r.Next.Scalars, "STND")
	})
	t.Run("Replace", func(t *testing.T) {
		rec := &sis.FlightRecord{FLID: 7}
		rec.Groups.Set(sis.GTDT, sis.GroupOp{Op: sis.Replace, Items: []sis.Item{gate(9, "C9")}})
		r := apply(t, cur, rec, 2)
		require.True(t, r.Changed)
		require.Equal(t, map[string]int64{GroupGates: r.Next.StateVersion}, r.Changes.Groups, "only the replaced group is written, at the new version")
		require.Len(t, r.Next.Groups[GroupGates], 1)
	})
	t.Run("ReplaceWithSameListIsNoChange", func(t *testing.T) {
		rec := &sis.FlightRecord{FLID: 7}
		rec.Groups.Set(sis.GTDT, newRecord(7).Groups.Get(sis.GTDT))
		r := apply(t, cur, rec, 2)
		require.False(t, r.Changed)
		require.Empty(t, r.Changes.Groups)
	})
	t.Run("ReplaceWithEmptyClears", func(t *testing.T) {
		rec := &sis.FlightRecord{FLID: 7}
		rec.Groups.Set(sis.GTDT, sis.GroupOp{Op: sis.Replace})
		r := apply(t, cur, rec, 2)
		require.True(t, r.Changed)
		require.Empty(t, r.Next.Groups[GroupGates])
		require.Equal(t, map[string]int64{GroupGates: r.Next.StateVersion}, r.Changes.Groups)
	})
	t.Run("StructSetAndClear", func(t *testing.T) {
		rec := &sis.FlightRecord{FLID: 7}
		rec.Structs.Set(sis.FDIV, sis.StructOp{Op: sis.Set, Text: "weather", Attrs: []sis.NamedField{{Name: "DDIR", Field: set("TO")}}})
		r := apply(t, cur, rec, 2)
		require.True(t, r.Changed)
		require.Equal(t, "TO", r.Next.Structs["FDIV"].Attrs["DDIR"])
		rec.Structs.Set(sis.FDIV, sis.StructOp{Op: sis.Clear})
		r = apply(t, r.Next, rec, 3)
		require.True(t, r.Changed)
		require.NotContains(t, r.Next.Structs, "FDIV")
	})
	t.Run("PayloadReplaceAndClear", func(t *testing.T) {
		rec := &sis.FlightRecord{FLID: 7}
		rec.Payloads.Set(sis.SRVT, sis.PayloadOp{Op: sis.Replace, Count: 1, XML: "<SRVT><SRTC>WCH</SRTC></SRVT>"})
		r := apply(t, cur, rec, 2)
		require.Equal(t, map[string]int64{"SRVT": r.Next.StateVersion}, r.Changes.Payloads)
		rec.Payloads.Set(sis.SRVT, sis.PayloadOp{Op: sis.Replace})
		r = apply(t, r.Next, rec, 3)
		require.Equal(t, map[string]int64{"SRVT": r.Next.StateVersion}, r.Changes.Payloads)
		require.NotContains(t, r.Next.Payloads, "SRVT")
	})
}

func TestOperationDayIsFixedOnce(t *testing.T) {
	cur := apply(t, nil, newRecord(7), 1).Next
	rec := &sis.FlightRecord{FLID: 7}
	rec.Scalars.Set(sis.SODT, setTime("03DEC260030", time.Date(2026, 12, 3, 0, 30, 0, 0, cst)))
	_, err := Next(cur, rec, false, 2, now, Sent{})
	var re *RuleError
	require.True(t, errors.As(err, &re), "a record moving the operation day is refused")

	rec.Scalars.Set(sis.SODT, setTime("02DEC262330", time.Date(2026, 12, 2, 23, 30, 0, 0, cst)))
	r := apply(t, cur, rec, 2)
	require.True(t, r.Changed, "a new SODT on the same day is fine")
}

func TestDeleteAndRevive(t *testing.T) {
	cur := apply(t, nil, newRecord(7), 1).Next
	r := Delete(cur, 2, now, Sent{})
	require.True(t, r.Changed)
	require.Equal(t, Deleted, r.Next.Lifecycle)
	require.Equal(t, int64(2), r.Next.StateVersion)
	again := Delete(r.Next, 3, now, Sent{})
	require.False(t, again.Changed, "deleting a deleted flight emits nothing")

	back, err := Next(r.Next, &sis.FlightRecord{FLID: 7}, true, 4, now, Sent{})
	require.NoError(t, err)
	require.True(t, back.Changed)
	require.Equal(t, Active, back.Next.Lifecycle)
	require.Nil(t, back.Next.DeletedAt)
	flop, err := Next(r.Next, &sis.FlightRecord{FLID: 7}, false, 4, now, Sent{})
	require.NoError(t, err)
	require.Equal(t, Deleted, flop.Next.Lifecycle, "a FLOP does not revive")
}

func TestSnapshotDayIsBookkeeping(t *testing.T) {
	cur := apply(t, nil, newRecord(7), 1).Next
	r := apply(t, cur, &sis.FlightRecord{FLID: 7}, 2)
	SetSnapshotDay(&r, cur.OperationDay)
	require.True(t, r.Write)
	require.False(t, r.Changed, "joining a snapshot generation is no business change")
	require.Equal(t, cur.StateVersion, r.Next.StateVersion)
}

// A state read back from the database holds SODT in UTC (here 1 Dec 16:30
// UTC for 2 Dec 00:30 local); a later message without SODT must keep the
// operation day instead of recomputing it from the UTC date.
func TestOperationDaySurvivesAStateReadBackInUTC(t *testing.T) {
	s := apply(t, nil, newRecord(7), 100).Next
	v := s.Scalars["SODT"]
	utc := v.Time.UTC()
	v.Time = &utc
	s.Scalars["SODT"] = v

	rec := &sis.FlightRecord{FLID: 7}
	rec.Scalars.Set(sis.STND, set("305"))
	r := apply(t, s, rec, 101)
	require.True(t, r.Changed)
	require.Equal(t, time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC), r.Next.OperationDay)
}

// The JSON of a value does not depend on the zone its time was read in.
func TestValueJSONIsZoneIndependent(t *testing.T) {
	local := time.Date(2026, 12, 2, 0, 30, 0, 0, cst)
	utc := local.UTC()
	a, err := json.Marshal(Value{Raw: "02DEC260030", Time: &local})
	require.NoError(t, err)
	b, err := json.Marshal(Value{Raw: "02DEC260030", Time: &utc})
	require.NoError(t, err)
	require.JSONEq(t, `{"raw":"02DEC260030","time":"2026-12-01T16:30:00Z"}`, string(a))
	require.Equal(t, string(a), string(b))
}

// A flight changed twice in one batch is written once; each collection keeps
// the version of the change that last replaced it.
func TestChangesMergeKeepsEachCollectionsVersion(t *testing.T) {
	first := Replaced(2, []string{GroupCheckins}, []string{"SRVT"})
	second := Replaced(3, []string{GroupGates, GroupCheckins}, nil)
	got := first.Merge(second)
	require.Equal(t, map[string]int64{GroupCheckins: 3, GroupGates: 3}, got.Groups)
	require.Equal(t, map[string]int64{"SRVT": 2}, got.Payloads)
	got = second.Merge(Replaced(4, []string{GroupBelts}, nil))
	require.Equal(t, map[string]int64{GroupCheckins: 3, GroupGates: 3, GroupBelts: 4}, got.Groups)
	require.Equal(t, map[string]int64{GroupGates: 3, GroupCheckins: 3}, second.Groups, "Merge leaves its operands alone")
}

// Next leaves the current state as it was: the next state's maps are
// copies, a nil map of a state read back becomes an empty one.
func TestNextLeavesTheCurrentStateAlone(t *testing.T) {
	cur := fullFlight(t)
	before, err := EventPayload(cur)
	require.NoError(t, err)
	rec := decodeFLOP(t, "GTDT", `<GTDT GTNO="1"><GATE>B7</GATE></GTDT>`)
	rec.Scalars.Set(sis.STND, set("999"))
	r := apply(t, cur, rec, 2)
	require.True(t, r.Changed)
	after, err := EventPayload(cur)
	require.NoError(t, err)
	require.Equal(t, string(before), string(after))
	require.Equal(t, "B7", r.Next.Groups[GroupGates][0].Fields["GATE"].Raw)

	bare := *cur
	bare.Structs, bare.Payloads = nil, nil
	r = apply(t, &bare, rec, 3)
	require.NotNil(t, r.Next.Structs)
	require.NotNil(t, r.Next.Payloads)

	// A record of scalars alone leaves the collections shared with cur; a
	// record of gates on that next state copies them before it writes, so
	// neither earlier state changes.
	scalars := &sis.FlightRecord{FLID: cur.FLID}
	scalars.Scalars.Set(sis.STND, set("998"))
	first := apply(t, cur, scalars, 4).Next
	firstBefore, err := EventPayload(first)
	require.NoError(t, err)
	second := apply(t, first, decodeFLOP(t, "GTDT", `<GTDT GTNO="1"><GATE>Z9</GATE></GTDT>`), 5).Next
	require.Equal(t, "Z9", second.Groups[GroupGates][0].Fields["GATE"].Raw)
	firstAfter, err := EventPayload(first)
	require.NoError(t, err)
	require.Equal(t, string(firstBefore), string(firstAfter))
	after, err = EventPayload(cur)
	require.NoError(t, err)
	require.Equal(t, string(before), string(after))

	// A record of gates alone shares the scalars (not copied); a record of
	// a scalar on that state copies them before it writes.
	require.Equal(t, reflect.ValueOf(first.Scalars).Pointer(), reflect.ValueOf(second.Scalars).Pointer(), "the scalars are shared")
	secondBefore, err := EventPayload(second)
	require.NoError(t, err)
	scalars.Scalars.Set(sis.STND, set("997"))
	third := apply(t, second, scalars, 6).Next
	require.Equal(t, "997", third.Scalars["STND"].Raw)
	secondAfter, err := EventPayload(second)
	require.NoError(t, err)
	require.Equal(t, string(secondBefore), string(secondAfter))
}

// Issue #34: a resend carries every group, mostly unchanged: Next shares
// cur's groups until one changes (no copy of the map per flight), and a
// change still copies them before it writes.
func TestNextSharesGroupsSentAgainUnchanged(t *testing.T) {
	cur := fullFlight(t)
	same := decodeFLOP(t, "GTDT", `<GTDT GTNO="1"><GATE>A1</GATE></GTDT><GTDT GTNO="2"><GATE>A2</GATE></GTDT><GTDT GTNO="3"><GATE>A3</GATE></GTDT>`)
	same.Scalars.Set(sis.STND, set("999"))
	r := apply(t, cur, same, 2)
	require.True(t, r.Changed)
	require.Empty(t, r.Changes.Groups)
	require.Equal(t, reflect.ValueOf(cur.Groups).Pointer(), reflect.ValueOf(r.Next.Groups).Pointer(), "groups copied")

	before, err := EventPayload(cur)
	require.NoError(t, err)
	changed := decodeFLOP(t, "GTDT", `<GTDT GTNO="1"><GATE>A1</GATE></GTDT><GTDT GTNO="2"><GATE>B2</GATE></GTDT>`)
	r = apply(t, cur, changed, 3)
	require.NotEqual(t, reflect.ValueOf(cur.Groups).Pointer(), reflect.ValueOf(r.Next.Groups).Pointer())
	require.Len(t, r.Next.Groups[GroupGates], 2)
	require.Contains(t, r.Changes.Groups, GroupGates)
	after, err := EventPayload(cur)
	require.NoError(t, err)
	require.Equal(t, string(before), string(after))
}
