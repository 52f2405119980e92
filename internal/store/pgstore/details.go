package pgstore

import (
	"context"
	"reflect"
	"time"

	"github.com/msgx-aodb/msgx/db/postgres"
	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// detailTable is one detail collection: how to load it for many flights and
// how to replace it for the flights whose message replaced it.
type detailTable interface {
	load(ctx context.Context, e executor, flids []int64, into map[int64]*flight.State) error
	replace(ctx context.Context, e executor, writes []vocab.FlightWrite, now time.Time) error
}

// table binds a group to its generated row type R and insert params P (P has
// exactly R's fields, so P(row) converts). The common columns flid, ordinal,
// source_seq, record_version, created_at, updated_at are found by name like
// the value columns.
type table[R, P any] struct {
	group  string
	kind   string // ROUT/ERUT for the shared route-point table (loaded by routeTables), else ""
	cols   valueColumns
	common commonColumns
	list   func(ctx context.Context, db postgres.DBTX, flids []int64) ([]R, error)
	del    func(ctx context.Context, db postgres.DBTX, flids []int64) (int64, error)
	ins    func(ctx context.Context, db postgres.DBTX, rows []P) (int64, error)
	conv   func(R) P
}

type commonColumns struct{ flid, ordinal, sourceSeq, recordVersion, createdAt, updatedAt, routeKind int }

func newTable[R, P any](group, kind string,
	list func(context.Context, postgres.DBTX, []int64) ([]R, error),
	del func(context.Context, postgres.DBTX, []int64) (int64, error),
	ins func(context.Context, postgres.DBTX, []P) (int64, error),
	conv func(R) P) *table[R, P] {
	rt := reflect.TypeFor[R]()
	idx := func(col string) int {
		for i := 0; i < rt.NumField(); i++ {
			if rt.Field(i).Tag.Get("json") == col {
				return i
			}
		}
		return -1
	}
	return &table[R, P]{
		group: group, kind: kind,
		cols: columnsOf(rt, flight.GroupFields[group]),
		common: commonColumns{
			flid: idx("flid"), ordinal: idx("ordinal"), sourceSeq: idx("source_seq"),
			recordVersion: idx("record_version"), createdAt: idx("created_at"),
			updatedAt: idx("updated_at"), routeKind: idx("route_kind"),
		},
		list: list, del: del, ins: ins, conv: conv,
	}
}

func (t *table[R, P]) load(ctx context.Context, e executor, flids []int64, into map[int64]*flight.State) error {
	rows, err := t.list(ctx, e.db, flids)
	if err != nil {
		return err
	}
	for i := 0; i < len(rows); {
		j := i + 1
		for j < len(rows) && t.flid(&rows[j]) == t.flid(&rows[i]) {
			j++
		}
		t.addRun(rows[i:j], into)
		i = j
	}
	return nil
}

func (t *table[R, P]) flid(r *R) int64 { return reflect.ValueOf(r).Elem().Field(t.common.flid).Int() }

// addRun sets its flight's group to run, rows of one flight (generated
// structs) in ordinal order, sized once.
func (t *table[R, P]) addRun(run []R, into map[int64]*flight.State) {
	items := make([]flight.Item, len(run))
	for i := range run {
		v := reflect.ValueOf(&run[i]).Elem()
		items[i].Fields = make(map[string]flight.Value, len(t.cols))
		if t.common.sourceSeq >= 0 {
			items[i].SourceSeq = v.Field(t.common.sourceSeq).Interface().(*int64)
		}
		t.cols.get(v, items[i].Fields)
	}
	into[t.flid(&run[0])].Groups[t.group] = items
}

func (t *table[R, P]) replace(ctx context.Context, e executor, writes []vocab.FlightWrite, now time.Time) error {
	var flids []int64 // existing flights whose old rows go first
	var rows []P
	nowV := reflect.ValueOf(now) // once: each ValueOf(time.Time) is a heap copy
	for _, w := range writes {
		version, ok := w.Changes.Groups[t.group]
		if !ok {
			continue
		}
		if !w.New {
			flids = append(flids, w.State.FLID)
		}
		for i, item := range w.State.Groups[t.group] {
			var r R
			v := reflect.ValueOf(&r).Elem()
			v.Field(t.common.flid).SetInt(w.State.FLID)
			v.Field(t.common.ordinal).SetInt(int64(i + 1))
			if t.common.sourceSeq >= 0 && item.SourceSeq != nil {
				v.Field(t.common.sourceSeq).Set(reflect.ValueOf(item.SourceSeq))
			}
			if t.kind != "" {
				v.Field(t.common.routeKind).SetString(t.kind)
			}
			v.Field(t.common.recordVersion).SetInt(version)
			v.Field(t.common.createdAt).Set(nowV)
			v.Field(t.common.updatedAt).Set(nowV)
			t.cols.set(v, item.Fields)
			rows = append(rows, t.conv(r))
		}
	}
	if len(flids) > 0 {
		if _, err := t.del(ctx, e.db, flids); err != nil {
			return err
		}
	}
	if len(rows) == 0 {
		return nil
	}
	_, err := t.ins(ctx, e.db, rows)
	return err
}

// routeTables is the route-point table's two groups (ROUT, ERUT, told
// apart by route_kind): read in one statement for both, replaced per kind.
type routeTables []*table[postgres.FlightRoutePoint, postgres.RoutePointInsertParams]

func (r routeTables) load(ctx context.Context, e executor, flids []int64, into map[int64]*flight.State) error {
	rows, err := r[0].list(ctx, e.db, flids)
	if err != nil {
		return err
	}
	// Ordered by (flid, route_kind, ordinal): each kind of a flight is a run.
	for i := 0; i < len(rows); {
		j := i + 1
		for j < len(rows) && rows[j].Flid == rows[i].Flid && rows[j].RouteKind == rows[i].RouteKind {
			j++
		}
		for _, t := range r {
			if rows[i].RouteKind == t.kind {
				t.addRun(rows[i:j], into)
			}
		}
		i = j
	}
	return nil
}

func (r routeTables) replace(ctx context.Context, e executor, writes []vocab.FlightWrite, now time.Time) error {
	for _, t := range r {
		if err := t.replace(ctx, e, writes, now); err != nil {
			return err
		}
	}
	return nil
}

// routeDelete deletes one route kind, so ROUT and ERUT are replaced independently.
func routeDelete(q *postgres.Queries, kind string) func(context.Context, postgres.DBTX, []int64) (int64, error) {
	return func(ctx context.Context, db postgres.DBTX, flids []int64) (int64, error) {
		return q.RoutePointDeleteByFlightsKind(ctx, db, postgres.RoutePointDeleteByFlightsKindParams{Flids: flids, RouteKind: kind})
	}
}

func routeTable(q *postgres.Queries, kind string) *table[postgres.FlightRoutePoint, postgres.RoutePointInsertParams] {
	return newTable(kind, kind, q.RoutePointListByFlights, routeDelete(q, kind), q.RoutePointInsert,
		func(r postgres.FlightRoutePoint) postgres.RoutePointInsertParams {
			return postgres.RoutePointInsertParams(r)
		})
}

var details = func() []detailTable {
	q := postgres.New()
	return []detailTable{
		newTable(flight.GroupGates, "",
			q.GateListByFlights, q.GateDeleteByFlights, q.GateInsert,
			func(r postgres.FlightGate) postgres.GateInsertParams { return postgres.GateInsertParams(r) }),
		newTable(flight.GroupCheckins, "",
			q.CheckinListByFlights, q.CheckinDeleteByFlights, q.CheckinInsert,
			func(r postgres.FlightCheckin) postgres.CheckinInsertParams { return postgres.CheckinInsertParams(r) }),
		newTable(flight.GroupBelts, "",
			q.BeltListByFlights, q.BeltDeleteByFlights, q.BeltInsert,
			func(r postgres.FlightBelt) postgres.BeltInsertParams { return postgres.BeltInsertParams(r) }),
		newTable(flight.GroupStandPlans, "",
			q.StandPlanListByFlights, q.StandPlanDeleteByFlights, q.StandPlanInsert,
			func(r postgres.FlightStandPlan) postgres.StandPlanInsertParams {
				return postgres.StandPlanInsertParams(r)
			}),
		newTable(flight.GroupChutes, "",
			q.ChuteListByFlights, q.ChuteDeleteByFlights, q.ChuteInsert,
			func(r postgres.FlightChute) postgres.ChuteInsertParams { return postgres.ChuteInsertParams(r) }),
		newTable(flight.GroupDelays, "",
			q.DelayListByFlights, q.DelayDeleteByFlights, q.DelayInsert,
			func(r postgres.FlightDelay) postgres.DelayInsertParams { return postgres.DelayInsertParams(r) }),
		newTable(flight.GroupBridgeOps, "",
			q.BridgeOpListByFlights, q.BridgeOpDeleteByFlights, q.BridgeOpInsert,
			func(r postgres.FlightBridgeOp) postgres.BridgeOpInsertParams { return postgres.BridgeOpInsertParams(r) }),
		newTable(flight.GroupChockOps, "",
			q.ChockOpListByFlights, q.ChockOpDeleteByFlights, q.ChockOpInsert,
			func(r postgres.FlightChockOp) postgres.ChockOpInsertParams { return postgres.ChockOpInsertParams(r) }),
		routeTables{routeTable(q, flight.GroupRoute), routeTable(q, flight.GroupExtraRoute)},
	}
}()
