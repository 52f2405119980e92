package api

import (
	"encoding/json"
	"net/http"
)

// errorBody is the JSON of every error answer.
type errorBody struct {
	Error  string `json:"error"`
	Status int    `json:"status"`
}

// writeError answers {"error": msg, "status": status}.
func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(errorBody{Error: msg, Status: status})
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
				s.Log.Error("api: handler panic", "method", r.Method, "path", r.URL.Path, "panic", v)
				writeError(w, http.StatusInternalServerError, "internal error")
			}
		}()
		next.ServeHTTP(w, r)
	})
}
