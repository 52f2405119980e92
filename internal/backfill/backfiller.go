// Package backfill writes the outcome of committed messages back to the
// shared mailbox (docs/design.md §1.4): the Backfiller service, its sweep and
// the backfill right after a commit that the pump hands over (Notify).
package backfill

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/msgx-aodb/msgx/internal/backoff"
	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
	"github.com/msgx-aodb/msgx/internal/widths"
)

// Backfiller writes the outcome of committed messages back to the shared
// mailbox (DATE_PROCESSED, STATUS, META). The business transaction registers
// a BACKFILL_TODO; the pump calls BackfillNow right after its commit, and the
// sweep retries whatever failed (or was never tried because of a crash), with
// backoff. A todo is deleted once the mailbox row is backfilled; a committed
// result is only ever compensated this way, never re-applied.
type Backfiller struct {
	store   Store
	mb      Mailbox
	clock   clock.Clock
	log     *slog.Logger
	cfg     Config
	pending chan []vocab.Backfill // handed over by Notify, done by Run
	// behind is signalled when Notify found pending full: Run sweeps at
	// once instead of leaving those todos for the next interval (rule 20).
	behind chan struct{}
}

// Store is the slice of the store the backfiller uses.
type Store interface {
	DueBackfills(ctx context.Context, now time.Time, limit int) ([]vocab.Backfill, error)
	DeleteBackfills(ctx context.Context, keys []vocab.BackfillKey) error
	RecordBackfillFailure(ctx context.Context, p store.RecordBackfillFailureParams) error
}

// Mailbox is the mailbox write the backfiller makes (*mailbox.Mailbox):
// the ids it backfilled, and the todos msgx itself got wrong, by id.
type Mailbox interface {
	BackfillMany(ctx context.Context, todos []vocab.Backfill) (done []int64, invalid map[int64]error, err error)
}

// Observer receives the backfiller's outcomes (internal/metrics implements it).
type Observer interface {
	BackfillDone(n int)
	BackfillFailed()
}

// New wires a backfiller; zero config fields take their defaults.
func New(s Store, mb Mailbox, c clock.Clock, log *slog.Logger, cfg Config) *Backfiller {
	if log == nil {
		log = slog.Default()
	}
	return &Backfiller{store: s, mb: mb, clock: c, log: log, cfg: cfg.withDefaults(), pending: make(chan []vocab.Backfill, 64), behind: make(chan struct{}, 1)}
}

// Notify hands todos just committed by the pump to Run, without waiting:
// the pump goes on with the next messages while the mailbox is written. When
// Run is behind (the queue is full) the todos are left to a sweep, where
// they are registered anyway, which Run then starts as soon as it is free
// rather than at its next interval.
func (b *Backfiller) Notify(_ context.Context, todos []vocab.Backfill) {
	select {
	case b.pending <- todos:
	default:
		select {
		case b.behind <- struct{}{}:
		default:
		}
	}
}

// Sweep backfills the due todos in batches of Batch until a batch is short
// (docs/design.md §8: a backlog drains in one sweep, not one batch per
// interval). done counts rows backfilled now or before (and rows the AODB
// removed); failed counts todos rescheduled. A batch that backfilled nothing
// (an outage, every todo refused) ends the sweep: its todos wait for their
// backoff.
func (b *Backfiller) Sweep(ctx context.Context) (done, failed int, err error) {
	for ctx.Err() == nil {
		todos, err := b.store.DueBackfills(ctx, b.clock.Now(), b.cfg.Batch)
		if err != nil {
			return done, failed, fmt.Errorf("backfill sweep: list due todos: %w", err)
		}
		d, f, err := b.writeBack(ctx, todos)
		done, failed = done+d, failed+f
		if err != nil || len(todos) < b.cfg.Batch || d == 0 {
			return done, failed, err
		}
	}
	return done, failed, nil
}

// BackfillNow backfills todos just committed by the pump. It never fails the
// caller: what it cannot do stays registered for the sweep.
func (b *Backfiller) BackfillNow(ctx context.Context, todos []vocab.Backfill) {
	if _, _, err := b.writeBack(ctx, todos); err != nil {
		b.log.Warn("backfill after commit: left to the sweep", "err", err)
	}
}

// writeBack backfills todos in one mailbox transaction, then drops their todos
// in one statement. On a mailbox outage every todo of the batch is
// rescheduled with its backoff; a todo msgx itself got wrong (ErrInvalid)
// is rescheduled alone. Store errors leave the todos as they are.
func (b *Backfiller) writeBack(ctx context.Context, todos []vocab.Backfill) (done, failed int, err error) {
	if len(todos) == 0 {
		return 0, 0, nil
	}
	ids, invalid, merr := b.mb.BackfillMany(ctx, todos)
	if merr != nil {
		for _, t := range todos {
			if err := b.reschedule(ctx, t, merr); err != nil {
				return 0, failed, err
			}
			failed++
		}
		return 0, failed, fmt.Errorf("backfill %d todos: %w", len(todos), merr)
	}
	if err := b.store.DeleteBackfills(ctx, doneKeys(todos, ids)); err != nil {
		return 0, 0, fmt.Errorf("backfill: delete %d todos: %w", len(ids), err)
	}
	if b.cfg.Observer != nil && len(ids) > 0 {
		b.cfg.Observer.BackfillDone(len(ids))
	}
	for _, t := range todos {
		if ierr, ok := invalid[t.MsgID]; ok {
			if err := b.reschedule(ctx, t, ierr); err != nil {
				return len(ids), failed, err
			}
			failed++
		}
	}
	return len(ids), failed, nil
}

// doneKeys names the todos of the ids backfilled as they were registered
// when read: a replay may have re-registered one since, and that todo stays
// (rule 18).
func doneKeys(todos []vocab.Backfill, ids []int64) []vocab.BackfillKey {
	reg := make(map[int64]int64, len(todos))
	for _, t := range todos {
		reg[t.MsgID] = t.Registration
	}
	keys := make([]vocab.BackfillKey, len(ids))
	for i, id := range ids {
		keys[i] = vocab.BackfillKey{MsgID: id, Registration: reg[id]}
	}
	return keys
}

func (b *Backfiller) reschedule(ctx context.Context, t vocab.Backfill, cause error) error {
	next := b.clock.Now().Add(b.delay(t.Attempts + 1))
	if err := b.store.RecordBackfillFailure(ctx, store.RecordBackfillFailureParams{
		MsgID: t.MsgID, Registration: t.Registration, NextAttemptAt: next, Reason: widths.LastError.Cut(cause.Error()),
	}); err != nil {
		return fmt.Errorf("backfill %d: record failure: %w", t.MsgID, err)
	}
	if b.cfg.Observer != nil {
		b.cfg.Observer.BackfillFailed()
	}
	b.log.Warn("backfill failed, will retry", "msg_id", t.MsgID, "attempt", t.Attempts+1, "next_attempt_at", next, "err", cause)
	return nil
}

// delay is the wait after the given failed attempt (1-based): BackoffBase,
// doubled per attempt, capped at BackoffCap.
func (b *Backfiller) delay(attempt int) time.Duration {
	return backoff.Doubling(b.cfg.BackoffBase, b.cfg.BackoffCap, attempt)
}

// Name is the backfiller's name as a service.
func (b *Backfiller) Name() string { return "backfill" }

// Run sweeps at once — closing the window between a commit and its backfill
// left by a crash — then backfills what Notify hands over as it comes and
// sweeps every Interval, until ctx is done: one goroutine, so a sweep and a
// backfill after commit never write the same todo at once. Errors are
// logged; the next sweep retries. It returns nil when ctx is done.
func (b *Backfiller) Run(ctx context.Context) error {
	for {
		b.sweepOnce(ctx)
		if ctx.Err() != nil {
			return nil //nolint:nilerr // ctx done is the shutdown, not an error
		}
		tick := b.clock.After(b.cfg.Interval)
	wait:
		for {
			select {
			case <-ctx.Done():
				return nil
			case todos := <-b.pending:
				b.BackfillNow(ctx, todos)
			case <-b.behind:
				b.sweepOnce(ctx)
			case <-tick:
				break wait
			}
		}
	}
}

// sweepOnce is one periodic sweep, through RunSweep when set.
func (b *Backfiller) sweepOnce(ctx context.Context) {
	if b.cfg.RunSweep != nil {
		b.cfg.RunSweep(ctx)
		return
	}
	done, failed, err := b.Sweep(ctx)
	if ctx.Err() != nil {
		return
	}
	if err != nil {
		b.log.Error("backfill sweep failed", "err", err, "done", done, "failed", failed)
	} else if done+failed > 0 {
		b.log.Info("backfill sweep", "done", done, "failed", failed)
	}
}
