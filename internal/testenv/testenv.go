// Package testenv is the shared test environment of the packages that run
// messages through a pump: a fresh PostgreSQL database and store, a fresh
// MariaDB mailbox, a fake clock, and Send/Drain as the poller and the pump
// would do them. Only tests import it; it does not import the pipeline, so
// the pipeline's own tests can use it too (the caller sets Pump).
package testenv

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/testdb"
)

// Zone is the airport's time zone the tests' messages are written in.
var Zone, _ = time.LoadLocation("Asia/Shanghai")

// Start is the fake clock's first instant: 2 Dec 2026 16:00 in Shanghai.
var Start = time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)

// Stepper is the pump as Drain drives it (pump.Pump).
type Stepper interface {
	Step(ctx context.Context) (time.Duration, error)
}

// Env is msgx's PostgreSQL and the mailbox on real databases, with a fake
// clock.
type Env struct {
	PG        *testdb.PG // for what no store method does
	Store     store.Store
	MailboxDB *sql.DB
	// MailboxDSN opens the mailbox again (a second connection a test can
	// close to take the mailbox down).
	MailboxDSN string
	Mailbox    *mailbox.Mailbox
	Clock      *clock.Fake
	Pump       Stepper // set by the caller; Drain steps it
}

// New creates fresh databases, dropped when t ends.
func New(t testing.TB) *Env { t.Helper(); return NewOn(t, nil) }

// NewOn is New on the given store (nil: a fresh PostgreSQL), so a scenario
// can run on another dialect's adapter; PG is then nil.
func NewOn(t testing.TB, st store.Store) *Env {
	t.Helper()
	var pg *testdb.PG
	if st == nil {
		pg = testdb.Postgres(t)
		st = pgstore.New(pg.Pool)
	}
	mbdb, dsn := openMailbox(t)
	return &Env{PG: pg, Store: st, MailboxDB: mbdb, MailboxDSN: dsn,
		Mailbox: mailbox.New(mbdb, mailbox.WithZone(Zone)), Clock: clock.NewFake(Start)}
}

// OpenMailbox returns a fresh mailbox database (testdb.Mailbox) opened as
// msgx serve opens it (mailbox.Open: its DSN defaults, interpolateParams
// among them), closed when t ends.
func OpenMailbox(t testing.TB) *sql.DB {
	t.Helper()
	db, _ := openMailbox(t)
	return db
}

func openMailbox(t testing.TB) (*sql.DB, string) {
	t.Helper()
	_, dsn := testdb.Mailbox(t)
	db, err := mailbox.Open(t.Context(), dsn)
	if err != nil {
		t.Fatalf("testenv: open the mailbox: %v", err)
	}
	t.Cleanup(func() { db.Close() }) // before testdb drops the database
	return db, dsn
}

// Send writes a message into the mailbox and enqueues it, as the poller
// would, and returns its id.
func (e *Env) Send(t testing.TB, xml string) int64 {
	t.Helper()
	id, err := e.Mailbox.Insert(t.Context(), []byte(xml), e.Clock.Now())
	require.NoError(t, err)
	_, err = e.Store.Enqueue(t.Context(), []int64{id}, e.Clock.Now())
	require.NoError(t, err)
	return id
}

// Drain steps the pump until the queue is empty.
func (e *Env) Drain(t testing.TB) {
	t.Helper()
	for range 1000 {
		_, err := e.Pump.Step(t.Context())
		require.NoError(t, err)
		head, err := e.Store.QueueHead(t.Context(), 1)
		require.NoError(t, err)
		if len(head) == 0 {
			return
		}
	}
	t.Fatal("queue not drained")
}

// DrainPastBackoff steps the pump until the queue is empty, moving the fake
// clock past each wait so failed heads retry (and exhaust) without sleeping.
func (e *Env) DrainPastBackoff(t testing.TB) {
	t.Helper()
	for range 1000 {
		wait, err := e.Pump.Step(t.Context())
		require.NoError(t, err)
		if wait > 0 {
			head, err := e.Store.QueueHead(t.Context(), 1)
			require.NoError(t, err)
			if len(head) == 0 {
				return
			}
			e.Clock.Advance(wait)
		}
	}
	t.Fatal("pump did not settle")
}

// StepUntilWait steps the pump until it asks to wait: the queue is empty or
// its head waits (a backoff, a pause), which the caller then inspects.
func (e *Env) StepUntilWait(t testing.TB) {
	t.Helper()
	for range 1000 {
		wait, err := e.Pump.Step(t.Context())
		require.NoError(t, err)
		if wait > 0 {
			return
		}
	}
	t.Fatal("pump did not settle")
}
