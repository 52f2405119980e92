package api

import (
	"fmt"
	"net/http"
)

// DefaultMaxConcurrentSends is how many POST /cminmsgs/send are handled at
// once by default (http.max-concurrent-sends).
const DefaultMaxConcurrentSends = 4

// sendRetryAfter is the Retry-After of a send refused for being one too many.
const sendRetryAfter = "1"

// limitSends handles at most max requests at once and answers any more 503
// with Retry-After at once, before reading their bodies: a send holds its
// body (up to the message limit) until the mailbox has it, so the count
// bounds the memory of sends. Refusing rather than queueing keeps a burst
// from holding connections and memory; the sender retries.
func limitSends(max int) func(http.Handler) http.Handler {
	slots := make(chan struct{}, max)
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case slots <- struct{}{}:
				defer func() { <-slots }()
				next.ServeHTTP(w, r)
			default:
				w.Header().Set("Retry-After", sendRetryAfter)
				writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("%d sends in progress: retry later", max))
			}
		})
	}
}
