package api

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store"
)

func (s *server) mountRead(r chi.Router) {
	r.Get("/flights/{flid}", s.getFlight)
	r.Get("/messages/{id}", s.getMessage)
}

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
	states, err := s.Store.Flights(r.Context(), []int64{flid})
	if err != nil {
		s.storeError(w, "read flight", err, "flid", flid)
		return
	}
	st, found := states[flid]
	if !found || st == nil {
		s.getArchivedFlight(w, r, flid) // archived.go
		return
	}
	body, err := flight.EventPayload(st)
	if err != nil {
		s.Log.Error("api: encode flight", "flid", flid, "err", err)
		writeError(w, http.StatusInternalServerError, "internal error")
		return
	}
	writeJSON(w, body)
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

// getMessage is GET /messages/{id}: the processing record of a mailbox row,
// live or archived.
func (s *server) getMessage(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r, "id")
	if !ok {
		return
	}
	m, err := s.Store.Message(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, "no message "+strconv.FormatInt(id, 10))
		return
	}
	if err != nil {
		s.storeError(w, "read message", err, "msg_id", id)
		return
	}
	s.writeValue(w, "message", newMessageBody(m))
}

// newMessageBody is the JSON of a processing record.
func newMessageBody(m store.Message) messageBody {
	return messageBody{
		MsgID: m.ID, Status: m.Status, ErrorClass: opt(m.ErrorClass), Reason: opt(m.Reason),
		Attempts: m.Attempts, NextAttemptAt: m.NextAttemptAt, FirstSeenAt: m.FirstSeenAt, FinishedAt: m.FinishedAt,
		IdentityKey: opt(m.IdentityKey), Kind: opt(m.Kind), DuplicateOf: m.DuplicateOf, Archived: m.Archived,
		Meta: metaBody{Sndr: opt(m.Meta.Sndr), Seqn: m.Meta.Seqn, DttmRaw: opt(m.Meta.DttmRaw), Dttm: m.Meta.Dttm,
			Type: opt(m.Meta.Type), Styp: opt(m.Meta.Styp)},
		ReplayCount: m.ReplayCount, PrevErrorClass: opt(m.PrevClass), PrevReason: opt(m.PrevReason),
	}
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
// (retry later), 500 otherwise.
func (s *server) storeError(w http.ResponseWriter, op string, err error, attrs ...any) {
	s.Log.Error("api: "+op+" failed", append(attrs, "err", err)...)
	if errors.Is(err, store.ErrUnavailable) {
		writeError(w, http.StatusServiceUnavailable, "database unavailable")
		return
	}
	writeError(w, http.StatusInternalServerError, "internal error")
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
