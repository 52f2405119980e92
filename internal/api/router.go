// Package api is msgx's HTTP interface (docs/design.md §5) on a chi router.
// Each file mounts its own routes from NewRouter (ingest.go: the send
// endpoint behind the send token; read.go and list.go: flights, messages,
// dead letters; admin.go: replay, queue and the full-text twins of the
// public routes behind the admin token; health.go: /healthz, /readyz,
// /metrics; contract.go: docs/openapi.yaml and the other contracts), and
// every error is answered as JSON by errors.go, a 5xx with a request id
// instead of the error's text. Tokens and the limit of failed
// authentications are auth.go and authlimit.go; body limits, the page limit
// and the request deadline are in body.go and deadline.go; the slice of the
// store the handlers use is store.go.
package api

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/msgx-aodb/msgx/internal/aodbrequest"
	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/metrics"
	"github.com/msgx-aodb/msgx/internal/readiness"
	"github.com/msgx-aodb/msgx/internal/sis"
)

// DefaultMaxBodyBytes is the default limit of a sent message (16 MiB, as the codec's).
const DefaultMaxBodyBytes = 16 << 20

// Deps is what the handlers use.
type Deps struct {
	Store        Store
	Mailbox      *mailbox.Mailbox
	Clock        clock.Clock
	Log          *slog.Logger
	MaxBodyBytes int64 // limit of POST /cminmsgs/send; 0 means DefaultMaxBodyBytes
	// MaxConcurrentSends is how many POST /cminmsgs/send are handled at
	// once, 503 beyond (sendlimit.go); 0 means DefaultMaxConcurrentSends.
	MaxConcurrentSends int

	// MaxJSONBytes limits the body of every other route (413 over it); 0
	// means DefaultMaxJSONBytes.
	MaxJSONBytes int64
	// RequestTimeout bounds the work of every route but send and /metrics
	// (whose scrape has its own bound); 0 means DefaultRequestTimeout.
	RequestTimeout time.Duration
	// AdminToken is the Bearer token of /admin/*; empty disables them (403).
	AdminToken string
	// SendToken is the Bearer token of POST /cminmsgs/send; empty lets
	// anyone send (development only: production refuses to start without).
	SendToken string
	// AuthFailures failed authentications per client address per
	// AuthInterval are answered 401; beyond them 429 until the allowance
	// refills. 0 means DefaultAuthFailures, DefaultAuthInterval.
	AuthFailures int
	AuthInterval time.Duration
	// Decode are the pump's decode options: the replay preview decodes the
	// raw messages to learn which flights they concern.
	Decode sis.Options
	// Ready answers GET /readyz (readiness.Prober builds one); nil answers 503.
	Ready func(ctx context.Context) readiness.Readiness
	// Mode tells GET /admin/queue the instance's role and shadow flag; nil
	// leaves them out.
	Mode readiness.Mode
	// Metrics, when non-nil, is served at GET /metrics.
	Metrics *metrics.Metrics
	// Inserted, when non-nil, is called after a send inserted its row (it
	// wakes the leader's poller, which enqueues the row in id order, so the
	// message waits for no poll interval).
	Inserted func()
	// Requests serves /admin/requests (requests.go); nil answers 503.
	Requests *aodbrequest.Service
}

// server carries the dependencies into the handlers of every file.
type server struct {
	Deps
	console   consoleTemplates // console_render.go
	authFails *authFailures
	authLogs  *logLimiter // failed authentications, per client, kind and limited or not
	checkLogs *logLimiter // failed readiness checks, per check
}

// NewRouter returns the HTTP handler of msgx.
func NewRouter(deps Deps) http.Handler {
	if deps.Log == nil {
		deps.Log = slog.Default()
	}
	if deps.Clock == nil {
		deps.Clock = clock.Real{}
	}
	if deps.MaxBodyBytes <= 0 {
		deps.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if deps.MaxConcurrentSends <= 0 {
		deps.MaxConcurrentSends = DefaultMaxConcurrentSends
	}
	if deps.MaxJSONBytes <= 0 {
		deps.MaxJSONBytes = DefaultMaxJSONBytes
	}
	if deps.RequestTimeout <= 0 {
		deps.RequestTimeout = DefaultRequestTimeout
	}
	if deps.AuthFailures <= 0 {
		deps.AuthFailures = DefaultAuthFailures
	}
	if deps.AuthInterval <= 0 {
		deps.AuthInterval = DefaultAuthInterval
	}
	s := &server{Deps: deps, authFails: newAuthFailures(deps.AuthFailures, deps.AuthInterval),
		authLogs: newLogLimiter(deps.AuthInterval), checkLogs: newLogLimiter(deps.AuthInterval),
		console: parseConsole(deps.Decode.Location, deps.AdminToken != "")}

	r := chi.NewRouter()
	r.Use(requestID, s.recoverJSON)
	r.NotFound(func(w http.ResponseWriter, _ *http.Request) {
		writeError(w, http.StatusNotFound, "no such resource")
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, _ *http.Request) {
		writeError(w, http.StatusMethodNotAllowed, "method not allowed")
	})

	// One line per file that serves routes. Every route has a body limit:
	// the send handler enforces the message limit itself (its 413 names
	// where the limit comes from), the others MaxJSONBytes.
	r.Group(s.mountIngest)
	r.With(limitBody(s.MaxJSONBytes)).Group(func(r chi.Router) {
		s.mountHealth(r)   // /metrics bounds its own scrape
		s.mountContract(r) // contract.go: docs/openapi.yaml and the rest, embedded
		r.With(deadline(s.RequestTimeout)).Group(func(r chi.Router) {
			s.mountRead(r)
			s.mountLists(r)
			s.mountAdmin(r)
			s.mountHistory(r) // history.go
			s.mountConsole(r) // console.go
		})
	})
	return r
}
