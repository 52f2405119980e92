package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/msgx-aodb/msgx/internal/mailbox"
)

// Limits of every route but the send route (whose body is a message:
// Deps.MaxBodyBytes).
const (
	DefaultMaxJSONBytes   = 64 << 10 // request bodies of the JSON routes
	DefaultRequestTimeout = 30 * time.Second
	DefaultPageLimit      = 100
	MaxPageLimit          = 1000
)

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

// page is the paging of a list route: ?cursor=&limit=.
type page struct {
	after int64 // the cursor: the last key of the previous page (0: from the start)
	limit int
}

// pageParams parses cursor and limit, answering 400 naming the parameter.
func pageParams(w http.ResponseWriter, r *http.Request) (page, bool) {
	p, err := parsePage(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return page{}, false
	}
	return p, true
}

// parsePage parses cursor and limit; the error names the parameter.
func parsePage(r *http.Request) (page, error) {
	q := r.URL.Query()
	p := page{limit: DefaultPageLimit}
	if raw := q.Get("limit"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > MaxPageLimit {
			return page{}, fmt.Errorf("limit must be an integer from 1 to %d, got %q", MaxPageLimit, raw)
		}
		p.limit = n
	}
	if raw := q.Get("cursor"); raw != "" {
		n, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || n < 0 {
			return page{}, fmt.Errorf("cursor must be the next_cursor of a previous page, got %q", raw)
		}
		p.after = n
	}
	return p, nil
}

// nextCursor is the cursor of the page after one whose last key is last, or
// nil when more is false (the page was the last).
func nextCursor(more bool, last int64) *string {
	if !more {
		return nil
	}
	c := strconv.FormatInt(last, 10)
	return &c
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
