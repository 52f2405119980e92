package storetest

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

var shanghai = time.FixedZone("CST", 8*3600)

func at(day, hh, mm int) *time.Time {
	t := time.Date(2026, 12, day, hh, mm, 0, 0, shanghai)
	return &t
}

func raw(s string) flight.Value { return flight.Value{Raw: s} }

func timed(s string, t *time.Time) flight.Value { return flight.Value{Raw: s, Time: t} }

func item(seq int64, fields map[string]flight.Value) flight.Item {
	return flight.Item{SourceSeq: &seq, Fields: fields}
}

// RichFlight has every kind of value: scalars raw and parsed, structures,
// every group (three gates with non-contiguous GTNO, two of them the same gate
// with different attributes; repeated bridge and chock operations; several
// delays; both route lists) and payloads. Written with AllChanged, it is also
// the flight the adapters' read benchmarks read back.
func RichFlight(flid int64) *flight.State {
	return &flight.State{
		FLID: flid,
		Scalars: map[string]flight.Value{
			"FFID": raw("CA-CA101-D-02DEC261345-D"),
			"ALCD": raw("CA"), "FLNO": raw("CA101"), "MVIN": raw("D"), "FLIN": raw("D"),
			"SODT": timed("02DEC261345", at(2, 13, 45)),
			"ESTT": timed("02DEC261400", at(2, 14, 0)),
			"REMC": raw("延误 — 天气"),
			"SCHT": {Raw: "0215", Minutes: ptr(int32(135))},
		},
		Structs: map[string]flight.Struct{
			"FDIV": {Text: ptr("diverted"), Attrs: map[string]string{"DDES": "PEK", "DDIR": "TO"}},
			"FLAB": {Attrs: map[string]string{"ARES": "O"}},
		},
		Groups: map[string][]flight.Item{
			flight.GroupGates: {
				item(1, map[string]flight.Value{"GATE": raw("A12"), "PGOT": timed("02DEC261300", at(2, 13, 0)), "GTYP": raw("C")}),
				item(5, map[string]flight.Value{"GATE": raw("A12"), "PGOT": timed("02DEC261310", at(2, 13, 10)), "GTYP": raw("R")}),
				item(3, map[string]flight.Value{"GATE": raw("B07")}),
			},
			flight.GroupCheckins: {item(1, map[string]flight.Value{"CHKC": raw("101"), "CCLS": raw("Y")})},
			flight.GroupBelts:    {item(2, map[string]flight.Value{"BELT": raw("7"), "FBAG": raw("02DEC261500")})},
			flight.GroupStandPlans: {
				item(1, map[string]flight.Value{"PSST": raw("201"), "STST": timed("02DEC261200", at(2, 12, 0)), "STET": timed("02DEC261400", at(2, 14, 0))}),
			},
			flight.GroupChutes: {item(1, map[string]flight.Value{"CHUT": raw("C3")})},
			flight.GroupDelays: {
				{Fields: map[string]flight.Value{"CODE": raw("93"), "DURA": {Raw: "0030", Minutes: ptr(int32(30))}, "REASON": raw("late inbound")}},
				{Fields: map[string]flight.Value{"CODE": raw("71"), "STRT": timed("02DEC261350", at(2, 13, 50)), "REASON": raw("天气")}},
			},
			flight.GroupBridgeOps: {
				item(1, map[string]flight.Value{"ABDG": raw("B1"), "ABOP": raw("A"), "AOTM": timed("02DEC261210", at(2, 12, 10))}),
				item(2, map[string]flight.Value{"ABDG": raw("B1"), "ABOP": raw("D"), "AOTM": timed("02DEC261340", at(2, 13, 40))}),
				item(3, map[string]flight.Value{"ABDG": raw("B1"), "ABOP": raw("A"), "AOTM": timed("02DEC261341", at(2, 13, 41))}),
			},
			flight.GroupChockOps: {
				item(1, map[string]flight.Value{"CHID": raw("ON"), "CHTM": timed("02DEC261205", at(2, 12, 5))}),
				item(1, map[string]flight.Value{"CHID": raw("OFF"), "CHTM": timed("02DEC261346", at(2, 13, 46))}),
			},
			flight.GroupRoute: {
				item(1, map[string]flight.Value{"APCD": raw("CAN")}),
				item(2, map[string]flight.Value{"APCD": raw("PEK"), "SCAT": timed("02DEC261700", at(2, 17, 0)), "SADC": {Raw: "+1", Days: ptr(int32(1))}}),
			},
			flight.GroupExtraRoute: {item(1, map[string]flight.Value{"APCD": raw("SHA")})},
		},
		Payloads: map[string]flight.Payload{
			"SRVT": {Format: "xml", Content: "<SRVT><SRTC>WCH</SRTC></SRVT>"},
			"VIPF": {Format: "xml", Content: "<VIPF><VPCD>1</VPCD><VIPT><VSCD>A</VSCD></VIPT></VIPF>"},
		},
		// Rule 19's stamps: a name, a group, a payload kind, the lifecycle
		// and the upgrade's default, each of its own second.
		Stamps: flight.Stamps{
			"STND": at(2, 7, 30).UTC(), flight.GroupGates: at(2, 7, 31).UTC(), "SRVT": at(2, 7, 32).UTC(),
			flight.StampLifecycle: at(2, 6, 0).UTC(), flight.StampDefault: at(2, 6, 1).UTC(),
		},
		OperationDay:  time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC),
		Lifecycle:     flight.Active,
		StateVersion:  1,
		LastMessageID: 42,
	}
}

// AllChanged is a write of every collection of a state of version 1.
var AllChanged = flight.Replaced(1, flight.Groups, flight.PayloadKinds)

func write(t *testing.T, s store.Executor, now time.Time, states ...*flight.State) {
	t.Helper()
	ws := make([]vocab.FlightWrite, len(states))
	for i, st := range states {
		ws[i] = vocab.FlightWrite{State: st, Changes: AllChanged}
	}
	require.NoError(t, s.WriteFlights(ctx(t), ws, now))
}

func read(t *testing.T, s store.Executor, flid int64) *flight.State {
	t.Helper()
	got, err := s.Flights(ctx(t), []int64{flid})
	require.NoError(t, err)
	require.Contains(t, got, flid)
	return got[flid]
}

// business renders the business content of a state (times in UTC, without
// the store's own timestamps) so two states compare by what they mean.
func business(t *testing.T, s *flight.State) string {
	t.Helper()
	c := *s
	c.CreatedAt, c.UpdatedAt = time.Time{}, time.Time{}
	b, err := json.Marshal(c)
	require.NoError(t, err)
	var v any
	require.NoError(t, json.Unmarshal(b, &v))
	normalizeTimes(v)
	out, err := json.MarshalIndent(v, "", " ")
	require.NoError(t, err)
	return string(out)
}

func normalizeTimes(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if str, ok := e.(string); ok {
				if tm, err := time.Parse(time.RFC3339Nano, str); err == nil {
					x[k] = tm.UTC().Format(time.RFC3339Nano)
				}
				continue
			}
			normalizeTimes(e)
		}
	case []any:
		for _, e := range x {
			normalizeTimes(e)
		}
	}
}

func testFlights(t *testing.T, newStore Factory) {
	t.Run("EverythingReadsBackIdenticalAndInOrder", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		want := RichFlight(1001)
		for _, isNew := range []bool{true, false} { // created, then rewritten in place
			require.NoError(t, s.WriteFlights(ctx(t), []vocab.FlightWrite{{State: want, Changes: AllChanged, New: isNew}}, t0))
			require.Equal(t, business(t, want), business(t, read(t, s, 1001)))
		}
		err := s.WriteFlights(ctx(t), []vocab.FlightWrite{{State: want, Changes: AllChanged, New: true}}, t0)
		require.ErrorIs(t, err, store.ErrDuplicate, "a flight written as new must not exist yet")
		got := read(t, s, 1001)

		gates := got.Groups[flight.GroupGates]
		require.Len(t, gates, 3)
		require.Equal(t, []int64{1, 5, 3}, []int64{*gates[0].SourceSeq, *gates[1].SourceSeq, *gates[2].SourceSeq}, "non-contiguous GTNO kept in input order")
		require.Equal(t, "A12", gates[0].Fields["GATE"].Raw)
		require.Equal(t, "A12", gates[1].Fields["GATE"].Raw, "same gate twice stays twice")
		require.NotEqual(t, gates[0].Fields["GTYP"], gates[1].Fields["GTYP"])
		require.Nil(t, got.Groups[flight.GroupDelays][0].SourceSeq, "DELY has no sequence number")
		require.True(t, got.CreatedAt.Equal(t0))
	})

	t.Run("StampsReadBackAndClear", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		want := RichFlight(1002)
		write(t, s, t0, want)
		got := read(t, s, 1002)
		require.Equal(t, want.Stamps, got.Stamps, "every stamp, to the second, in UTC")

		next := RichFlight(1002)
		next.StateVersion = 2
		next.Stamps = flight.Stamps{"STND": at(2, 8, 0).UTC()}
		require.NoError(t, s.WriteFlights(ctx(t), []vocab.FlightWrite{{State: next}}, t0))
		require.Equal(t, next.Stamps, read(t, s, 1002).Stamps, "a write replaces the stamps whole")

		next.Stamps = nil
		require.NoError(t, s.WriteFlights(ctx(t), []vocab.FlightWrite{{State: next}}, t0))
		require.Nil(t, read(t, s, 1002).Stamps, "no stamp known")
	})

	t.Run("ReplacingOneCollectionLeavesOthersUntouched", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		write(t, s, t0, RichFlight(7))

		next := RichFlight(7)
		next.StateVersion = 2
		next.Groups[flight.GroupGates] = []flight.Item{item(9, map[string]flight.Value{"GATE": raw("C01")})}
		next.Groups[flight.GroupDelays] = nil       // changed in memory, but not in Changes:
		next.Payloads = map[string]flight.Payload{} // neither are the payloads
		require.NoError(t, s.WriteFlights(ctx(t), []vocab.FlightWrite{{State: next, Changes: flight.Replaced(2, []string{flight.GroupGates}, nil)}}, t0.Add(time.Minute)))

		got := read(t, s, 7)
		want := RichFlight(7)
		want.StateVersion = 2
		want.Groups[flight.GroupGates] = next.Groups[flight.GroupGates]
		require.Equal(t, business(t, want), business(t, got))
		require.True(t, got.CreatedAt.Equal(t0), "created_at survives an update")
		require.True(t, got.UpdatedAt.Equal(t0.Add(time.Minute)))

		// ROUT and ERUT are replaced independently; replace-with-empty clears.
		next = got
		next.Groups[flight.GroupExtraRoute] = nil
		delete(next.Payloads, "SRVT")
		require.NoError(t, s.WriteFlights(ctx(t), []vocab.FlightWrite{{State: next, Changes: flight.Replaced(next.StateVersion, []string{flight.GroupExtraRoute}, []string{"SRVT"})}}, t0))
		got = read(t, s, 7)
		require.Empty(t, got.Groups[flight.GroupExtraRoute])
		require.Len(t, got.Groups[flight.GroupRoute], 2)
		require.NotContains(t, got.Payloads, "SRVT")
		require.Contains(t, got.Payloads, "VIPF")
	})

	t.Run("ClearedScalarsAndStructsBecomeAbsent", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		write(t, s, t0, RichFlight(8))
		next := RichFlight(8)
		delete(next.Scalars, "ESTT")
		delete(next.Structs, "FDIV")
		write(t, s, t0, next)
		got := read(t, s, 8)
		require.NotContains(t, got.Scalars, "ESTT")
		require.NotContains(t, got.Structs, "FDIV")
		require.Contains(t, got.Structs, "FLAB")
	})

	t.Run("StampsFollowEveryWrite", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		write(t, s, t0, RichFlight(11), RichFlight(12))
		stamps, err := s.FlightStamps(ctx(t), []int64{11, 12, 999})
		require.NoError(t, err)
		require.Len(t, stamps, 2, "unknown FLIDs are simply absent")
		require.Equal(t, int64(1), stamps[11].StateVersion)
		require.True(t, stamps[11].UpdatedAt.Equal(t0))

		// A write that bumps no version (snapshot-day bookkeeping) still
		// moves the stamp.
		later := t0.Add(1500 * time.Microsecond)
		next := read(t, s, 11)
		next.FDay = ptr(time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC))
		require.NoError(t, s.WriteFlights(ctx(t), []vocab.FlightWrite{{State: next}}, later))
		stamps, err = s.FlightStamps(ctx(t), []int64{11})
		require.NoError(t, err)
		require.Equal(t, int64(1), stamps[11].StateVersion)
		require.True(t, stamps[11].UpdatedAt.Equal(later), "%v", stamps[11].UpdatedAt)
	})

	// A batch as a FLOP drain or a DNLD writes it (PostgreSQL sends one of
	// 16 flights or more as an array per column): every flight reads back
	// as written, values cleared in some flights only, one flight that did
	// not exist yet, CREATED_AT kept.
	t.Run("ABatchOfFlightsReadsBackAsWritten", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		const n = 40
		var first []*flight.State
		for i := int64(1); i < n; i++ {
			first = append(first, RichFlight(300+i))
		}
		write(t, s, t0, first...)
		later := t0.Add(time.Minute)
		var batch []vocab.FlightWrite
		for i := int64(1); i <= n; i++ {
			next := RichFlight(300 + i)
			next.StateVersion, next.LastMessageID = 2, 43
			next.CreatedAt = t0
			if i%2 == 0 {
				delete(next.Scalars, "ESTT")
				delete(next.Structs, "FDIV")
				next.Stamps = flight.Stamps{"STND": at(2, 8, 0).UTC()}
			} else {
				next.Scalars["REMC"] = raw(fmt.Sprintf("batch %d \"q\" \\ é", i))
			}
			if i == n {
				next.CreatedAt = time.Time{} // new: created now
			}
			batch = append(batch, vocab.FlightWrite{State: next, Changes: AllChanged})
		}
		require.NoError(t, s.WriteFlights(ctx(t), batch, later))
		for _, w := range batch {
			got := read(t, s, w.State.FLID)
			require.Equal(t, business(t, w.State), business(t, got), "flight %d", w.State.FLID)
			require.True(t, got.UpdatedAt.Equal(later))
			created := t0
			if w.State.FLID == 300+n {
				created = later
			}
			require.True(t, got.CreatedAt.Equal(created), "flight %d created %v", w.State.FLID, got.CreatedAt)
		}
	})

	t.Run("ManyFlightsByDayAndUnknown", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		var states []*flight.State
		for i := int64(1); i <= 5; i++ {
			states = append(states, RichFlight(100+i))
		}
		other := RichFlight(200)
		other.OperationDay = time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)
		write(t, s, t0, append(states, other)...)

		got, err := s.Flights(ctx(t), []int64{101, 105, 999})
		require.NoError(t, err)
		require.Len(t, got, 2, "unknown FLIDs are simply absent")
		require.Len(t, got[105].Groups[flight.GroupGates], 3)

		day := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
		page, err := s.FlightsByDay(ctx(t), store.FlightsByDayParams{Day: day, Limit: 3})
		require.NoError(t, err)
		require.Equal(t, []int64{101, 102, 103}, flids(page))
		page, err = s.FlightsByDay(ctx(t), store.FlightsByDayParams{Day: day, AfterFLID: 103, Limit: 3})
		require.NoError(t, err)
		require.Equal(t, []int64{104, 105}, flids(page))
		require.Len(t, page[1].Groups[flight.GroupBridgeOps], 3)
	})
}

func flids(states []*flight.State) []int64 {
	out := []int64{}
	for _, s := range states {
		out = append(out, s.FLID)
	}
	return out
}
