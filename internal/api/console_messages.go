package api

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/msgx-aodb/msgx/internal/redact"
)

type deadLettersView struct {
	Page    deadLettersPage
	Class   string
	Classes []string
	Counts  map[string]int64
}

func (s *server) consoleDeadLetters(w http.ResponseWriter, r *http.Request) {
	class := r.URL.Query().Get("class")
	if class != "" && !slices.Contains(errorClasses, class) {
		s.consoleBadRequest(w, r, "class must be one of "+strings.Join(errorClasses, ", "))
		return
	}
	p, ok := consolePage(w, r, s)
	if !ok {
		return
	}
	rep, err := s.statusReport(r.Context())
	if err != nil {
		s.consoleError(w, r, "status", err)
		return
	}
	out, err := s.deadLetterPage(r.Context(), class, p, redact.Reason)
	if err != nil {
		s.consoleError(w, r, "list dead letters", err)
		return
	}
	s.render(w, r, "dead-letters", deadLettersView{Page: out, Class: class, Classes: errorClasses, Counts: rep.DeadLetters})
}

func (s *server) consoleMessage(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(chi.URLParam(r, "id"), 10, 64)
	if err != nil || id <= 0 {
		s.consoleBadRequest(w, r, "a message id is a positive integer")
		return
	}
	m, err := s.message(r.Context(), id, redact.Reason)
	if err != nil {
		s.consoleError(w, r, "read message", err)
		return
	}
	s.render(w, r, "message", m)
}
