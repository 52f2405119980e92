package api

import (
	"context"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/replay"
	"github.com/msgx-aodb/msgx/internal/status"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Store is the slice of the store the handlers use: the flights, messages
// and events they read, what a replay reads and moves (replay.Store) and
// the queue report (status.Source). Every store.Store is one.
type Store interface {
	replay.Store  // admin.go: preview and replay; Message: read.go
	status.Source // admin.go: GET /admin/queue

	Flights(ctx context.Context, flids []int64) (map[int64]*flight.State, error)            // read.go
	FlightsByDay(ctx context.Context, p store.FlightsByDayParams) ([]*flight.State, error)  // list.go
	LatestFlightHistory(ctx context.Context, flid int64) (store.FlightHistory, error)       // archived.go
	EventsOfFlight(ctx context.Context, flid int64) ([]store.Event, error)                  // history.go
	DeadEvents(ctx context.Context, p store.DeadEventsParams) ([]store.Event, error)        // history.go
	DeadLetters(ctx context.Context, p store.DeadLettersParams) ([]vocab.QueueEntry, error) // list.go
}

var _ Store = store.Store(nil)
