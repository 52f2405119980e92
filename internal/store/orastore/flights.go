package orastore

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Flights map a flight.State to columns by name, as pgstore does through
// the generated row types: a SIS value X is column x (raw text), x_at (its
// time), x_minutes, x_days; a structure S's text is s_text and its
// attribute A is s_a. The column lists come from the query files.

func (e executor) flightsOn(ctx context.Context, flids []int64) (map[int64]*flight.State, error) {
	if len(flids) == 0 {
		return map[int64]*flight.State{}, nil
	}
	list, err := e.numbers(ctx, flids)
	if err != nil {
		return nil, err
	}
	rows, err := e.rowMaps(ctx, "FlightGetMany", map[string]any{"flids": list})
	if err != nil {
		return nil, err
	}
	states, _, err := e.withDetails(ctx, rows)
	return states, err
}

func (e executor) flightStampsOn(ctx context.Context, flids []int64) (map[int64]store.FlightStamp, error) {
	stamps := map[int64]store.FlightStamp{}
	if len(flids) == 0 {
		return stamps, nil
	}
	list, err := e.numbers(ctx, flids)
	if err != nil {
		return nil, err
	}
	err = e.query(ctx, "FlightStampMany", map[string]any{"flids": list}, func(r *sql.Rows) error {
		var flid int64
		var s store.FlightStamp
		err := r.Scan(&flid, &s.StateVersion, &s.UpdatedAt)
		stamps[flid] = s
		return err
	})
	return stamps, err
}

func (e executor) flightsByDayOn(ctx context.Context, p store.FlightsByDayParams) ([]*flight.State, error) {
	rows, err := e.rowMaps(ctx, "FlightListByDay", map[string]any{"operation_day": day(p.Day), "after_flid": p.AfterFLID, "page_size": p.Limit})
	if err != nil {
		return nil, err
	}
	_, ordered, err := e.withDetails(ctx, rows)
	return ordered, err
}

// PruneCandidates: an empty keep is an empty collection, which keeps nothing.
func (e executor) pruneCandidatesOn(ctx context.Context, fday time.Time, keep []int64) ([]*flight.State, error) {
	list, err := e.numbers(ctx, keep)
	if err != nil {
		return nil, err
	}
	rows, err := e.rowMaps(ctx, "FlightListPruneCandidates", map[string]any{"fday": day(fday), "keep_flids": list})
	if err != nil {
		return nil, err
	}
	_, ordered, err := e.withDetails(ctx, rows)
	return ordered, err
}

// withDetails builds full states from flight rows: one query per detail
// table for all the flights.
func (e executor) withDetails(ctx context.Context, rows []rowMap) (map[int64]*flight.State, []*flight.State, error) {
	states := make(map[int64]*flight.State, len(rows))
	ordered := make([]*flight.State, len(rows))
	flids := make([]int64, len(rows))
	for i, r := range rows {
		s, err := stateOf(r)
		if err != nil {
			return nil, nil, err
		}
		states[s.FLID], ordered[i], flids[i] = s, s, s.FLID
	}
	if len(rows) == 0 {
		return states, ordered, nil
	}
	list, err := e.numbers(ctx, flids)
	if err != nil {
		return nil, nil, err
	}
	read := map[string][]rowMap{} // ROUT and ERUT share a table: read once
	for _, t := range detailTables {
		items, ok := read[t.prefix]
		if !ok {
			if items, err = e.rowMaps(ctx, t.prefix+"ListByFlights", map[string]any{"flids": list}); err != nil {
				return nil, nil, err
			}
			read[t.prefix] = items
		}
		for _, r := range items {
			if kind, _ := r.str("route_kind"); t.kind != "" && kind != t.kind {
				continue
			}
			flid, _ := r.int64("flid")
			item := flight.Item{Fields: map[string]flight.Value{}}
			if seq, ok := r.int64("source_seq"); ok {
				item.SourceSeq = &seq
			}
			for _, n := range flight.GroupFields[t.group] {
				if v, ok := valueOf(r, strings.ToLower(n)); ok {
					item.Fields[n] = v
				}
			}
			s := states[flid] // rows come ordered by (flid, ordinal)
			s.Groups[t.group] = append(s.Groups[t.group], item)
		}
	}
	payloads, err := e.rowMaps(ctx, "PayloadListByFlights", map[string]any{"flids": list})
	if err != nil {
		return nil, nil, err
	}
	for _, p := range payloads {
		flid, _ := p.int64("flid")
		kind, _ := p.str("kind")
		format, _ := p.str("format")
		content, _ := p.str("content")
		states[flid].Payloads[kind] = flight.Payload{Format: format, Content: content}
	}
	return states, ordered, nil
}

func stateOf(r rowMap) (*flight.State, error) {
	s := &flight.State{
		Scalars: map[string]flight.Value{}, Structs: map[string]flight.Struct{},
		Groups: map[string][]flight.Item{}, Payloads: map[string]flight.Payload{},
	}
	s.FLID, _ = r.int64("flid")
	s.StateVersion, _ = r.int64("state_version")
	s.LastMessageID, _ = r.int64("last_message_id")
	s.Lifecycle, _ = r.str("lifecycle")
	if d, ok := r.time("operation_day"); ok {
		s.OperationDay = dayOf(d)
	}
	if d, ok := r.time("fday"); ok {
		d = dayOf(d)
		s.FDay = &d
	}
	s.DeletedAt = r.timePtr("deleted_at")
	s.CreatedAt, _ = r.time("created_at")
	s.UpdatedAt, _ = r.time("updated_at")
	for _, n := range flight.ScalarNames {
		if v, ok := valueOf(r, strings.ToLower(n)); ok {
			s.Scalars[n] = v
		}
	}
	for name, attrs := range flight.StructAttrs {
		col := strings.ToLower(name)
		st := flight.Struct{}
		present := false
		if t, ok := r.str(col + "_text"); ok {
			st.Text, present = &t, true
		}
		for _, a := range attrs {
			if v, ok := r.str(col + "_" + strings.ToLower(a)); ok {
				if st.Attrs == nil {
					st.Attrs = map[string]string{}
				}
				st.Attrs[a], present = v, true
			}
		}
		if present {
			s.Structs[name] = st
		}
	}
	if text, ok := r.str("stamps"); ok {
		stamps, err := flight.ParseStamps(text)
		if err != nil {
			return nil, fmt.Errorf("flight %d: %w", s.FLID, err)
		}
		s.Stamps = stamps
	}
	return s, nil
}

// valueOf reads value col and its parsed columns; absent when col is NULL.
func valueOf(r rowMap, col string) (flight.Value, bool) {
	raw, ok := r.str(col)
	if !ok {
		return flight.Value{}, false
	}
	v := flight.Value{Raw: raw, Time: r.timePtr(col + "_at")}
	if n, ok := r.int64(col + "_minutes"); ok {
		m := int32(n)
		v.Minutes = &m
	}
	if n, ok := r.int64(col + "_days"); ok {
		d := int32(n)
		v.Days = &d
	}
	return v, true
}

// putValue sets col and its parsed columns, NULL when absent.
func putValue(m map[string]any, col string, v flight.Value, ok bool) {
	m[col], m[col+"_at"], m[col+"_minutes"], m[col+"_days"] = sql.NullString{}, sql.NullTime{}, sql.NullInt64{}, sql.NullInt64{}
	if !ok {
		return
	}
	m[col] = text(v.Raw)
	m[col+"_at"] = instantPtr(v.Time)
	if v.Minutes != nil {
		m[col+"_minutes"] = sql.NullInt64{Int64: int64(*v.Minutes), Valid: true}
	}
	if v.Days != nil {
		m[col+"_days"] = sql.NullInt64{Int64: int64(*v.Days), Valid: true}
	}
}

// flightValues are the FLIGHT_SCHD binds of a state (CREATED_AT kept from
// the state, now for a new one; UPDATED_AT is now).
func flightValues(s *flight.State, now time.Time) map[string]any {
	created := s.CreatedAt
	if created.IsZero() {
		created = now
	}
	fday := sql.NullString{}
	if s.FDay != nil {
		fday = sql.NullString{String: day(*s.FDay), Valid: true}
	}
	m := map[string]any{
		"flid": s.FLID, "operation_day": day(s.OperationDay), "fday": fday, "lifecycle": s.Lifecycle,
		"deleted_at": instantPtr(s.DeletedAt), "state_version": s.StateVersion, "last_message_id": s.LastMessageID,
		"created_at": instant(created), "updated_at": instant(now), "stamps": sql.NullString{},
	}
	if t := s.Stamps.Text(); t != nil {
		m["stamps"] = text(*t)
	}
	for _, n := range flight.ScalarNames {
		v, ok := s.Scalars[n]
		putValue(m, strings.ToLower(n), v, ok)
	}
	for name, attrs := range flight.StructAttrs {
		st, ok := s.Structs[name]
		col := strings.ToLower(name)
		m[col+"_text"] = sql.NullString{}
		if ok && st.Text != nil {
			m[col+"_text"] = text(*st.Text)
		}
		for _, a := range attrs {
			m[col+"_"+strings.ToLower(a)] = text(st.Attrs[a])
		}
	}
	return m
}

// WriteFlights writes the flight rows (new ones with the array-bound
// INSERT, the others with the array-bound MERGE), then replaces the changed
// collections: per table one delete for the existing flights and one
// array-bound insert; payloads one CLOB upsert each.
func (e executor) writeFlightsOn(ctx context.Context, writes []vocab.FlightWrite, now time.Time) error {
	if len(writes) == 0 {
		return nil
	}
	var inserts, updates []map[string]any
	for _, w := range writes {
		if w.New {
			inserts = append(inserts, pick("FlightInsert", flightValues(w.State, now)))
		} else {
			updates = append(updates, pick("FlightUpsert", flightValues(w.State, now)))
		}
	}
	if len(inserts) > 0 {
		if _, err := e.exec(ctx, "FlightInsert", columns(inserts)); err != nil {
			return err
		}
	}
	if len(updates) > 0 {
		if _, err := e.exec(ctx, "FlightUpsert", columns(updates)); err != nil {
			return err
		}
	}
	for _, t := range detailTables {
		if err := e.replaceDetails(ctx, t, writes, now); err != nil {
			return err
		}
	}
	return e.writePayloads(ctx, writes, now)
}

func (e executor) replaceDetails(ctx context.Context, t detailTable, writes []vocab.FlightWrite, now time.Time) error {
	var flids []int64
	var rows []map[string]any
	for _, w := range writes {
		version, ok := w.Changes.Groups[t.group]
		if !ok {
			continue
		}
		if !w.New {
			flids = append(flids, w.State.FLID)
		}
		for i, item := range w.State.Groups[t.group] {
			m := map[string]any{
				"flid": w.State.FLID, "ordinal": int64(i + 1), "source_seq": int64Ptr(item.SourceSeq),
				"record_version": version, "created_at": instant(now), "updated_at": instant(now), "route_kind": t.kind,
			}
			for _, n := range flight.GroupFields[t.group] {
				v, ok := item.Fields[n]
				putValue(m, strings.ToLower(n), v, ok)
			}
			rows = append(rows, pick(t.prefix+"Insert", m))
		}
	}
	if len(flids) > 0 {
		list, err := e.numbers(ctx, flids)
		if err != nil {
			return err
		}
		if t.kind != "" {
			_, err = e.exec(ctx, "RoutePointDeleteByFlightsKind", map[string]any{"flids": list, "route_kind": t.kind})
		} else {
			_, err = e.exec(ctx, t.prefix+"DeleteByFlights", map[string]any{"flids": list})
		}
		if err != nil {
			return err
		}
	}
	if len(rows) == 0 {
		return nil
	}
	_, err := e.exec(ctx, t.prefix+"Insert", columns(rows))
	return err
}

// writePayloads: per kind one delete of the cleared collections, then one
// upsert per payload (a CLOB each).
func (e executor) writePayloads(ctx context.Context, writes []vocab.FlightWrite, now time.Time) error {
	cleared := map[string][]int64{}
	for _, w := range writes {
		for kind := range w.Changes.Payloads {
			if _, ok := w.State.Payloads[kind]; !ok && !w.New {
				cleared[kind] = append(cleared[kind], w.State.FLID)
			}
		}
	}
	for kind, flids := range cleared {
		list, err := e.numbers(ctx, flids)
		if err != nil {
			return err
		}
		if _, err := e.exec(ctx, "PayloadDeleteByFlightsKind", map[string]any{"flids": list, "kind": kind}); err != nil {
			return err
		}
	}
	for _, w := range writes {
		for kind, version := range w.Changes.Payloads {
			p, ok := w.State.Payloads[kind]
			if !ok {
				continue
			}
			if _, err := e.exec(ctx, "PayloadUpsert", map[string]any{
				"flid": w.State.FLID, "kind": kind, "format": p.Format, "content": e.bind.Clob(p.Content),
				"record_version": version, "now": instant(now),
			}); err != nil {
				return err
			}
		}
	}
	return nil
}

// detailTable names a group's queries (<prefix>ListByFlights, ...Insert,
// ...DeleteByFlights); the two route groups share FLIGHT_ROUTE_POINT by kind.
type detailTable struct{ group, prefix, kind string }

var detailTables = []detailTable{
	{flight.GroupGates, "Gate", ""},
	{flight.GroupCheckins, "Checkin", ""},
	{flight.GroupBelts, "Belt", ""},
	{flight.GroupStandPlans, "StandPlan", ""},
	{flight.GroupChutes, "Chute", ""},
	{flight.GroupDelays, "Delay", ""},
	{flight.GroupBridgeOps, "BridgeOp", ""},
	{flight.GroupChockOps, "ChockOp", ""},
	{flight.GroupRoute, "RoutePoint", flight.GroupRoute},
	{flight.GroupExtraRoute, "RoutePoint", flight.GroupExtraRoute},
}
