package orastore

import (
	"database/sql"
	"database/sql/driver"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

func sampleState() *flight.State {
	at := time.Date(2026, 12, 3, 9, 30, 0, 0, time.UTC)
	day := time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)
	mins, text, seq := int32(95), "diverted", int64(2)
	return &flight.State{
		FLID: 7, OperationDay: day, FDay: &day, Lifecycle: "ACTIVE", StateVersion: 3, LastMessageID: 41,
		CreatedAt: at, UpdatedAt: at, Stamps: flight.Stamps{"FLNO": at, flight.StampLifecycle: at.Add(-time.Hour)},
		Scalars: map[string]flight.Value{"FLNO": {Raw: "1234"}, "SODT": {Raw: "20261203093000", Time: &at}, "SCHT": {Raw: "0135", Minutes: &mins}},
		Structs: map[string]flight.Struct{"FDIV": {Text: &text, Attrs: map[string]string{"DDES": "PEK"}}},
		Groups: map[string][]flight.Item{flight.GroupGates: {{SourceSeq: &seq, Fields: map[string]flight.Value{"GATE": {Raw: "A1"}, "GOTM": {Raw: "20261203090000", Time: &at}}}},
			flight.GroupRoute: {{Fields: map[string]flight.Value{"APCD": {Raw: "PEK"}}}}},
		Payloads: map[string]flight.Payload{"SRVT": {Format: "xml", Content: "<SRVT/>"}},
	}
}

// asRow turns binds into the row Oracle would return: NULLs as nil, days
// (bound as YYYY-MM-DD) as DATE values.
func asRow(binds map[string]any) rowMap {
	r := rowMap{}
	for k, v := range binds {
		switch x := v.(type) {
		case sql.NullString:
			if x.Valid {
				r[k] = x.String
			} else {
				r[k] = nil
			}
		case sql.NullTime:
			if x.Valid {
				r[k] = x.Time
			} else {
				r[k] = nil
			}
		case sql.NullInt64:
			if x.Valid {
				r[k] = number(itoa(x.Int64))
			} else {
				r[k] = nil
			}
		case int64:
			r[k] = number(itoa(x))
		default:
			r[k] = v
		}
		if k == "operation_day" || k == "fday" {
			if s, ok := r[k].(string); ok {
				d, _ := time.Parse(time.DateOnly, s)
				r[k] = d
			}
		}
	}
	return r
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// TestFlightRowRoundTrip: a state's FLIGHT_SCHD binds, read back as the row
// Oracle returns, give the same scalars, structure and row fields.
func TestFlightRowRoundTrip(t *testing.T) {
	s := sampleState()
	now := s.UpdatedAt
	binds := pick("FlightUpsert", flightValues(s, now))
	if _, err := mustQuery("FlightUpsert").args(binds); err != nil {
		t.Fatal(err)
	}
	got, err := stateOf(asRow(binds))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Scalars, s.Scalars) || !reflect.DeepEqual(got.Structs, s.Structs) || !reflect.DeepEqual(got.Stamps, s.Stamps) {
		t.Errorf("scalars %+v structs %+v", got.Scalars, got.Structs)
	}
	if got.FLID != 7 || !got.OperationDay.Equal(s.OperationDay) || !got.FDay.Equal(*s.FDay) || got.StateVersion != 3 || got.Lifecycle != "ACTIVE" {
		t.Errorf("row fields %+v", got)
	}
	if binds["fday"] != (sql.NullString{String: "2026-12-03", Valid: true}) || binds["remc"] != (sql.NullString{}) {
		t.Errorf("fday %v remc %v", binds["fday"], binds["remc"])
	}
}

// TestWriteFlights: one array-bound MERGE for existing flights, the changed
// groups deleted and re-inserted array-bound, the payload as a CLOB.
func TestWriteFlights(t *testing.T) {
	s := sampleState()
	f, st := newFake(t)
	ch := flight.Replaced(3, []string{flight.GroupGates, flight.GroupRoute}, []string{"SRVT"})
	if err := st.WriteFlights(ctx, []vocab.FlightWrite{{State: s, Changes: ch}}, s.UpdatedAt); err != nil {
		t.Fatal(err)
	}
	var sent []string
	for _, c := range f.calls {
		for name, q := range queries {
			if q.SQL == c.SQL {
				sent = append(sent, name)
			}
		}
	}
	want := []string{"FlightUpsert", "GateDeleteByFlights", "GateInsert", "RoutePointDeleteByFlightsKind", "RoutePointInsert", "PayloadUpsert"}
	if !reflect.DeepEqual(sent, want) {
		t.Fatalf("sent %v, want %v", sent, want)
	}
	if flno := f.calls[0].Args["flno"].([]sql.NullString); flno[0].String != "1234" {
		t.Errorf("flno %v", flno)
	}
	gate := f.calls[2].Args
	if g := gate["gate"].([]sql.NullString); g[0].String != "A1" || gate["ordinal"].([]int64)[0] != 1 {
		t.Errorf("gate row %v", gate)
	}
	if k := f.calls[4].Args["route_kind"].([]string); k[0] != flight.GroupRoute {
		t.Errorf("route kind %v", k)
	}
	if f.calls[5].Args["content"] != clob("<SRVT/>") {
		t.Errorf("payload %v", f.calls[5].Args["content"])
	}
}

// TestFlightsRead: a flight row, its detail rows (the route table read
// once for both kinds, its rows filtered by kind) and payloads come back as
// the state that was written.
func TestFlightsRead(t *testing.T) {
	s := sampleState()
	row := func(m map[string]any) answer {
		r := asRow(m)
		var cols []string
		var vals []driver.Value
		for k, v := range r {
			cols = append(cols, strings.ToUpper(k))
			vals = append(vals, v)
		}
		return answer{cols: cols, rows: [][]driver.Value{vals}}
	}
	item := func(group string, it flight.Item, extra map[string]any) map[string]any {
		m := map[string]any{"flid": int64(7), "ordinal": int64(1), "source_seq": int64Ptr(it.SourceSeq)}
		for _, n := range flight.GroupFields[group] {
			v, ok := it.Fields[n]
			putValue(m, strings.ToLower(n), v, ok)
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	answers := []answer{row(flightValues(s, s.UpdatedAt)), row(item(flight.GroupGates, s.Groups[flight.GroupGates][0], nil))}
	for i := 0; i < 7; i++ {
		answers = append(answers, answer{})
	}
	route := row(item(flight.GroupRoute, s.Groups[flight.GroupRoute][0], map[string]any{"route_kind": flight.GroupRoute}))
	answers = append(answers, route,
		row(map[string]any{"flid": int64(7), "kind": "SRVT", "format": "xml", "content": "<SRVT/>"}))
	_, st := newFake(t, answers...)
	got, err := st.Flights(ctx, []int64{7})
	if err != nil {
		t.Fatal(err)
	}
	g := got[7]
	if g == nil || !reflect.DeepEqual(g.Groups, s.Groups) || !reflect.DeepEqual(g.Payloads, s.Payloads) || !reflect.DeepEqual(g.Scalars, s.Scalars) {
		t.Fatalf("read %+v\nwant %+v", g, s)
	}
}
