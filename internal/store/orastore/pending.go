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
	"ReplayCandidates",
	"ReplayIDs",
	"FlightMarks",
	"NextRequestSeqn",
	"InsertRequest",
	"Request",
	"OpenRequestForUpdate",
	"OpenRequests",
	"Requests",
	"MarkRequestSent",
	"MarkRequestDone",
	"ExpireRequestKey",
	"ExpireDueRequests",
	"SnapshotLogs",
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

func (e executor) ReplayCandidates(ctx context.Context, ids []int64, class string, afterID int64, limit int) ([]store.Message, error) {
	return nil, errNotImplemented("ReplayCandidates")
}

func (e executor) ReplayIDs(ctx context.Context, ids []int64, now time.Time) ([]int64, error) {
	return nil, errNotImplemented("ReplayIDs")
}

func (e executor) FlightMarks(ctx context.Context, flids []int64) (map[int64]store.FlightMark, error) {
	return nil, errNotImplemented("FlightMarks")
}

func (e executor) NextRequestSeqn(ctx context.Context) (int64, error) {
	return 0, errNotImplemented("NextRequestSeqn")
}

func (e executor) InsertRequest(ctx context.Context, r store.NewRequest) (store.Request, error) {
	return store.Request{}, errNotImplemented("InsertRequest")
}

func (e executor) Request(ctx context.Context, id int64) (store.Request, error) {
	return store.Request{}, errNotImplemented("Request")
}

func (e executor) OpenRequestForUpdate(ctx context.Context, key string) (store.Request, error) {
	return store.Request{}, errNotImplemented("OpenRequestForUpdate")
}

func (e executor) OpenRequests(ctx context.Context) ([]store.Request, error) {
	return nil, errNotImplemented("OpenRequests")
}

func (e executor) Requests(ctx context.Context, beforeID int64, limit int) ([]store.Request, error) {
	return nil, errNotImplemented("Requests")
}

func (e executor) MarkRequestSent(ctx context.Context, p store.SentRequest) error {
	return errNotImplemented("MarkRequestSent")
}

func (e executor) MarkRequestDone(ctx context.Context, id, msgID int64, rule string, now time.Time) error {
	return errNotImplemented("MarkRequestDone")
}

func (e executor) ExpireRequestKey(ctx context.Context, key, note string, now time.Time) ([]int64, error) {
	return nil, errNotImplemented("ExpireRequestKey")
}

func (e executor) ExpireDueRequests(ctx context.Context, now time.Time, max int) ([]int64, error) {
	return nil, errNotImplemented("ExpireDueRequests")
}

func (e executor) SnapshotLogs(ctx context.Context, msgID int64) ([]store.SnapshotLog, error) {
	return nil, errNotImplemented("SnapshotLogs")
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
