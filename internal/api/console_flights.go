package api

import (
	"errors"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/status"
	"github.com/msgx-aodb/msgx/internal/store"
)

// flightsView is the flight search: by FLID (straight to the flight), by
// flight number within a day, or a day's flights page by page.
type flightsView struct {
	Query, Day string
	Flights    []flightRow
	Next       *string
	Searched   bool
	Scanned    int // flights of the day looked at for a flight number
}

type flightRow struct {
	FLID                 int64
	FLNO, SODT, Movement string
	SODTAt               *time.Time // SODT parsed (shown in airport time); nil: only the raw text
	Lifecycle            string
}

// maxFlightScan bounds the flights of one day a flight-number search reads.
const maxFlightScan = 20000

var digitsOnly = regexp.MustCompile(`^[0-9]+$`)

func (s *server) consoleFlights(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	v := flightsView{Query: strings.TrimSpace(q.Get("q")), Day: strings.TrimSpace(q.Get("day"))}
	if digitsOnly.MatchString(v.Query) {
		http.Redirect(w, r, "/console/flights/"+v.Query, http.StatusSeeOther)
		return
	}
	if v.Day == "" {
		if v.Query != "" {
			s.consoleBadRequest(w, r, "a flight number is searched within a day: give the day too")
			return
		}
		v.Day = s.today() // the page opens on today's flights
	}
	day, err := time.Parse(time.DateOnly, v.Day)
	if err != nil {
		s.consoleBadRequest(w, r, "day must be a date YYYY-MM-DD")
		return
	}
	p, ok := consolePage(w, r, s)
	if !ok {
		return
	}
	v.Searched = true
	want := strings.ToUpper(v.Query)
	for {
		states, next, err := s.flightsOfDay(r.Context(), day, p)
		if err != nil {
			s.consoleError(w, r, "list flights", err)
			return
		}
		for _, st := range states {
			row := newFlightRow(st)
			if want == "" || strings.Contains(strings.ToUpper(row.FLNO), want) {
				v.Flights = append(v.Flights, row)
			}
		}
		v.Scanned += len(states)
		if want == "" {
			v.Next = next
			break
		}
		if next == nil || v.Scanned >= maxFlightScan {
			break
		}
		p.after, _ = strconv.ParseInt(*next, 10, 64)
		p.limit = MaxPageLimit
	}
	s.render(w, r, "flights", v)
}

func newFlightRow(st *flight.State) flightRow {
	sodt := st.Scalars["SODT"]
	return flightRow{FLID: st.FLID, FLNO: st.Scalars["FLNO"].Raw, SODT: sodt.Raw, SODTAt: sodt.Time,
		Movement: st.Scalars["MVIN"].Raw, Lifecycle: st.Lifecycle}
}

// today is the current operation day: the injected clock's date in the
// airport zone.
func (s *server) today() string {
	loc := s.Decode.Location
	if loc == nil {
		loc = time.UTC
	}
	return s.Clock.Now().In(loc).Format(time.DateOnly)
}

// flightView is a flight's full state and its history.
type flightView struct {
	FLID     int64
	State    *flight.State // nil when it has no current state
	Scalars  []scalarRow
	Structs  []structRow
	Groups   []groupView
	Payloads []payloadRow
	History  flightHistory
	// LifecycleSet is when the lifecycle was last set (its stamp, rule 19).
	LifecycleSet string
}

// Set, in each row, is when the value was set: the META DTTM of the message
// that last set it, in the airport zone ("" when not known; rule 19).
type scalarRow struct {
	Name, Raw, Parsed, Set string
}

type structRow struct {
	Name, Text, Set string
	Attrs           []string
}

type groupView struct {
	Name, Set string
	Fields    []string
	Items     []groupItem
}

type groupItem struct {
	Ordinal   int
	SourceSeq *int64
	Values    []string
}

type payloadRow struct {
	Name, Format, Content, Set string
}

func (s *server) consoleFlight(w http.ResponseWriter, r *http.Request) {
	flid, err := strconv.ParseInt(chi.URLParam(r, "flid"), 10, 64)
	if err != nil || flid <= 0 {
		s.consoleBadRequest(w, r, "a FLID is a positive integer")
		return
	}
	h, err := s.flightHistory(r.Context(), flid)
	if err != nil {
		s.consoleError(w, r, "flight history", err)
		return
	}
	v := flightView{FLID: flid, History: h}
	if h.Current {
		st, err := s.flightState(r.Context(), flid)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			s.consoleError(w, r, "read flight", err)
			return
		}
		if st != nil {
			v.State = st
			fillFlightView(&v, st, s.Decode.Location)
		}
	}
	// Newest version first: what an operator asks about is the last change.
	slices.Reverse(v.History.Versions)
	s.render(w, r, "flight", v)
}

func fillFlightView(v *flightView, st *flight.State, loc *time.Location) {
	set := func(name string) string {
		if t, ok := st.Stamps.Of(name); ok {
			return status.Stamp(t, loc)
		}
		return ""
	}
	v.LifecycleSet = set(flight.StampLifecycle)
	for _, k := range sortedKeys(st.Scalars) {
		v.Scalars = append(v.Scalars, scalarRow{Name: k, Raw: st.Scalars[k].Raw, Parsed: parsedValue(st.Scalars[k], loc), Set: set(k)})
	}
	for _, k := range sortedKeys(st.Structs) {
		sr := structRow{Name: k, Set: set(k)}
		if t := st.Structs[k].Text; t != nil {
			sr.Text = *t
		}
		for _, a := range sortedKeys(st.Structs[k].Attrs) {
			sr.Attrs = append(sr.Attrs, a+"="+st.Structs[k].Attrs[a])
		}
		v.Structs = append(v.Structs, sr)
	}
	for _, k := range sortedKeys(st.Groups) {
		g := groupView{Name: k, Set: set(k)}
		fields := map[string]bool{}
		for _, it := range st.Groups[k] {
			for f := range it.Fields {
				fields[f] = true
			}
		}
		g.Fields = sortedKeys(fields)
		for i, it := range st.Groups[k] {
			gi := groupItem{Ordinal: i + 1, SourceSeq: it.SourceSeq}
			for _, f := range g.Fields {
				val := it.Fields[f].Raw
				if p := parsedValue(it.Fields[f], loc); p != "" {
					val += " (" + p + ")"
				}
				gi.Values = append(gi.Values, val)
			}
			g.Items = append(g.Items, gi)
		}
		v.Groups = append(v.Groups, g)
	}
	for _, k := range sortedKeys(st.Payloads) {
		v.Payloads = append(v.Payloads, payloadRow{Name: k, Format: st.Payloads[k].Format, Content: st.Payloads[k].Content, Set: set(k)})
	}
}

// parsedValue is a value's parsed form as text ("" when it has none); a time
// in the airport zone, as the AODB sent it, with the offset.
func parsedValue(v flight.Value, loc *time.Location) string {
	switch {
	case v.Time != nil:
		return status.Stamp(*v.Time, loc)
	case v.Minutes != nil:
		return strconv.Itoa(int(*v.Minutes)) + " min"
	case v.Days != nil:
		return strconv.Itoa(int(*v.Days)) + " d"
	}
	return ""
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
