// Package api is msgx's HTTP interface (processing.md §5) on a chi router.
// Each file mounts its own routes from NewRouter (ingest.go: the send
// endpoint; read.go and list.go: flights, messages, dead letters; admin.go:
// replay and queue behind the admin token; health.go: /healthz, /readyz,
// /metrics), and every error is answered as JSON by errors.go. Body limits,
// the page limit and the request deadline are in limits.go.
package api

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/metrics"
	"github.com/msgx-aodb/msgx/internal/request"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/status"
	"github.com/msgx-aodb/msgx/internal/store"
)

// DefaultMaxBodyBytes is the default limit of a sent message (16 MiB, as the codec's).
const DefaultMaxBodyBytes = 16 << 20

// Deps is what the handlers use.
type Deps struct {
	Store        store.Store
	Mailbox      *mailbox.Mailbox
	Clock        clock.Clock
	Log          *slog.Logger
	MaxBodyBytes int64 // limit of POST /cminmsgs/send; 0 means DefaultMaxBodyBytes

	// MaxJSONBytes limits the body of every other route (413 over it); 0
	// means DefaultMaxJSONBytes.
	MaxJSONBytes int64
	// RequestTimeout bounds the work of every route but send and /metrics
	// (whose scrape has its own bound); 0 means DefaultRequestTimeout.
	RequestTimeout time.Duration
	// AdminToken is the Bearer token of /admin/*; empty disables them (403).
	AdminToken string
	// Decode are the pump's decode options: the replay preview decodes the
	// raw messages to learn which flights they concern.
	Decode sis.Options
	// Ready answers GET /readyz (status.Prober builds one); nil answers 503.
	Ready func(ctx context.Context) status.Readiness
	// Mode tells GET /admin/queue the instance's role and shadow flag; nil
	// leaves them out.
	Mode status.Mode
	// Metrics, when non-nil, is served at GET /metrics.
	Metrics *metrics.Metrics
	// Enqueued, when non-nil, is called after a send enqueued its row (it
	// rings the pump's bell, so the message waits for no idle interval).
	Enqueued func()
	// Requests serves /admin/requests (requests.go); nil answers 503.
	Requests *request.Service
}

// server carries the dependencies into the handlers of every file.
type server struct {
	Deps
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
	if deps.MaxJSONBytes <= 0 {
		deps.MaxJSONBytes = DefaultMaxJSONBytes
	}
	if deps.RequestTimeout <= 0 {
		deps.RequestTimeout = DefaultRequestTimeout
	}
	s := &server{Deps: deps}

	r := chi.NewRouter()
	r.Use(s.recoverJSON)
	r.NotFound(func(w http.ResponseWriter, _ *http.Request) {
		writeError(w, http.StatusNotFound, "no such resource")
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, _ *http.Request) {
		writeError(w, http.StatusMethodNotAllowed, "method not allowed")
	})

	// One line per file that serves routes. Every route has a body limit:
	// the send route the message limit, the others MaxJSONBytes.
	r.With(limitBody(s.MaxBodyBytes)).Group(s.mountIngest)
	r.With(limitBody(s.MaxJSONBytes)).Group(func(r chi.Router) {
		s.mountHealth(r) // /metrics bounds its own scrape
		r.With(deadline(s.RequestTimeout)).Group(func(r chi.Router) {
			s.mountRead(r)
			s.mountLists(r)
			s.mountAdmin(r)
		})
	})
	return r
}
