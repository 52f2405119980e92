package orastore

import (
	"context"
	"time"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store"
)

// The store methods not yet carried over to Oracle (docs/oracle.md lists
// them): each reports errNotImplemented, so a site sees which one is missing.

// Pending names them, for the refusal at start.
var Pending = []string{
	"Flights",
	"FlightStamps",
	"FlightsByDay",
	"PruneCandidates",
	"WriteFlights",
}

func (e executor) Flights(ctx context.Context, flids []int64) (map[int64]*flight.State, error) {
	return nil, errNotImplemented("Flights")
}

func (e executor) FlightStamps(ctx context.Context, flids []int64) (map[int64]store.FlightStamp, error) {
	return nil, errNotImplemented("FlightStamps")
}

func (e executor) FlightsByDay(ctx context.Context, day time.Time, afterFLID int64, limit int) ([]*flight.State, error) {
	return nil, errNotImplemented("FlightsByDay")
}

func (e executor) PruneCandidates(ctx context.Context, fday time.Time, keep []int64) ([]*flight.State, error) {
	return nil, errNotImplemented("PruneCandidates")
}

func (e executor) WriteFlights(ctx context.Context, writes []store.FlightWrite, now time.Time) error {
	return errNotImplemented("WriteFlights")
}
