package pgstore

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"time"

	"github.com/msgx-aodb/msgx/db/pgarrays"
	"github.com/msgx-aodb/msgx/db/postgres"
	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

var flightRows = newRowEncoder[postgres.FlightSchd]()

var arrayQueries = pgarrays.New()

// columnsRows is the fewest flights WriteFlights upserts by
// FlightUpsertColumns (one array per column) rather than FlightUpsert (one
// JSON array of rows). PostgreSQL reads a flight from the arrays about 4 µs
// faster, but binds them about 10 µs slower per statement, and sqlc's call
// boxes each of the 92 arrays: the JSON is cheaper for a few flights, the
// arrays from a dozen or so on (docs/dev/performance-notes.md, issue #34).
const columnsRows = 16

var flightColumns = columnsOf(reflect.TypeFor[postgres.FlightSchd](), flight.ScalarNames)

func (e executor) Flights(ctx context.Context, flids []int64) (map[int64]*flight.State, error) {
	rows, err := e.q.FlightGetMany(ctx, e.db, flids)
	if err != nil {
		return nil, interpret(err)
	}
	return e.withDetails(ctx, rows)
}

func (e executor) FlightStamps(ctx context.Context, flids []int64) (map[int64]store.FlightStamp, error) {
	rows, err := e.q.FlightStampMany(ctx, e.db, flids)
	if err != nil {
		return nil, interpret(err)
	}
	stamps := make(map[int64]store.FlightStamp, len(rows))
	for _, r := range rows {
		stamps[r.Flid] = store.FlightStamp{StateVersion: r.StateVersion, UpdatedAt: r.UpdatedAt}
	}
	return stamps, nil
}

func (e executor) FlightsByDay(ctx context.Context, p store.FlightsByDayParams) ([]*flight.State, error) {
	rows, err := e.q.FlightListByDay(ctx, e.db, postgres.FlightListByDayParams{
		OperationDay: p.Day, AfterFlid: p.AfterFLID, PageSize: int32(p.Limit),
	})
	if err != nil {
		return nil, interpret(err)
	}
	return e.orderedWithDetails(ctx, rows)
}

func (e executor) PruneCandidates(ctx context.Context, fday time.Time, keep []int64) ([]*flight.State, error) {
	if keep == nil {
		keep = []int64{}
	}
	rows, err := e.q.FlightListPruneCandidates(ctx, e.db, postgres.FlightListPruneCandidatesParams{Fday: fday, KeepFlids: keep})
	if err != nil {
		return nil, interpret(err)
	}
	return e.orderedWithDetails(ctx, rows)
}

func (e executor) orderedWithDetails(ctx context.Context, rows []postgres.FlightSchd) ([]*flight.State, error) {
	states, err := e.withDetails(ctx, rows)
	if err != nil {
		return nil, err
	}
	out := make([]*flight.State, len(rows))
	for i, r := range rows {
		out[i] = states[r.Flid]
	}
	return out, nil
}

// withDetails builds full states from flight rows: one query per detail
// table for all the flights, not one per flight.
func (e executor) withDetails(ctx context.Context, rows []postgres.FlightSchd) (map[int64]*flight.State, error) {
	states := make(map[int64]*flight.State, len(rows))
	flids := make([]int64, len(rows))
	for i := range rows {
		st, err := stateFromRow(&rows[i])
		if err != nil {
			return nil, err
		}
		states[rows[i].Flid] = st
		flids[i] = rows[i].Flid
	}
	if len(rows) == 0 {
		return states, nil
	}
	// The detail reads ask each flight once, a span of them as a range
	// (flightSetOf takes them sorted and distinct).
	slices.Sort(flids) // linear when already sorted, as the rows usually are
	flights := flightSetOf(slices.Compact(flids))
	for _, d := range details {
		if err := d.load(ctx, e, flights, states); err != nil {
			return nil, interpret(err)
		}
	}
	payloads, err := byFlightSet(e.q.PayloadListByFlights)(ctx, e.db, flights)
	if err != nil {
		return nil, interpret(err)
	}
	for _, p := range payloads {
		if s := states[p.Flid]; s != nil { // a span's flight not asked for: not read
			s.Payloads[p.Kind] = flight.Payload{Format: p.Format, Content: p.Content}
		}
	}
	return states, nil
}

// WriteFlights writes every flight row (new ones by COPY, the others in one
// upsert statement: FlightUpsertColumns from columnsRows flights on,
// FlightUpsert below), then replaces the changed collections: per table one
// delete for the existing flights and one COPY.
func (e executor) WriteFlights(ctx context.Context, writes []vocab.FlightWrite, now time.Time) error {
	if len(writes) == 0 {
		return nil
	}
	// A flight row is a few hundred bytes: size the lists up front, a
	// batch's growing slices were a sixth of this function's time.
	news := 0
	for _, w := range writes {
		if w.New {
			news++
		}
	}
	updates := len(writes) - news
	columns := updates >= columnsRows
	inserts := make([]postgres.FlightInsertParams, 0, news)
	var rows []postgres.FlightSchd   // FlightUpsert's
	var existing []vocab.FlightWrite // FlightUpsertColumns'
	built := len(writes)             // rows setRow fills
	if columns {
		existing = make([]vocab.FlightWrite, 0, updates)
		built = news
	} else {
		rows = make([]postgres.FlightSchd, 0, updates)
	}
	attrs := make(heldStrings, 0, rowHeld*built) // the rows' structure attributes and stamps
	for _, w := range writes {
		switch {
		case w.New:
			inserts = append(inserts, postgres.FlightInsertParams{})
			setRow((*postgres.FlightSchd)(&inserts[len(inserts)-1]), w.State, now, &attrs)
		case columns:
			existing = append(existing, w)
		default:
			rows = append(rows, postgres.FlightSchd{})
			setRow(&rows[len(rows)-1], w.State, now, &attrs)
		}
	}
	if len(inserts) > 0 {
		if _, err := e.q.FlightInsert(ctx, e.db, inserts); err != nil {
			return interpret(err)
		}
	}
	switch {
	case columns:
		args := columnsArgs(existing, now)
		err := arrayQueries.FlightUpsertColumns(ctx, e.db, args.p)
		args.release()
		if err != nil {
			return interpret(err)
		}
	case updates > 0:
		// The generated row type's JSON keys are the column names, which
		// json_to_recordset turns back into rows.
		if err := e.q.FlightUpsert(ctx, e.db, flightRows.encode(rows)); err != nil {
			return interpret(err)
		}
	}
	for _, d := range details {
		if err := d.replace(ctx, e, writes, now); err != nil {
			return interpret(err)
		}
	}
	return interpret(e.writePayloads(ctx, writes, now))
}

// writePayloads replaces the changed payload collections: per kind one
// delete for all flights, then one batch of upserts for those not empty.
func (e executor) writePayloads(ctx context.Context, writes []vocab.FlightWrite, now time.Time) error {
	cleared := map[string][]int64{}
	var upserts []postgres.PayloadUpsertParams
	for _, w := range writes {
		for kind, version := range w.Changes.Payloads {
			p, ok := w.State.Payloads[kind]
			if !ok {
				if !w.New {
					cleared[kind] = append(cleared[kind], w.State.FLID)
				}
				continue
			}
			upserts = append(upserts, postgres.PayloadUpsertParams{
				Flid: w.State.FLID, Kind: kind, Format: p.Format, Content: p.Content,
				RecordVersion: version, Now: now,
			})
		}
	}
	for kind, flids := range cleared {
		if _, err := e.q.PayloadDeleteByFlightsKind(ctx, e.db, postgres.PayloadDeleteByFlightsKindParams{Flids: flids, Kind: kind}); err != nil {
			return err
		}
	}
	if len(upserts) == 0 {
		return nil
	}
	var batchErr error
	e.q.PayloadUpsert(ctx, e.db, upserts).Exec(func(_ int, err error) {
		if err != nil && batchErr == nil {
			batchErr = err
		}
	})
	return batchErr
}

func stateFromRow(r *postgres.FlightSchd) (*flight.State, error) {
	row := reflect.ValueOf(r).Elem()
	s := &flight.State{
		FLID:          r.Flid,
		Scalars:       make(map[string]flight.Value, flightColumns.present(row)),
		Structs:       map[string]flight.Struct{},
		Groups:        map[string][]flight.Item{},
		Payloads:      map[string]flight.Payload{},
		OperationDay:  r.OperationDay,
		FDay:          r.Fday,
		Lifecycle:     r.Lifecycle,
		DeletedAt:     r.DeletedAt,
		StateVersion:  r.StateVersion,
		LastMessageID: r.LastMessageID,
		CreatedAt:     r.CreatedAt,
		UpdatedAt:     r.UpdatedAt,
	}
	flightColumns.get(row, s.Scalars)
	getStruct(s, "FDIV", r.FdivText, map[string]*string{"DDES": r.FdivDdes, "DDIR": r.FdivDdir})
	getStruct(s, "FRET", r.FretText, map[string]*string{"REID": r.FretReid})
	getStruct(s, "FLAB", r.FlabText, map[string]*string{"ARES": r.FlabAres})
	if r.Stamps != nil {
		stamps, err := flight.ParseStamps(*r.Stamps)
		if err != nil {
			return nil, fmt.Errorf("flight %d: %w", r.Flid, err)
		}
		s.Stamps = stamps
	}
	return s, nil
}

// A structure is present when its text or any attribute is.
func getStruct(s *flight.State, name string, text *string, attrs map[string]*string) {
	st := flight.Struct{Text: text}
	present := text != nil
	for k, v := range attrs {
		if v != nil {
			if st.Attrs == nil {
				st.Attrs = map[string]string{}
			}
			st.Attrs[k] = *v
			present = true
		}
	}
	if present {
		s.Structs[name] = st
	}
}

// setRow fills the zero row r from s, in place (a flight row is large);
// the row's structure attributes and stamps text point into attrs.
func setRow(r *postgres.FlightSchd, s *flight.State, now time.Time, attrs *heldStrings) {
	*r = postgres.FlightSchd{
		Flid:          s.FLID,
		OperationDay:  s.OperationDay,
		Fday:          s.FDay,
		Lifecycle:     s.Lifecycle,
		DeletedAt:     s.DeletedAt,
		StateVersion:  s.StateVersion,
		LastMessageID: s.LastMessageID,
		CreatedAt:     s.CreatedAt,
		UpdatedAt:     now,
		Stamps:        attrs.stamps(s.Stamps),
	}
	if r.CreatedAt.IsZero() {
		r.CreatedAt = now
	}
	flightColumns.set(reflect.ValueOf(r).Elem(), s.Scalars)
	fdiv, fret, flab := s.Structs["FDIV"], s.Structs["FRET"], s.Structs["FLAB"]
	r.FdivText, r.FdivDdes, r.FdivDdir = fdiv.Text, attrs.attr(fdiv, "DDES"), attrs.attr(fdiv, "DDIR")
	r.FretText, r.FretReid = fret.Text, attrs.attr(fret, "REID")
	r.FlabText, r.FlabAres = flab.Text, attrs.attr(flab, "ARES")
}

// rowHeld is how many strings setRow holds for a flight row: its four
// structure attributes and its stamps text.
const rowHeld = 5

// heldStrings holds the strings a statement's parameters point to that
// live in maps (not addressable): one allocation per statement rather than
// one per string. Made with the capacity the statement needs, so it never
// grows (growing would move what the parameters point to).
type heldStrings []string

// add holds v and returns where.
func (h *heldStrings) add(v string) *string {
	if len(*h) == cap(*h) {
		// Not sized for this one: its own copy. A new string, not &v:
		// taking v's address moved every call's v to the heap, also the
		// calls that fit (one allocation per value of a flight row).
		p := new(string)
		*p = v
		return p
	}
	*h = append(*h, v)
	return &(*h)[len(*h)-1]
}

// attr holds structure s's attribute name; nil when s has none.
func (h *heldStrings) attr(s flight.Struct, name string) *string {
	v, ok := s.Attrs[name]
	if !ok {
		return nil
	}
	return h.add(v)
}

// stamps holds the STAMPS text of s; nil (NULL) for none. The text is
// built on the stack: its one allocation is the string (flight.Stamps.Text
// makes a second, for the pointer).
func (h *heldStrings) stamps(s flight.Stamps) *string {
	if len(s) == 0 {
		return nil
	}
	var buf [256]byte
	return h.add(string(s.AppendText(buf[:0])))
}
