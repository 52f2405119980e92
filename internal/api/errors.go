package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"net/http"
)

// errorBody is the JSON of every error answer. A 5xx carries the request id
// its log line carries, never the error's text (it may name hosts, users and
// databases).
type errorBody struct {
	Error     string `json:"error"`
	Status    int    `json:"status"`
	RequestID string `json:"request_id,omitempty"`
}

// requestIDHeader is set on every answer: the id of the request in the logs.
const requestIDHeader = "X-Request-Id"

// writeError answers {"error": msg, "status": status}, and the request id
// for a server error.
func writeError(w http.ResponseWriter, status int, msg string) {
	b := errorBody{Error: msg, Status: status}
	if status >= 500 {
		b.RequestID = w.Header().Get(requestIDHeader)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(b)
}

// serverError logs err (with the request id) and answers status with the
// public message only.
func (s *server) serverError(w http.ResponseWriter, r *http.Request, status int, public, op string, err error, attrs ...any) {
	s.logFor(r).Error("api: "+op+" failed", append(attrs, "err", err)...)
	writeError(w, status, public)
}

type requestIDKey struct{}

// requestID gives every request an id, on its answer (X-Request-Id) and in
// its context for the logs. A client's own X-Request-Id is not trusted (it
// would be written into the logs as given).
func requestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b [8]byte
		_, _ = rand.Read(b[:])
		id := hex.EncodeToString(b[:])
		w.Header().Set(requestIDHeader, id)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestIDKey{}, id)))
	})
}

// logFor is the logger of one request: its id, method and path.
func (s *server) logFor(r *http.Request) *slog.Logger {
	id, _ := r.Context().Value(requestIDKey{}).(string)
	return s.Log.With("request_id", id, "method", r.Method, "path", r.URL.Path)
}

// recoverJSON turns a handler panic into a logged 500 instead of a dropped
// connection; http.ErrAbortHandler keeps its meaning.
func (s *server) recoverJSON(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.logFor(r).Error("api: handler panic", "panic", v)
				writeError(w, http.StatusInternalServerError, "internal error")
			}
		}()
		next.ServeHTTP(w, r)
	})
}
