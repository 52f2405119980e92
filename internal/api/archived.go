package api

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/msgx-aodb/msgx/internal/store"
)

// getArchivedFlight answers GET /flights/{flid} for a flight the history
// sweep purged: its last state from FLIGHT_HST (the same document as a live
// flight's) with "archived": true; 404 when it was never there either.
func (s *server) getArchivedFlight(w http.ResponseWriter, r *http.Request, flid int64) {
	h, err := s.Store.LatestFlightHistory(r.Context(), flid)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, "no flight "+strconv.FormatInt(flid, 10))
		return
	}
	if err != nil {
		s.storeError(w, r, "read flight history", err, "flid", flid)
		return
	}
	body := h.State
	if n := len(body); n < 2 || body[n-1] != '}' {
		s.serverError(w, r, http.StatusInternalServerError, "internal error", "flight history is not a JSON object", nil, "flid", flid)
		return
	}
	out := make([]byte, 0, len(body)+len(`,"archived":true}`))
	out = append(append(out, body[:len(body)-1]...), `,"archived":true}`...)
	writeJSON(w, out)
}
