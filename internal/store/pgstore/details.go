package pgstore

import (
	"cmp"
	"context"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/msgx-aodb/msgx/db/postgres"
	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// detailTable is one detail collection: how to load it for many flights and
// how to replace it for the flights whose message replaced it.
type detailTable interface {
	load(ctx context.Context, e executor, flights flightSet, into map[int64]*flight.State) error
	replace(ctx context.Context, e executor, writes []vocab.FlightWrite, now time.Time) error
}

// table binds a group to its generated list row type L (the columns a state
// holds) and insert params P. The common columns flid, ordinal, source_seq,
// route_kind (and P's record_version, created_at, updated_at) are found by
// name like the value columns.
type table[L, P any] struct {
	group  string
	kind   string       // ROUT/ERUT for the shared route-point table (loaded by routeTables), else ""
	cols   valueColumns // of L
	common commonColumns
	pcols  valueColumns // of P
	pcom   commonColumns
	list   func(ctx context.Context, db postgres.DBTX, flights flightSet) ([]L, error)
	del    func(ctx context.Context, db postgres.DBTX, flids []int64) (int64, error)
	ins    func(ctx context.Context, db postgres.DBTX, rows []P) (int64, error)
}

type commonColumns struct{ flid, ordinal, sourceSeq, recordVersion, createdAt, updatedAt, routeKind int }

func commonOf(rt reflect.Type) commonColumns {
	idx := func(col string) int {
		for i := 0; i < rt.NumField(); i++ {
			if rt.Field(i).Tag.Get("json") == col {
				return i
			}
		}
		return -1
	}
	return commonColumns{
		flid: idx("flid"), ordinal: idx("ordinal"), sourceSeq: idx("source_seq"),
		recordVersion: idx("record_version"), createdAt: idx("created_at"),
		updatedAt: idx("updated_at"), routeKind: idx("route_kind"),
	}
}

func newTable[L, P any](group, kind string,
	list func(context.Context, postgres.DBTX, flightSet) ([]L, error),
	del func(context.Context, postgres.DBTX, []int64) (int64, error),
	ins func(context.Context, postgres.DBTX, []P) (int64, error)) *table[L, P] {
	lt, pt := reflect.TypeFor[L](), reflect.TypeFor[P]()
	return &table[L, P]{
		group: group, kind: kind,
		cols: columnsOf(lt, flight.GroupFields[group]), common: commonOf(lt),
		pcols: columnsOf(pt, flight.GroupFields[group]), pcom: commonOf(pt),
		list: list, del: del, ins: ins,
	}
}

func (t *table[L, P]) load(ctx context.Context, e executor, flights flightSet, into map[int64]*flight.State) error {
	rows, err := t.list(ctx, e.db, flights)
	if err != nil {
		return err
	}
	t.inOrder(rows)
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

func (t *table[L, P]) flid(r *L) int64 { return reflect.ValueOf(r).Elem().Field(t.common.flid).Int() }

// rowKey is a row's primary key (flid, route_kind, ordinal) and its index.
type rowKey struct {
	flid    int64
	kind    string
	ordinal int64
	i       int
}

func (t *table[L, P]) key(r *L, i int) rowKey {
	v := reflect.ValueOf(r).Elem()
	k := rowKey{flid: v.Field(t.common.flid).Int(), ordinal: v.Field(t.common.ordinal).Int(), i: i}
	if t.common.routeKind >= 0 {
		k.kind = v.Field(t.common.routeKind).String()
	}
	return k
}

func compareKeys(a, b rowKey) int {
	if c := cmp.Compare(a.flid, b.flid); c != 0 {
		return c
	}
	if c := strings.Compare(a.kind, b.kind); c != 0 {
		return c
	}
	return cmp.Compare(a.ordinal, b.ordinal)
}

// inOrder puts rows in primary-key order, each flight's (each route kind's)
// a run in ordinal order. The list statements promise no order: the probes
// of a sorted flight list return their rows in it, a span's range in the
// order of the table's pages, and the two one after the other. The keys
// are read once and sorted, not compared through reflection.
func (t *table[L, P]) inOrder(rows []L) {
	if len(rows) < 2 {
		return
	}
	prev, sorted := t.key(&rows[0], 0), true
	for i := 1; i < len(rows) && sorted; i++ {
		k := t.key(&rows[i], i)
		sorted, prev = compareKeys(prev, k) <= 0, k
	}
	if sorted {
		return
	}
	keys := make([]rowKey, len(rows))
	for i := range rows {
		keys[i] = t.key(&rows[i], i)
	}
	slices.SortFunc(keys, compareKeys)
	was := slices.Clone(rows)
	for i, k := range keys {
		rows[i] = was[k.i]
	}
}

// addRun sets its flight's group to run, rows of one flight (generated
// structs) in ordinal order, sized once. A flight not asked for (in a span,
// between two that were) is not read.
func (t *table[L, P]) addRun(run []L, into map[int64]*flight.State) {
	s := into[t.flid(&run[0])]
	if s == nil {
		return
	}
	items := make([]flight.Item, len(run))
	for i := range run {
		v := reflect.ValueOf(&run[i]).Elem()
		items[i].Fields = make(map[string]flight.Value, len(t.cols))
		if t.common.sourceSeq >= 0 {
			items[i].SourceSeq = v.Field(t.common.sourceSeq).Interface().(*int64)
		}
		t.cols.get(v, items[i].Fields)
	}
	s.Groups[t.group] = items
}

func (t *table[L, P]) replace(ctx context.Context, e executor, writes []vocab.FlightWrite, now time.Time) error {
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
			var r P
			v := reflect.ValueOf(&r).Elem()
			v.Field(t.pcom.flid).SetInt(w.State.FLID)
			v.Field(t.pcom.ordinal).SetInt(int64(i + 1))
			if t.pcom.sourceSeq >= 0 && item.SourceSeq != nil {
				v.Field(t.pcom.sourceSeq).Set(reflect.ValueOf(item.SourceSeq))
			}
			if t.kind != "" {
				v.Field(t.pcom.routeKind).SetString(t.kind)
			}
			v.Field(t.pcom.recordVersion).SetInt(version)
			v.Field(t.pcom.createdAt).Set(nowV)
			v.Field(t.pcom.updatedAt).Set(nowV)
			t.pcols.set(v, item.Fields)
			rows = append(rows, r)
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
type routeTables []*table[postgres.RoutePointListByFlightsRow, postgres.RoutePointInsertParams]

func (r routeTables) load(ctx context.Context, e executor, flights flightSet, into map[int64]*flight.State) error {
	rows, err := r[0].list(ctx, e.db, flights)
	if err != nil {
		return err
	}
	// In (flid, route_kind, ordinal) order, each kind of a flight is a run.
	r[0].inOrder(rows)
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

func routeTable(q *postgres.Queries, kind string) *table[postgres.RoutePointListByFlightsRow, postgres.RoutePointInsertParams] {
	return newTable(kind, kind, byFlightSet(q.RoutePointListByFlights), routeDelete(q, kind), q.RoutePointInsert)
}

var details = func() []detailTable {
	q := postgres.New()
	return []detailTable{
		newTable(flight.GroupGates, "",
			byFlightSet(q.GateListByFlights), q.GateDeleteByFlights, q.GateInsert),
		newTable(flight.GroupCheckins, "",
			byFlightSet(q.CheckinListByFlights), q.CheckinDeleteByFlights, q.CheckinInsert),
		newTable(flight.GroupBelts, "",
			byFlightSet(q.BeltListByFlights), q.BeltDeleteByFlights, q.BeltInsert),
		newTable(flight.GroupStandPlans, "",
			byFlightSet(q.StandPlanListByFlights), q.StandPlanDeleteByFlights, q.StandPlanInsert),
		newTable(flight.GroupChutes, "",
			byFlightSet(q.ChuteListByFlights), q.ChuteDeleteByFlights, q.ChuteInsert),
		newTable(flight.GroupDelays, "",
			byFlightSet(q.DelayListByFlights), q.DelayDeleteByFlights, q.DelayInsert),
		newTable(flight.GroupBridgeOps, "",
			byFlightSet(q.BridgeOpListByFlights), q.BridgeOpDeleteByFlights, q.BridgeOpInsert),
		newTable(flight.GroupChockOps, "",
			byFlightSet(q.ChockOpListByFlights), q.ChockOpDeleteByFlights, q.ChockOpInsert),
		routeTables{routeTable(q, flight.GroupRoute), routeTable(q, flight.GroupExtraRoute)},
	}
}()
