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
	"github.com/msgx-aodb/msgx/internal/metrics"
	"github.com/msgx-aodb/msgx/internal/redact"
	"github.com/msgx-aodb/msgx/internal/status"
	"github.com/msgx-aodb/msgx/internal/store"
)

// The operator console (docs/console.md): server-rendered pages under
// /console built from the same functions as the JSON API's answers (no query
// of their own), public like the read API (reasons redacted). Its writes —
// replay, requests, a message's raw XML — are the admin routes, called by
// the pages with the admin token the browser keeps for the session; those
// routes answer an HTML fragment instead of JSON when htmx asks
// (HX-Request), so both answers come from one handler.

func (s *server) mountConsole(r chi.Router) {
	r.Get("/console/static/*", serveConsoleStatic)
	r.Route("/console", func(r chi.Router) {
		r.Use(consoleHeaders)
		r.Get("/", s.consoleOverview)
		r.Get("/dead-letters", s.consoleDeadLetters)
		r.Get("/messages/{id}", s.consoleMessage)
		r.Get("/flights", s.consoleFlights)
		r.Get("/flights/{flid}", s.consoleFlight)
		r.Get("/outbox", s.consoleOutbox)
		r.Get("/requests", s.consoleRequests)
	})
	r.With(consoleHeaders).Get("/console", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/console/", http.StatusMovedPermanently)
	})
}

// overviewPage is the console's front page: the queue, the chart of the
// last hour, the outbox and the open requests.
type overviewPage struct {
	Report        status.Report
	Chart         chart
	Outcomes      []outcomeRow
	OutcomesSince time.Time
	DeadTotal     int64
}

type outcomeRow struct {
	Kind, Status string
	Count        int64
}

func (s *server) consoleOverview(w http.ResponseWriter, r *http.Request) {
	rep, err := s.statusReport(r.Context())
	if err != nil {
		s.consoleError(w, r, "status", err)
		return
	}
	now := s.Clock.Now()
	kept, current := s.Metrics.History(now)
	p := overviewPage{Report: rep, Chart: newChart(kept, now)}
	p.Outcomes, p.OutcomesSince = lastHourOutcomes(kept, current)
	for _, n := range rep.DeadLetters {
		p.DeadTotal += n
	}
	s.render(w, r, "overview", p)
}

// lastHourOutcomes are the outcomes since the oldest sample of the last hour
// (the process's start when it is younger), largest first.
func lastHourOutcomes(kept []metrics.Sample, current metrics.Sample) ([]outcomeRow, time.Time) {
	since := current.At
	base := map[metrics.Outcome]int64{}
	for _, smp := range kept {
		if !smp.At.Before(current.At.Add(-time.Hour)) {
			since, base = smp.At, smp.Outcomes
			break
		}
	}
	var rows []outcomeRow
	for o, n := range current.Outcomes {
		if d := n - base[o]; d > 0 {
			rows = append(rows, outcomeRow{Kind: o.Kind, Status: o.Status, Count: d})
		}
	}
	slices.SortFunc(rows, func(a, b outcomeRow) int {
		if a.Count != b.Count {
			return int(b.Count - a.Count)
		}
		return strings.Compare(a.Kind+a.Status, b.Kind+b.Status)
	})
	return rows, since
}

type deadLettersView struct {
	Page    deadLettersPage
	Class   string
	Classes []string
	Counts  map[string]int64
}

func (s *server) consoleDeadLetters(w http.ResponseWriter, r *http.Request) {
	class := r.URL.Query().Get("class")
	if class != "" && !slices.Contains(errorClasses, class) {
		s.consoleBadRequest(w, r, "class must be one of "+strings.Join(errorClasses, ", "))
		return
	}
	p, ok := consolePage(w, r, s)
	if !ok {
		return
	}
	rep, err := s.statusReport(r.Context())
	if err != nil {
		s.consoleError(w, r, "status", err)
		return
	}
	out, err := s.deadLetterPage(r.Context(), class, p, redact.Reason)
	if err != nil {
		s.consoleError(w, r, "list dead letters", err)
		return
	}
	s.render(w, r, "dead-letters", deadLettersView{Page: out, Class: class, Classes: errorClasses, Counts: rep.DeadLetters})
}

func (s *server) consoleMessage(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(chi.URLParam(r, "id"), 10, 64)
	if err != nil || id <= 0 {
		s.consoleBadRequest(w, r, "a message id is a positive integer")
		return
	}
	m, err := s.message(r.Context(), id, redact.Reason)
	if err != nil {
		s.consoleError(w, r, "read message", err)
		return
	}
	s.render(w, r, "message", m)
}

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
		s.render(w, r, "flights", v)
		return
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
	return flightRow{FLID: st.FLID, FLNO: st.Scalars["FLNO"].Raw, SODT: st.Scalars["SODT"].Raw,
		Movement: st.Scalars["MVIN"].Raw, Lifecycle: st.Lifecycle}
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
}

type scalarRow struct {
	Name, Raw, Parsed string
}

type structRow struct {
	Name, Text string
	Attrs      []string
}

type groupView struct {
	Name   string
	Fields []string
	Items  []groupItem
}

type groupItem struct {
	Ordinal   int
	SourceSeq *int64
	Values    []string
}

type payloadRow struct {
	Name, Format, Content string
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
	for _, k := range sortedKeys(st.Scalars) {
		v.Scalars = append(v.Scalars, scalarRow{Name: k, Raw: st.Scalars[k].Raw, Parsed: parsedValue(st.Scalars[k], loc)})
	}
	for _, k := range sortedKeys(st.Structs) {
		sr := structRow{Name: k}
		if t := st.Structs[k].Text; t != nil {
			sr.Text = *t
		}
		for _, a := range sortedKeys(st.Structs[k].Attrs) {
			sr.Attrs = append(sr.Attrs, a+"="+st.Structs[k].Attrs[a])
		}
		v.Structs = append(v.Structs, sr)
	}
	for _, k := range sortedKeys(st.Groups) {
		g := groupView{Name: k}
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
		v.Payloads = append(v.Payloads, payloadRow{Name: k, Format: st.Payloads[k].Format, Content: st.Payloads[k].Content})
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

type outboxView struct {
	Report status.Report
	Target string
	Dead   deadEventsPage
}

func (s *server) consoleOutbox(w http.ResponseWriter, r *http.Request) {
	target := r.URL.Query().Get("target")
	if target == "" {
		target = store.TargetMsg
	}
	if target != store.TargetMsg && target != store.TargetSchd {
		s.consoleBadRequest(w, r, "target must be "+store.TargetMsg+" or "+store.TargetSchd)
		return
	}
	p, ok := consolePage(w, r, s)
	if !ok {
		return
	}
	rep, err := s.statusReport(r.Context())
	if err != nil {
		s.consoleError(w, r, "status", err)
		return
	}
	dead, err := s.deadEventPage(r.Context(), target, p)
	if err != nil {
		s.consoleError(w, r, "list dead events", err)
		return
	}
	s.render(w, r, "outbox", outboxView{Report: rep, Target: target, Dead: dead})
}

// requestsView is the open requests (the status report's), the recent ones
// when requests are configured, and the maintenance jobs.
type requestsView struct {
	Report     status.Report
	Configured bool
	Recent     []store.Request
}

func (s *server) consoleRequests(w http.ResponseWriter, r *http.Request) {
	rep, err := s.statusReport(r.Context())
	if err != nil {
		s.consoleError(w, r, "status", err)
		return
	}
	v := requestsView{Report: rep, Configured: s.Requests != nil}
	if v.Configured {
		list, err := s.requestPage(r.Context(), 0, 20)
		if err != nil {
			s.consoleError(w, r, "list requests", err)
			return
		}
		v.Recent = list.Requests
	}
	s.render(w, r, "requests", v)
}

// consolePage parses ?cursor=&limit= like the JSON lists, answering a page.
func consolePage(w http.ResponseWriter, r *http.Request, s *server) (page, bool) {
	p, err := parsePage(r)
	if err != nil {
		s.consoleBadRequest(w, r, err.Error())
		return page{}, false
	}
	return p, true
}
