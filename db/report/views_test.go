package report_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/db/report"
	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

var day = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

func at(h, m int) *time.Time {
	t := time.Date(2026, 11, 1, h, m, 0, 0, time.UTC)
	return &t
}

func seq(n int64) *int64 { return &n }

func minutes(n int32) *int32 { return &n }

func item(sq *int64, fields map[string]flight.Value) flight.Item {
	return flight.Item{SourceSeq: sq, Fields: fields}
}

func newState(flid int64, groups map[string][]flight.Item) *flight.State {
	return &flight.State{FLID: flid, Lifecycle: flight.Active, StateVersion: 1, LastMessageID: 1, OperationDay: day,
		Scalars:  map[string]flight.Value{"FLNO": {Raw: "1501"}, "STND": {Raw: "S9"}},
		Structs:  map[string]flight.Struct{},
		Groups:   groups,
		Payloads: map[string]flight.Payload{}}
}

// flight_report against the detail rows: four gates whose GTNO has gaps,
// repeats and a missing value (first and second follow ORDINAL, not
// GTNO), empty groups (count 0, NULL slots), the last delay, bridge and
// chock operation by ORDINAL, and a flight with no detail at all.
func TestFlightReportView(t *testing.T) {
	t.Parallel()
	pool := testdb.Postgres(t).Pool
	ctx := t.Context()
	s := pgstore.New(pool)
	rich := newState(1, map[string][]flight.Item{
		flight.GroupGates: {
			item(seq(7), map[string]flight.Value{"GATE": {Raw: "G7"}, "PGOT": {Raw: "x", Time: at(8, 0)}, "PGCT": {Raw: "y", Time: at(8, 40)}}),
			item(seq(2), map[string]flight.Value{"GATE": {Raw: "G2"}, "PGOT": {Raw: "x", Time: at(9, 0)}}),
			item(seq(2), map[string]flight.Value{"GATE": {Raw: "G2"}, "GTYP": {Raw: "B"}}),
			item(nil, map[string]flight.Value{"GATE": {Raw: "G1"}}),
		},
		flight.GroupCheckins:   {item(seq(1), map[string]flight.Value{"CHKC": {Raw: "C01"}, "PCOT": {Raw: "x", Time: at(6, 0)}})},
		flight.GroupBelts:      {},
		flight.GroupStandPlans: {item(seq(3), map[string]flight.Value{"PSST": {Raw: "P3"}}), item(seq(1), map[string]flight.Value{"PSST": {Raw: "P1"}, "STET": {Raw: "x", Time: at(10, 0)}})},
		flight.GroupChutes:     {item(seq(9), map[string]flight.Value{"CHUT": {Raw: "K9"}})},
		flight.GroupDelays: {
			item(nil, map[string]flight.Value{"CODE": {Raw: "93"}, "DURA": {Raw: "0010", Minutes: minutes(10)}}),
			item(nil, map[string]flight.Value{"CODE": {Raw: "81"}, "DURA": {Raw: "??"}}),
			item(nil, map[string]flight.Value{"CODE": {Raw: "41"}, "DURA": {Raw: "0105", Minutes: minutes(65)}}),
		},
		flight.GroupBridgeOps: {
			item(seq(1), map[string]flight.Value{"ABDG": {Raw: "B1"}, "ABOP": {Raw: "A"}}),
			item(seq(1), map[string]flight.Value{"ABDG": {Raw: "B1"}, "ABOP": {Raw: "D"}, "AOTM": {Raw: "x", Time: at(9, 30)}}),
		},
		flight.GroupChockOps: {
			item(seq(1), map[string]flight.Value{"CHID": {Raw: "ON"}}),
			item(seq(5), map[string]flight.Value{"CHID": {Raw: "OFF"}, "CHTM": {Raw: "x", Time: at(9, 35)}}),
		},
	})
	bare := newState(2, map[string][]flight.Item{})
	deleted := newState(3, map[string][]flight.Item{flight.GroupGates: {item(seq(1), map[string]flight.Value{"GATE": {Raw: "G7"}})}})
	deleted.Lifecycle = flight.Deleted
	all := flight.Replaced(1, flight.Groups, nil)
	require.NoError(t, s.WriteFlights(ctx, []vocab.FlightWrite{
		{State: rich, Changes: all, New: true}, {State: bare, Changes: all, New: true}, {State: deleted, Changes: all, New: true},
	}, time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)))

	q := report.New()
	rows, err := q.FlightReportsByDay(ctx, pool, report.FlightReportsByDayParams{OperationDay: day, PageSize: 10})
	require.NoError(t, err)
	require.Len(t, rows, 3, "one row per flight, DELETED included")
	r := rows[0]
	require.EqualValues(t, 1, r.Flid)

	// The slots are the detail rows with ORDINAL 1 and 2.
	gates, err := q.FlightGates(ctx, pool, 1)
	require.NoError(t, err)
	require.EqualValues(t, len(gates), r.GateCount)
	require.Equal(t, gates[0].Gate, r.Gate1)
	require.Equal(t, gates[0].PgotAt, r.Gate1PgotAt)
	require.Equal(t, gates[0].PgctAt, r.Gate1PgctAt)
	require.Equal(t, gates[1].Gate, r.Gate2)
	require.Equal(t, gates[1].PgotAt, r.Gate2PgotAt)
	require.Nil(t, r.Gate2PgctAt)
	// Literally: G7 (GTNO 7) is first because it was sent first.
	require.Equal(t, "G7", *r.Gate1)
	require.Equal(t, "G2", *r.Gate2)
	require.EqualValues(t, 4, r.GateCount)
	require.True(t, at(8, 0).Equal(*r.Gate1PgotAt))

	require.EqualValues(t, 1, r.CheckinCount)
	require.Equal(t, "C01", *r.Checkin1)
	require.True(t, at(6, 0).Equal(*r.Checkin1PcotAt))
	require.Nil(t, r.Checkin2)
	require.Nil(t, r.Checkin2PcotAt)

	require.EqualValues(t, 0, r.BeltCount, "an empty group counts 0")
	require.Nil(t, r.Belt1)
	require.Nil(t, r.Belt2)

	require.EqualValues(t, 2, r.StandPlanCount)
	require.Equal(t, "P3", *r.StandPlan1)
	require.Equal(t, "P1", *r.StandPlan2)
	require.True(t, at(10, 0).Equal(*r.StandPlan2StetAt))
	require.Equal(t, "S9", *r.Stnd)

	require.EqualValues(t, 1, r.ChuteCount)
	require.Equal(t, "K9", *r.Chute1)

	require.EqualValues(t, 3, r.DelayCount)
	require.EqualValues(t, 75, r.DelayTotalMinutes, "parsed durations only")
	require.Equal(t, "41", *r.LastDelayCode)
	require.EqualValues(t, 65, *r.LastDelayMinutes)

	require.EqualValues(t, 2, r.BridgeOpCount)
	require.Equal(t, "B1", *r.Bridge)
	require.Equal(t, "D", *r.BridgeState)
	require.True(t, at(9, 30).Equal(*r.BridgeAt))
	require.EqualValues(t, 2, r.ChockOpCount)
	require.Equal(t, "OFF", *r.ChockState)
	require.True(t, at(9, 35).Equal(*r.ChockAt))

	// A flight without details: every count 0, every slot NULL.
	b := rows[1]
	require.EqualValues(t, 2, b.Flid)
	require.Zero(t, b.GateCount+b.CheckinCount+b.BeltCount+b.StandPlanCount+b.ChuteCount+b.DelayCount+b.BridgeOpCount+b.ChockOpCount)
	require.Zero(t, b.DelayTotalMinutes)
	require.Nil(t, b.Gate1)
	require.Nil(t, b.LastDelayCode)
	require.Nil(t, b.BridgeState)
	require.Nil(t, b.ChockState)

	require.Equal(t, flight.Deleted, rows[2].Lifecycle)
	one, err := q.FlightReport(ctx, pool, 3)
	require.NoError(t, err)
	require.Equal(t, rows[2], one)

	// Usage and delays count ACTIVE flights only (flight 3 is DELETED).
	usage, err := q.GateUsageByDay(ctx, pool, day)
	require.NoError(t, err)
	require.Equal(t, []report.GateUsageByDayRow{
		{Gate: "G1", Flights: 1, Flids: []int64{1}},
		{Gate: "G2", Flights: 1, Flids: []int64{1}},
		{Gate: "G7", Flights: 1, Flids: []int64{1}},
	}, usage)
	stands, err := q.StandUsageByDay(ctx, pool, day)
	require.NoError(t, err)
	require.Len(t, stands, 2)
	belts, err := q.BeltUsageByDay(ctx, pool, day)
	require.NoError(t, err)
	require.Empty(t, belts)
	delays, err := q.DelaysByCode(ctx, pool, day)
	require.NoError(t, err)
	require.Len(t, delays, 3)
	require.Equal(t, "41", *delays[0].Code)
	require.EqualValues(t, 65, delays[0].TotalMinutes)

	ids, err := q.FlightIDs(ctx, pool, report.FlightIDsParams{PageSize: 10})
	require.NoError(t, err)
	require.Equal(t, []int64{1, 2, 3}, ids)
	other := day.AddDate(0, 0, 1)
	ids, err = q.FlightIDs(ctx, pool, report.FlightIDsParams{OperationDay: &other, PageSize: 10})
	require.NoError(t, err)
	require.Empty(t, ids)
}
