package api

import (
	"context"
	"net/http"
	"time"
)

// DefaultRequestTimeout bounds the work of one request of any route.
const DefaultRequestTimeout = 30 * time.Second

// deadline bounds the work of one request (store and mailbox reads take the
// request's context).
func deadline(d time.Duration) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ctx, cancel := context.WithTimeout(r.Context(), d)
			defer cancel()
			next.ServeHTTP(w, r.WithContext(ctx))
		})
	}
}
