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
	"InsertEvents",
	"PendingEvents",
	"PendingEventsAfter",
	"EventsOfMessage",
	"MarkSent",
	"RecordDeliveryFailure",
	"LatestPendingPerFlight",
	"MarkSentUpTo",
	"MarkDeadBelow",
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

func (e executor) InsertEvents(ctx context.Context, events []store.NewEvent) error {
	return errNotImplemented("InsertEvents")
}

func (e executor) PendingEvents(ctx context.Context, target string, max int) ([]store.Event, error) {
	return nil, errNotImplemented("PendingEvents")
}

func (e executor) PendingEventsAfter(ctx context.Context, target string, afterID int64, max int) ([]store.Event, error) {
	return nil, errNotImplemented("PendingEventsAfter")
}

func (e executor) EventsOfMessage(ctx context.Context, msgID int64) ([]store.Event, error) {
	return nil, errNotImplemented("EventsOfMessage")
}

func (e executor) MarkSent(ctx context.Context, target string, ids []int64, now time.Time) error {
	return errNotImplemented("MarkSent")
}

func (e executor) RecordDeliveryFailure(ctx context.Context, p store.DeliveryFailure) (string, error) {
	return "", errNotImplemented("RecordDeliveryFailure")
}

func (e executor) LatestPendingPerFlight(ctx context.Context, target string, now time.Time, max int) ([]store.Event, error) {
	return nil, errNotImplemented("LatestPendingPerFlight")
}

func (e executor) MarkSentUpTo(ctx context.Context, target string, delivered []store.UpTo, now time.Time) (int, error) {
	return 0, errNotImplemented("MarkSentUpTo")
}

func (e executor) MarkDeadBelow(ctx context.Context, target string, below store.UpTo, reason string) (int, error) {
	return 0, errNotImplemented("MarkDeadBelow")
}
