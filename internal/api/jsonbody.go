package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// readJSON decodes a JSON object body into v, strictly (unknown fields and
// trailing data are refused), answering 413, 415 or 400 itself; false when
// it did.
func readJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(strings.ToLower(ct), "application/json") {
		writeError(w, http.StatusUnsupportedMediaType, "Content-Type must be application/json, got "+strconv.Quote(ct))
		return false
	}
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if _, extra := dec.Token(); extra != io.EOF {
			err = errors.New("data after the JSON object")
		}
	}
	var tooLarge *http.MaxBytesError
	switch {
	case err == nil:
		return true
	case errors.As(err, &tooLarge):
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("body over the limit of %d bytes", tooLarge.Limit))
	case errors.Is(err, io.EOF):
		writeError(w, http.StatusBadRequest, "empty body: a JSON object is required")
	default:
		writeError(w, http.StatusBadRequest, "invalid JSON body: "+err.Error())
	}
	return false
}

// writeValue answers 200 with v as JSON.
func (s *server) writeValue(w http.ResponseWriter, r *http.Request, what string, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		s.serverError(w, r, http.StatusInternalServerError, "internal error", "encode "+what, err)
		return
	}
	writeJSON(w, body)
}
