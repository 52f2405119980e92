package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/msgx-aodb/msgx/internal/aodbrequest"
	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/respmatch"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Requests to the AODB (docs/requests.md), behind the admin token:
// POST /admin/requests registers and sends one, GET /admin/requests lists them.

// Page bounds of GET /admin/requests.
const (
	defaultRequestPage = 50
	maxRequestPage     = 500
)

func (s *server) mountRequests(r chi.Router) {
	r.Post("/requests", s.postRequest)
	r.Get("/requests", s.listRequests)
}

// requestBody is POST /admin/requests: {"kind":"RQFD","from":"…","to":"…"}
// (airport local time YYYY-MM-DDTHH:MM) or {"kind":"RQRD","list":"AIRL"}.
type requestBody struct {
	Kind string `json:"kind"`
	From string `json:"from"`
	To   string `json:"to"`
	List string `json:"list"`
}

func (s *server) postRequest(w http.ResponseWriter, r *http.Request) {
	if s.Requests == nil {
		writeError(w, http.StatusServiceUnavailable, "requests are not configured on this instance")
		return
	}
	var body requestBody
	if !readJSON(w, r, &body) {
		return
	}
	var (
		req vocab.Request
		err error
	)
	switch body.Kind {
	case respmatch.TypeFlights:
		if body.List != "" {
			writeError(w, http.StatusBadRequest, "list: only for kind RQRD")
			return
		}
		loc := s.Requests.Location()
		from, ferr := aodbrequest.ParseLocal(body.From, loc)
		to, terr := aodbrequest.ParseLocal(body.To, loc)
		if err = errors.Join(ferr, terr); err == nil {
			req, err = s.Requests.Flights(r.Context(), from, to)
		}
	case respmatch.TypeReference:
		if body.From != "" || body.To != "" {
			writeError(w, http.StatusBadRequest, "from/to: only for kind RQFD")
			return
		}
		req, err = s.Requests.Reference(r.Context(), body.List)
	default:
		writeError(w, http.StatusBadRequest, `kind must be "RQFD" (with from and to) or "RQRD" (with list)`)
		return
	}
	switch {
	case errors.Is(err, aodbrequest.ErrInvalid):
		writeError(w, http.StatusBadRequest, err.Error())
		return
	case errors.Is(err, aodbrequest.ErrShadow), errors.Is(err, mailbox.ErrReadOnly):
		writeError(w, http.StatusConflict, aodbrequest.ErrShadow.Error())
		return
	case errors.Is(err, mailbox.ErrUnavailable):
		s.Log.Error("api: request not sent", "err", err)
		writeError(w, http.StatusServiceUnavailable, "outbound mailbox unavailable: "+err.Error())
		return
	case err != nil:
		s.storeError(w, r, "request", err, "kind", body.Kind)
		return
	}
	s.Log.Info("api: request sent", "req_id", req.ID, "kind", req.Key, "coutmsgs_id", req.OutboundID)
	w.Header().Set("Location", "/admin/requests?before="+strconv.FormatInt(req.ID+1, 10)+"&limit=1")
	s.answer(w, r, http.StatusCreated, "request-sent", aodbrequest.UTC(req))
}

// requestList is GET /admin/requests: newest first; next_before pages on.
type requestList struct {
	Requests   []vocab.Request `json:"requests"`
	NextBefore *int64          `json:"next_before"`
}

func (s *server) listRequests(w http.ResponseWriter, r *http.Request) {
	if s.Requests == nil {
		writeError(w, http.StatusServiceUnavailable, "requests are not configured on this instance")
		return
	}
	limit, before := defaultRequestPage, int64(0)
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxRequestPage {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("limit: an integer from 1 to %d", maxRequestPage))
			return
		}
		limit = n
	}
	if v := r.URL.Query().Get("before"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			writeError(w, http.StatusBadRequest, "before: a positive request id")
			return
		}
		before = n
	}
	res, err := s.requestPage(r.Context(), before, limit)
	if err != nil {
		s.storeError(w, r, "list requests", err)
		return
	}
	s.writeValue(w, r, "requests", res)
}

// requestPage is one page of the requests, newest first, before the id
// before (0: the newest) (GET /admin/requests, the console's requests).
func (s *server) requestPage(ctx context.Context, before int64, limit int) (requestList, error) {
	reqs, err := s.Requests.List(ctx, before, limit)
	if err != nil {
		return requestList{}, err
	}
	res := requestList{Requests: make([]vocab.Request, len(reqs))}
	for i, q := range reqs {
		res.Requests[i] = aodbrequest.UTC(q)
	}
	if len(reqs) == limit {
		last := reqs[len(reqs)-1].ID
		res.NextBefore = &last
	}
	return res, nil
}
