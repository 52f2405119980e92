package api

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/redact"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// errorClasses are the classes a message can carry (docs/design.md §3).
var errorClasses = vocab.ClassNames()

func (s *server) mountLists(r chi.Router) {
	r.Get("/all/flights", s.flightsByDay)
	r.Get("/dead-letters", s.deadLetters(redact.Reason))
}

// flightsPage is the JSON of GET /all/flights. next_cursor is null on the
// last page; otherwise pass it as ?cursor= for the next one.
type flightsPage struct {
	Day        string            `json:"day"`
	Flights    []json.RawMessage `json:"flights"`
	Count      int               `json:"count"`
	NextCursor *string           `json:"next_cursor"`
}

// flightsByDay is GET /all/flights?day=YYYY-MM-DD&cursor=&limit=: the flights
// of an operation day in FLID order (keyset paging: a page never repeats or
// skips a flight, whatever is written meanwhile), each as GET /flights/{flid}
// answers it.
func (s *server) flightsByDay(w http.ResponseWriter, r *http.Request) {
	raw := r.URL.Query().Get("day")
	if raw == "" {
		writeError(w, http.StatusBadRequest, "day is required (YYYY-MM-DD, the operation day in airport time)")
		return
	}
	day, err := time.Parse(time.DateOnly, raw)
	if err != nil {
		writeError(w, http.StatusBadRequest, "day must be a date YYYY-MM-DD, got "+strconv.Quote(raw))
		return
	}
	p, ok := pageParams(w, r)
	if !ok {
		return
	}
	states, next, err := s.flightsOfDay(r.Context(), day, p)
	if err != nil {
		s.storeError(w, r, "list flights", err, "after_flid", p.after)
		return
	}
	out := flightsPage{Day: raw, Flights: make([]json.RawMessage, len(states)), Count: len(states), NextCursor: next}
	for i, st := range states {
		b, err := flight.EventPayload(st)
		if err != nil {
			s.serverError(w, r, http.StatusInternalServerError, "internal error", "encode flight", err, "flid", st.FLID)
			return
		}
		out.Flights[i] = b
	}
	s.writeValue(w, r, "flights", out)
}

// flightsOfDay is one page of an operation day's flights in FLID order
// (GET /all/flights, the console's flight search) and the cursor of the next.
func (s *server) flightsOfDay(ctx context.Context, day time.Time, p page) ([]*flight.State, *string, error) {
	states, err := s.Store.FlightsByDay(ctx, store.FlightsByDayParams{Day: day, AfterFLID: p.after, Limit: p.limit + 1})
	if err != nil {
		return nil, nil, err
	}
	more := len(states) > p.limit
	states = states[:min(len(states), p.limit)]
	var next *string
	if len(states) > 0 {
		next = nextCursor(more, states[len(states)-1].FLID)
	}
	return states, next, nil
}

// deadLettersPage is the JSON of GET /dead-letters.
type deadLettersPage struct {
	Class       *string       `json:"class"`
	DeadLetters []messageBody `json:"dead_letters"`
	Count       int           `json:"count"`
	NextCursor  *string       `json:"next_cursor"`
}

// deadLetters is GET /dead-letters?class=&cursor=&limit= (and
// /admin/dead-letters with the full reasons): the live DEAD messages in
// MSG_ID order, optionally of one error class, each as GET /messages/{id}
// answers it.
func (s *server) deadLetters(reason reasonFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { s.listDeadLetters(w, r, reason) }
}

func (s *server) listDeadLetters(w http.ResponseWriter, r *http.Request, reason reasonFunc) {
	class := r.URL.Query().Get("class")
	if class != "" && !slices.Contains(errorClasses, class) {
		writeError(w, http.StatusBadRequest, "class must be one of "+strings.Join(errorClasses, ", ")+", got "+strconv.Quote(class))
		return
	}
	p, ok := pageParams(w, r)
	if !ok {
		return
	}
	out, err := s.deadLetterPage(r.Context(), class, p, reason)
	if err != nil {
		s.storeError(w, r, "list dead letters", err, "after_msg_id", p.after)
		return
	}
	s.writeValue(w, r, "dead letters", out)
}

// deadLetterPage is one page of the live DEAD messages, of one class unless
// class is empty (GET /dead-letters, the console's dead letters).
func (s *server) deadLetterPage(ctx context.Context, class string, p page, reason reasonFunc) (deadLettersPage, error) {
	msgs, err := s.Store.DeadLetters(ctx, store.DeadLettersParams{Class: class, AfterID: p.after, Limit: p.limit + 1})
	if err != nil {
		return deadLettersPage{}, err
	}
	more := len(msgs) > p.limit
	msgs = msgs[:min(len(msgs), p.limit)]
	out := deadLettersPage{Class: opt(class), DeadLetters: make([]messageBody, len(msgs)), Count: len(msgs)}
	for i, m := range msgs {
		out.DeadLetters[i] = newMessageBody(m, reason)
	}
	if len(msgs) > 0 {
		out.NextCursor = nextCursor(more, msgs[len(msgs)-1].ID)
	}
	return out, nil
}
