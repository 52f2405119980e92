package report_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/db/report"
	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/maintenance"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// The history queries over flights the real sweep moved: a report of a day
// long past still finds its flights (ACTIVE and DELETED, details in the
// state), and a flight deleted today is still in the live tables, not in
// history (docs/reporting.md, "Flights in history").
func TestHistoryQueries(t *testing.T) {
	t.Parallel()
	pool := testdb.Postgres(t).Pool
	ctx := t.Context()
	s := pgstore.New(pool)
	written := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	gated := newState(1, map[string][]flight.Item{flight.GroupGates: {
		item(seq(7), map[string]flight.Value{"GATE": {Raw: "G7"}}), item(seq(2), map[string]flight.Value{"GATE": {Raw: "G2"}}),
	}})
	deleted := newState(2, map[string][]flight.Item{})
	deleted.Lifecycle, deleted.DeletedAt = flight.Deleted, &written
	bare := newState(3, map[string][]flight.Item{})
	all := flight.Replaced(1, flight.Groups, nil)
	require.NoError(t, s.WriteFlights(ctx, []vocab.FlightWrite{
		{State: gated, Changes: all, New: true}, {State: deleted, Changes: all, New: true}, {State: bare, Changes: all, New: true},
	}, written))

	// Ten days later a flight of that day is deleted: today's deletion stays live.
	now := day.AddDate(0, 0, 10).Add(9 * time.Hour)
	today := newState(4, map[string][]flight.Item{})
	today.OperationDay, today.Lifecycle, today.DeletedAt = now.Truncate(24*time.Hour), flight.Deleted, &now
	require.NoError(t, s.WriteFlights(ctx, []vocab.FlightWrite{{State: today, Changes: all, New: true}}, now))

	h := &maintenance.History{Base: maintenance.Base{Store: s, Clock: clock.NewFake(now)},
		At: maintenance.DailyAt{Hour: 3, Minute: 30, Location: time.UTC}, Retention: maintenance.DefaultHistoryRetention, Enabled: true}
	res, err := h.Run(ctx, false)
	require.NoError(t, err)
	require.Equal(t, 3, res.Rows)

	q := report.New()
	live, err := q.FlightsByDay(ctx, pool, report.FlightsByDayParams{OperationDay: day, PageSize: 10})
	require.NoError(t, err)
	require.Empty(t, live, "the day's flights left the live tables")
	kept, err := q.FlightsByDay(ctx, pool, report.FlightsByDayParams{OperationDay: today.OperationDay, PageSize: 10})
	require.NoError(t, err)
	require.Len(t, kept, 1, "deleted today: still live, still in the day's report")
	require.Equal(t, flight.Deleted, kept[0].Lifecycle)

	page, err := q.HistoryFlightsByDay(ctx, pool, report.HistoryFlightsByDayParams{OperationDay: day, PageSize: 2})
	require.NoError(t, err)
	require.Len(t, page, 2)
	require.EqualValues(t, 1, page[0].Flid)
	require.EqualValues(t, 2, page[1].Flid)
	require.Equal(t, flight.Deleted, page[1].Lifecycle)
	rest, err := q.HistoryFlightsByDay(ctx, pool, report.HistoryFlightsByDayParams{OperationDay: day,
		AfterFlid: page[1].Flid, AfterHstID: page[1].HstID, PageSize: 2})
	require.NoError(t, err)
	require.Len(t, rest, 1)
	require.EqualValues(t, 3, rest[0].Flid)
	none, err := q.HistoryFlightsByDay(ctx, pool, report.HistoryFlightsByDayParams{OperationDay: today.OperationDay, PageSize: 10})
	require.NoError(t, err)
	require.Empty(t, none)

	one, err := q.HistoryFlight(ctx, pool, 1)
	require.NoError(t, err)
	require.Equal(t, flight.Active, one.Lifecycle)
	require.True(t, day.Equal(one.OperationDay))
	var state struct {
		FLID   int64 `json:"flid"`
		Groups struct {
			GTDT []struct {
				Fields struct {
					GATE struct {
						Raw string `json:"raw"`
					} `json:"GATE"`
				} `json:"fields"`
			} `json:"GTDT"`
		} `json:"groups"`
	}
	require.NoError(t, json.Unmarshal([]byte(one.State), &state), one.State)
	require.EqualValues(t, 1, state.FLID)
	require.Len(t, state.Groups.GTDT, 2, "the details are in the state, in order: %s", one.State)
	require.Equal(t, "G7", state.Groups.GTDT[0].Fields.GATE.Raw, one.State)
	require.Equal(t, "G2", state.Groups.GTDT[1].Fields.GATE.Raw)

	sweeps, err := q.HistoryFlightSweeps(ctx, pool, 2)
	require.NoError(t, err)
	require.Len(t, sweeps, 1)
	require.True(t, now.Equal(sweeps[0].PurgedAt))

	days, err := q.HistoryDays(ctx, pool, report.HistoryDaysParams{DayFrom: day.AddDate(0, 0, -1), DayTo: day.AddDate(0, 0, 30)})
	require.NoError(t, err)
	require.Len(t, days, 1)
	require.EqualValues(t, 3, days[0].Flights)
	require.EqualValues(t, 1, days[0].Deleted)
}
