package pgstore

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/db/postgres"
	"github.com/msgx-aodb/msgx/internal/flight"
)

// The *ListByFlights statements promise no order (issue #34): whatever order
// the rows come in, each flight's group is its rows in ordinal order, and
// each route kind its own. The rows of a flight not asked for (3: inside a
// span, between two that were) are dropped.
func TestDetailRowsInAnyOrder(t *testing.T) {
	s := func(v string) *string { return &v }
	gates := []postgres.GateListByFlightsRow{
		{Flid: 2, Ordinal: 2, Gate: s("B2")},
		{Flid: 1, Ordinal: 2, Gate: s("A2")},
		{Flid: 2, Ordinal: 1, Gate: s("B1")},
		{Flid: 1, Ordinal: 1, Gate: s("A1")},
		{Flid: 3, Ordinal: 1, Gate: s("C1")},
		{Flid: 1, Ordinal: 3, Gate: s("A3")},
	}
	route := []postgres.RoutePointListByFlightsRow{
		{Flid: 1, RouteKind: flight.GroupExtraRoute, Ordinal: 1, Apcd: s("E1")},
		{Flid: 1, RouteKind: flight.GroupRoute, Ordinal: 2, Apcd: s("R2")},
		{Flid: 2, RouteKind: flight.GroupRoute, Ordinal: 1, Apcd: s("S1")},
		{Flid: 3, RouteKind: flight.GroupRoute, Ordinal: 1, Apcd: s("T1")},
		{Flid: 1, RouteKind: flight.GroupRoute, Ordinal: 1, Apcd: s("R1")},
	}
	q := postgres.New()
	gt := newTable(flight.GroupGates, "",
		func(context.Context, postgres.DBTX, flightSet) ([]postgres.GateListByFlightsRow, error) {
			return gates, nil
		},
		q.GateDeleteByFlights, q.GateInsert)
	listRoute := func(context.Context, postgres.DBTX, flightSet) ([]postgres.RoutePointListByFlightsRow, error) {
		return route, nil
	}
	rt := routeTables{
		newTable(flight.GroupRoute, flight.GroupRoute, listRoute, routeDelete(q, flight.GroupRoute), q.RoutePointInsert),
		newTable(flight.GroupExtraRoute, flight.GroupExtraRoute, listRoute, routeDelete(q, flight.GroupExtraRoute), q.RoutePointInsert),
	}
	into := map[int64]*flight.State{}
	for _, flid := range []int64{1, 2} {
		into[flid] = &flight.State{FLID: flid, Groups: map[string][]flight.Item{}}
	}
	require.NoError(t, gt.load(t.Context(), executor{}, flightSet{first: 1, last: 3}, into))
	require.NoError(t, rt.load(t.Context(), executor{}, flightSet{first: 1, last: 3}, into))
	raws := func(flid int64, group, field string) []string {
		var out []string
		for _, it := range into[flid].Groups[group] {
			out = append(out, it.Fields[field].Raw)
		}
		return out
	}
	require.Equal(t, []string{"A1", "A2", "A3"}, raws(1, flight.GroupGates, "GATE"))
	require.Equal(t, []string{"B1", "B2"}, raws(2, flight.GroupGates, "GATE"))
	require.Equal(t, []string{"R1", "R2"}, raws(1, flight.GroupRoute, "APCD"))
	require.Equal(t, []string{"E1"}, raws(1, flight.GroupExtraRoute, "APCD"))
	require.Equal(t, []string{"S1"}, raws(2, flight.GroupRoute, "APCD"))
}
