package api

import (
	"context"
	"fmt"
	"net/http"

	"github.com/msgx-aodb/msgx/internal/mailbox"
)

// DefaultMaxJSONBytes bounds the request bodies of the JSON routes (every
// route but the send route, whose body is a message: Deps.MaxBodyBytes).
const DefaultMaxJSONBytes = 64 << 10

// SendLimit is the effective body limit of POST /cminmsgs/send: the
// configured limit, lowered to the largest body the mailbox server can store
// in one INSERT (its max_allowed_packet less the statement:
// Mailbox.MaxInsertBody). Above it the server would refuse the insert, which
// is the sender's 413, not an outage's 503.
func SendLimit(ctx context.Context, mb *mailbox.Mailbox, configured int64) (int64, error) {
	server, err := mb.MaxInsertBody(ctx)
	if err != nil {
		return 0, err
	}
	return min(configured, server), nil
}

// limitBody answers 413 to a body over max bytes: at once when the request
// declares its length, and while reading otherwise (readJSON turns the
// reader's error into 413).
func limitBody(max int64) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.ContentLength > max {
				writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("body over the limit of %d bytes", max))
				return
			}
			r.Body = http.MaxBytesReader(w, r.Body, max)
			next.ServeHTTP(w, r)
		})
	}
}
