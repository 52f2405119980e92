package api

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/redact"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

func (s *server) mountRead(r chi.Router) {
	r.Get("/flights/{flid}", s.getFlight)
	r.Get("/messages/{id}", s.getMessage(redact.Reason))
}

// A reason shows a stored error text: redact.Reason on the public routes
// (an INFRA reason holds the driver's words, hosts and users), the text as
// stored on the admin routes.
type reasonFunc func(string) string

func fullReason(s string) string { return s }

// getFlight is GET /flights/{flid}: the full current state, byte for byte the
// payload an UPSERT event of that state carries (flight.EventPayload), so a
// reader and a Kafka consumer see the same document. A DELETED flight is
// still answered (lifecycle says so) until the history sweep moves it; then
// its last state is answered from the history store, marked archived.
func (s *server) getFlight(w http.ResponseWriter, r *http.Request) {
	flid, ok := pathID(w, r, "flid")
	if !ok {
		return
	}
	st, err := s.flightState(r.Context(), flid)
	switch {
	case errors.Is(err, store.ErrNotFound):
		s.getArchivedFlight(w, r, flid) // archived.go: its last state, or 404
		return
	case err != nil:
		s.storeError(w, r, "read flight", err, "flid", flid)
		return
	}
	body, err := flight.EventPayload(st)
	if err != nil {
		s.serverError(w, r, http.StatusInternalServerError, "internal error", "encode flight", err, "flid", flid)
		return
	}
	writeJSON(w, body)
}

// flightState is the current state of a flight (GET /flights/{flid}, the
// console's flight page); store.ErrNotFound when there is none.
func (s *server) flightState(ctx context.Context, flid int64) (*flight.State, error) {
	states, err := s.Store.Flights(ctx, []int64{flid})
	if err != nil {
		return nil, err
	}
	if st := states[flid]; st != nil {
		return st, nil
	}
	return nil, store.ErrNotFound
}

// messageBody is the JSON of GET /messages/{id}. Absent values are null.
type messageBody struct {
	MsgID          int64      `json:"msg_id"`
	Status         string     `json:"status"`
	ErrorClass     *string    `json:"error_class"`
	Reason         *string    `json:"reason"`
	Attempts       int        `json:"attempts"`
	NextAttemptAt  *time.Time `json:"next_attempt_at"`
	FirstSeenAt    time.Time  `json:"first_seen_at"`
	FinishedAt     *time.Time `json:"finished_at"`
	IdentityKey    *string    `json:"identity_key"`
	Kind           *string    `json:"kind"`
	DuplicateOf    *int64     `json:"duplicate_of"`
	Archived       bool       `json:"archived"`
	Meta           metaBody   `json:"meta"`
	ReplayCount    int        `json:"replay_count"`
	PrevErrorClass *string    `json:"prev_error_class"`
	PrevReason     *string    `json:"prev_reason"`
	// Late is late:<largest finished id> for a late row (rule 17), else null.
	Late *string `json:"late"`
}

// metaBody is the decoded META (null fields until the message is decoded).
type metaBody struct {
	Sndr    *string    `json:"sndr"`
	Seqn    *int64     `json:"seqn"`
	DttmRaw *string    `json:"dttm_raw"`
	Dttm    *time.Time `json:"dttm"`
	Type    *string    `json:"type"`
	Styp    *string    `json:"styp"`
}

// getMessage is GET /messages/{id} (and /admin/messages/{id} with the full
// reasons): the processing record of a mailbox row, live or archived.
func (s *server) getMessage(reason reasonFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, ok := pathID(w, r, "id")
		if !ok {
			return
		}
		m, err := s.message(r.Context(), id, reason)
		if errors.Is(err, store.ErrNotFound) {
			writeError(w, http.StatusNotFound, "no message "+strconv.FormatInt(id, 10))
			return
		}
		if err != nil {
			s.storeError(w, r, "read message", err, "msg_id", id)
			return
		}
		s.writeValue(w, r, "message", m)
	}
}

// message is the processing record of a mailbox row (GET /messages/{id},
// the console's message page); store.ErrNotFound when there is none.
func (s *server) message(ctx context.Context, id int64, reason reasonFunc) (messageBody, error) {
	m, err := s.Store.Message(ctx, id)
	if err != nil {
		return messageBody{}, err
	}
	return newMessageBody(m, reason), nil
}

// newMessageBody is the JSON of a processing record, its reasons shown by reason.
func newMessageBody(m vocab.QueueEntry, reason reasonFunc) messageBody {
	return messageBody{
		MsgID: m.ID, Status: m.Status, ErrorClass: opt(m.ErrorClass), Reason: opt(reason(m.Reason)),
		Attempts: m.Attempts, NextAttemptAt: m.NextAttemptAt, FirstSeenAt: m.FirstSeenAt, FinishedAt: m.FinishedAt,
		IdentityKey: opt(m.IdentityKey), Kind: opt(m.Kind), DuplicateOf: m.DuplicateOf, Archived: m.Archived,
		Meta: metaBody{Sndr: opt(m.Meta.Sndr), Seqn: m.Meta.Seqn, DttmRaw: opt(m.Meta.DttmRaw), Dttm: m.Meta.Dttm,
			Type: opt(m.Meta.Type), Styp: opt(m.Meta.Styp)},
		ReplayCount: m.ReplayCount, PrevErrorClass: opt(m.PrevClass), PrevReason: opt(reason(m.PrevReason)),
		Late: lateMark(m.LateAfter),
	}
}

// lateMark is a late row's mark, nil for a row enqueued in order.
func lateMark(after *int64) *string {
	if after == nil {
		return nil
	}
	s := vocab.LateMark(*after)
	return &s
}

// pathID parses a positive integer path parameter, answering 400 otherwise.
func pathID(w http.ResponseWriter, r *http.Request, name string) (int64, bool) {
	raw := chi.URLParam(r, name)
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id <= 0 {
		writeError(w, http.StatusBadRequest, name+" must be a positive integer, got "+strconv.Quote(raw))
		return 0, false
	}
	return id, true
}

// storeError answers a store failure: 503 when the database is unreachable
// (retry later), 500 otherwise; the error itself goes to the log only.
func (s *server) storeError(w http.ResponseWriter, r *http.Request, op string, err error, attrs ...any) {
	if errors.Is(err, store.ErrUnavailable) {
		s.serverError(w, r, http.StatusServiceUnavailable, "database unavailable", op, err, attrs...)
		return
	}
	s.serverError(w, r, http.StatusInternalServerError, "internal error", op, err, attrs...)
}

func writeJSON(w http.ResponseWriter, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

func opt(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
