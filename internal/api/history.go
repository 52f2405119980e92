package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/msgx-aodb/msgx/internal/mapkeys"
	"github.com/msgx-aodb/msgx/internal/redact"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// A flight's history of versions and the outbox's dead letters, from the
// events the outbox keeps: GET /flights/{flid}/history and GET
// /outbox/dead-events (the console shows the same answers).

func (s *server) mountHistory(r chi.Router) {
	r.Get("/flights/{flid}/history", s.getFlightHistory)
	r.Get("/outbox/dead-events", s.getDeadEvents)
}

// flightHistory is the JSON of GET /flights/{flid}/history. Current is false
// when the flight has no current state any more (moved to history by the
// sweep): its versions are then all that is left.
type flightHistory struct {
	FLID     int64           `json:"flid"`
	Current  bool            `json:"current"`
	Versions []flightVersion `json:"versions"`
}

// flightVersion is one change of a flight: the KAFKA:msg event that carried
// it, the message that made it, and what it changed against the version before.
type flightVersion struct {
	EventID      int64     `json:"event_id"`
	MsgID        int64     `json:"msg_id"`
	StateVersion int64     `json:"state_version"`
	EventType    string    `json:"event_type"`
	Delivery     string    `json:"delivery"` // the event's effective status
	CreatedAt    time.Time `json:"created_at"`
	Lifecycle    string    `json:"lifecycle,omitempty"`
	Changes      []change  `json:"changes"`
}

// change is one element that differs from the version before: a scalar's raw
// text (From empty: newly set; To empty: cleared), or a struct, group or
// payload replaced as a whole ("replaced").
type change struct {
	Field string `json:"field"`
	From  string `json:"from"`
	To    string `json:"to"`
}

func (s *server) getFlightHistory(w http.ResponseWriter, r *http.Request) {
	flid, ok := pathID(w, r, "flid")
	if !ok {
		return
	}
	h, err := s.flightHistory(r.Context(), flid)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, "no flight "+strconv.FormatInt(flid, 10))
		return
	}
	if err != nil {
		s.storeError(w, r, "flight history", err, "flid", flid)
		return
	}
	s.writeValue(w, r, "flight history", h)
}

// flightHistory reads a flight's versions, oldest first; store.ErrNotFound
// when the flight has neither a state nor an event.
func (s *server) flightHistory(ctx context.Context, flid int64) (flightHistory, error) {
	_, err := s.flightState(ctx, flid)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return flightHistory{}, err
	}
	evs, herr := s.Store.EventsOfFlight(ctx, flid)
	if herr != nil {
		return flightHistory{}, herr
	}
	h := flightHistory{FLID: flid, Current: err == nil, Versions: []flightVersion{}}
	var prev *eventDoc
	for _, e := range evs {
		if e.Target != vocab.TargetMsg { // its KAFKA:schd twin carries the same change
			continue
		}
		doc := parseEventDoc(e.Payload)
		v := flightVersion{EventID: e.ID, MsgID: e.MsgID, StateVersion: e.StateVersion, EventType: e.EventType,
			Delivery: e.Status, CreatedAt: e.CreatedAt, Lifecycle: doc.Lifecycle, Changes: diffDocs(prev, &doc)}
		h.Versions = append(h.Versions, v)
		prev = &doc
	}
	if !h.Current && len(h.Versions) == 0 {
		return flightHistory{}, store.ErrNotFound
	}
	return h, nil
}

// eventDoc is the part of an UPSERT payload (flight.EventPayload) a diff
// compares; a TOMBSTONE's is empty.
type eventDoc struct {
	Scalars   map[string]struct{ Raw string } `json:"scalars"`
	Structs   map[string]json.RawMessage      `json:"structs"`
	Groups    map[string]json.RawMessage      `json:"groups"`
	Payloads  map[string]json.RawMessage      `json:"payloads"`
	Lifecycle string                          `json:"lifecycle"`
}

func parseEventDoc(payload []byte) eventDoc {
	var d eventDoc
	if len(payload) > 0 {
		_ = json.Unmarshal(payload, &d) // a payload is always our own JSON; a bad one diffs as empty
	}
	return d
}

// diffDocs lists what next changed against prev (nil: the first version,
// whose every element is new), in element-name order.
func diffDocs(prev, next *eventDoc) []change {
	if prev == nil {
		prev = &eventDoc{}
	}
	var out []change
	for _, k := range mapkeys.Union(prev.Scalars, next.Scalars) {
		if a, b := prev.Scalars[k].Raw, next.Scalars[k].Raw; a != b {
			out = append(out, change{Field: k, From: a, To: b})
		}
	}
	for _, m := range [][2]map[string]json.RawMessage{{prev.Structs, next.Structs}, {prev.Groups, next.Groups}, {prev.Payloads, next.Payloads}} {
		for _, k := range mapkeys.Union(m[0], m[1]) {
			a, inA := m[0][k]
			b, inB := m[1][k]
			switch {
			case inA && !inB:
				out = append(out, change{Field: k, From: "set", To: ""})
			case !inA && inB:
				out = append(out, change{Field: k, From: "", To: "set"})
			case !bytes.Equal(a, b):
				out = append(out, change{Field: k, From: "set", To: "replaced"})
			}
		}
	}
	if prev.Lifecycle != next.Lifecycle {
		out = append(out, change{Field: "lifecycle", From: prev.Lifecycle, To: next.Lifecycle})
	}
	if out == nil {
		out = []change{}
	}
	return out
}

// deadEventsPage is the JSON of GET /outbox/dead-events.
type deadEventsPage struct {
	Target     string      `json:"target"`
	DeadEvents []deadEvent `json:"dead_events"`
	Count      int         `json:"count"`
	NextCursor *string     `json:"next_cursor"`
}

// deadEvent is an outbox event that exhausted its deliveries.
type deadEvent struct {
	EventID      int64     `json:"event_id"`
	FLID         int64     `json:"flid"`
	MsgID        int64     `json:"msg_id"`
	StateVersion int64     `json:"state_version"`
	EventType    string    `json:"event_type"`
	Attempts     int       `json:"attempts"`
	LastError    *string   `json:"last_error"`
	CreatedAt    time.Time `json:"created_at"`
}

// getDeadEvents is GET /outbox/dead-events?target=KAFKA:msg&cursor=&limit=:
// the DEAD events of a target (default KAFKA:msg) in EVENT_ID order, their
// errors redacted as the public reasons are.
func (s *server) getDeadEvents(w http.ResponseWriter, r *http.Request) {
	target := r.URL.Query().Get("target")
	if target == "" {
		target = vocab.TargetMsg
	}
	if target != vocab.TargetMsg && target != vocab.TargetSchd {
		writeError(w, http.StatusBadRequest, "target must be "+vocab.TargetMsg+" or "+vocab.TargetSchd+", got "+strconv.Quote(target))
		return
	}
	p, ok := pageParams(w, r)
	if !ok {
		return
	}
	out, err := s.deadEventPage(r.Context(), target, p)
	if err != nil {
		s.storeError(w, r, "list dead events", err, "target", target)
		return
	}
	s.writeValue(w, r, "dead events", out)
}

func (s *server) deadEventPage(ctx context.Context, target string, p page) (deadEventsPage, error) {
	evs, err := s.Store.DeadEvents(ctx, store.DeadEventsParams{Target: target, AfterID: p.after, Limit: p.limit + 1})
	if err != nil {
		return deadEventsPage{}, err
	}
	more := len(evs) > p.limit
	evs = evs[:min(len(evs), p.limit)]
	out := deadEventsPage{Target: target, DeadEvents: make([]deadEvent, len(evs)), Count: len(evs)}
	for i, e := range evs {
		out.DeadEvents[i] = deadEvent{EventID: e.ID, FLID: e.FLID, MsgID: e.MsgID, StateVersion: e.StateVersion,
			EventType: e.EventType, Attempts: e.Attempts, LastError: opt(redact.Reason(e.LastError)), CreatedAt: e.CreatedAt}
	}
	if len(evs) > 0 {
		out.NextCursor = nextCursor(more, evs[len(evs)-1].ID)
	}
	return out, nil
}
