package api

import (
	"net/http"

	"github.com/msgx-aodb/msgx/internal/status"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// requestsView is the open requests (the status report's), the recent ones
// when requests are configured, and the maintenance jobs.
type requestsView struct {
	Report     status.Report
	Configured bool
	Recent     []vocab.Request
}

func (s *server) consoleRequests(w http.ResponseWriter, r *http.Request) {
	rep, err := s.statusReport(r.Context())
	if err != nil {
		s.consoleError(w, r, "status", err)
		return
	}
	v := requestsView{Report: rep, Configured: s.Requests != nil}
	if v.Configured {
		list, err := s.requestPage(r.Context(), 0, 20)
		if err != nil {
			s.consoleError(w, r, "list requests", err)
			return
		}
		v.Recent = list.Requests
	}
	s.render(w, r, "requests", v)
}
