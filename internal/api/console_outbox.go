package api

import (
	"net/http"

	"github.com/msgx-aodb/msgx/internal/status"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

type outboxView struct {
	Report status.Report
	Target string
	Dead   deadEventsPage
}

func (s *server) consoleOutbox(w http.ResponseWriter, r *http.Request) {
	target := r.URL.Query().Get("target")
	if target == "" {
		target = vocab.TargetMsg
	}
	if target != vocab.TargetMsg && target != vocab.TargetSchd {
		s.consoleBadRequest(w, r, "target must be "+vocab.TargetMsg+" or "+vocab.TargetSchd)
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
	dead, err := s.deadEventPage(r.Context(), target, p)
	if err != nil {
		s.consoleError(w, r, "list dead events", err)
		return
	}
	s.render(w, r, "outbox", outboxView{Report: rep, Target: target, Dead: dead})
}
