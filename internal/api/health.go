package api

import (
	"encoding/json"
	"net/http"
	"slices"

	"github.com/go-chi/chi/v5"

	"github.com/msgx-aodb/msgx/internal/leader"
	"github.com/msgx-aodb/msgx/internal/readiness"
	"github.com/msgx-aodb/msgx/internal/redact"
)

func (s *server) mountHealth(r chi.Router) {
	r.Get("/healthz", s.healthz)
	r.Get("/readyz", s.readyz(redact.Reason))
	if s.Metrics != nil {
		r.Method(http.MethodGet, "/metrics", s.Metrics.Handler())
	}
}

// healthz is GET /healthz: the process is alive and serving (always 200; it
// checks nothing else, so a restart never cures a database outage).
func (s *server) healthz(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, []byte(`{"status":"ok"}`+"\n"))
}

// readyBody is the JSON of GET /readyz.
type readyBody struct {
	Ready bool `json:"ready"`
	readiness.Readiness
}

// readyz is GET /readyz (and /admin/readyz with the checks' errors in
// full): 200 when every dependency check passed and the instance is the
// leader or a standby, 503 otherwise; the body lists the checks and the role
// either way. A failed check's error is logged in full, once per interval
// per check (load balancers poll this route).
func (s *server) readyz(reason reasonFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		rd := readiness.Readiness{Role: string(leader.Starting),
			Checks: []readiness.CheckResult{{Name: "readiness", Error: "no readiness hook configured"}}}
		if s.Ready != nil {
			rd = s.Ready(r.Context())
		}
		rd.Checks = slices.Clone(rd.Checks)
		if rd.Checks == nil {
			rd.Checks = []readiness.CheckResult{}
		}
		for i, c := range rd.Checks {
			if c.OK {
				continue
			}
			if ok, suppressed := s.checkLogs.allow("readyz "+c.Name, s.Clock.Now()); ok {
				s.Log.Warn("api: readiness check failed", "check", c.Name, "err", c.Error, "suppressed", suppressed)
			}
			rd.Checks[i].Error = reason(c.Error)
		}
		body, err := json.Marshal(readyBody{Ready: rd.Ready(), Readiness: rd})
		if err != nil {
			s.serverError(w, r, http.StatusInternalServerError, "internal error", "encode readiness", err)
			return
		}
		code := http.StatusOK
		if !rd.Ready() {
			code = http.StatusServiceUnavailable
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(code)
		_, _ = w.Write(body)
	}
}
