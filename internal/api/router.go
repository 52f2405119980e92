// Package api is msgx's HTTP interface (processing.md §5) on a chi router.
// Each file mounts its own routes from NewRouter (ingest.go: the send
// endpoint; read endpoints go in read.go the same way), and every error is
// answered as JSON by errors.go.
package api

import (
	"log/slog"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/mailbox"
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
	s := &server{Deps: deps}

	r := chi.NewRouter()
	r.Use(s.recoverJSON)
	r.NotFound(func(w http.ResponseWriter, _ *http.Request) {
		writeError(w, http.StatusNotFound, "no such resource")
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, _ *http.Request) {
		writeError(w, http.StatusMethodNotAllowed, "method not allowed")
	})

	// One line per file that serves routes.
	s.mountIngest(r)
	s.mountRead(r)
	return r
}
