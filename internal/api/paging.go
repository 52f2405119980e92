package api

import (
	"fmt"
	"net/http"
	"strconv"
)

// Paging of the list routes: the default and the largest ?limit=.
const (
	DefaultPageLimit = 100
	MaxPageLimit     = 1000
)

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
