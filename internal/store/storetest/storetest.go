// Package storetest is the conformance suite of the store interface. Every
// dialect adapter runs it against a real database of its own:
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) store.Store { return newStoreOnFreshDB(t) })
//	}
//
// Each subtest gets a fresh, empty store, so no test depends on another's rows.
// Independent subtests run in parallel, each calling the factory once; an
// adapter whose stores share one database (Oracle's test schema) makes the
// factory hold it until the subtest ends.
package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/msgx-aodb/msgx/internal/store"
)

// Factory returns a store on a fresh, empty database with the msgx schema.
type Factory func(t *testing.T) store.Store

// Run runs the whole suite.
func Run(t *testing.T, newStore Factory) {
	suites := []struct {
		name string
		run  func(t *testing.T, newStore Factory)
	}{
		{"Queue", testQueue},                               // queue.go
		{"Identity", testIdentity},                         // queue.go
		{"Flights", testFlights},                           // flights.go
		{"Snapshots", testSnapshots},                       // snapshots.go
		{"Outbox", testOutbox},                             // outbox.go
		{"Backfill", testBackfill},                         // backfills.go
		{"BackfillRegistration", testBackfillRegistration}, // backfills.go
		{"BackfillMark", testBackfillMark},                 // backfills.go
		{"Reference", testReference},                       // reference.go
		{"Transactions", testTransactions},                 // transactions.go
		{"Errors", testErrors},                             // errors.go
		{"Status", testStatus},                             // status.go
		{"ReplayBatches", testReplayBatches},               // replay.go
		{"Pipeline", testPipeline},                         // pipeline.go
		{"Requests", testRequests},                         // request.go
		{"Maintenance", testMaintenance},                   // maintenance.go
		{"Ingress", testIngress},                           // ingress.go
	}
	for _, s := range suites {
		t.Run(s.name, func(t *testing.T) { t.Parallel(); s.run(t, newStore) })
	}
}

// t0 is the suite's fixed clock: no test reads the wall clock.
var t0 = time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)

func ctx(t *testing.T) context.Context { return t.Context() }

func ptr[T any](v T) *T { return &v }
