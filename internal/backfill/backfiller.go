// Package backfill writes the outcome of committed messages back to the
// shared mailbox (docs/design.md §1.4): the Backfiller service, its sweep and
// the backfill right after a commit that the pump hands over (Notify).
package backfill

import (
	"context"
	"errors"
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
// mailbox (DATE_PROCESSED, STATUS, META). A terminal PROC_STATE row above
// the backfill mark is its own registration; the business transaction adds
// a BACKFILL_TODO only for a replay or a message at or below the mark (a
// late row). The pump calls BackfillNow right after its commit, which
// writes the mailbox and moves the mark over the messages; the sweep
// backfills what is left above the mark (a crash, a full queue) and the due
// todos, and a failed backfill becomes a todo with backoff. A committed
// result is only ever compensated this way, never re-applied.
type Backfiller struct {
	store   Store
	mb      Mailbox
	clock   clock.Clock
	log     *slog.Logger
	cfg     Config
	pending chan []vocab.Backfill // handed over by Notify, done by Run
	// behind is signalled when Notify found pending full, or the mark did
	// not follow a backfill after commit: Run sweeps at once instead of
	// leaving those messages for the next interval (rule 20).
	behind chan struct{}
	// mark is the backfill mark as last read or moved. A message at or
	// below it may have a todo (a late row): its backfill after commit
	// deletes the todo. Run's goroutine only.
	mark int64
}

// Store is the slice of the store the backfiller uses.
type Store interface {
	DueBackfills(ctx context.Context, now time.Time, limit int) ([]vocab.Backfill, error)
	DeleteBackfills(ctx context.Context, keys []vocab.BackfillKey) error
	RecordBackfillFailure(ctx context.Context, p store.RecordBackfillFailureParams) error
	BackfillMark(ctx context.Context) (int64, error)
	UnmarkedBackfills(ctx context.Context, after int64, max int) ([]store.UnmarkedBackfill, error)
	AdvanceBackfillMark(ctx context.Context, p store.AdvanceBackfillMarkParams) (bool, error)
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

// Notify hands backfills just committed by the pump to Run, without
// waiting: the pump goes on with the next messages while the mailbox is
// written. When Run is behind (the queue is full) they are left to a sweep
// (their messages are above the mark, or have todos), which Run then starts
// as soon as it is free rather than at its next interval.
func (b *Backfiller) Notify(_ context.Context, todos []vocab.Backfill) {
	select {
	case b.pending <- todos:
	default:
		b.wake()
	}
}

// wake makes Run sweep as soon as it is free.
func (b *Backfiller) wake() {
	select {
	case b.behind <- struct{}{}:
	default:
	}
}

// Sweep backfills the messages above the mark, then the due todos, each in
// batches of Batch until a batch is short (docs/design.md §8: a backlog
// drains in one sweep, not one batch per interval). done counts rows
// backfilled now or before (and rows the AODB removed); failed counts
// backfills rescheduled. A batch that backfilled nothing for a mailbox
// outage (or a todo batch every todo of which was refused) ends the sweep:
// its backfills wait for their backoff as todos.
func (b *Backfiller) Sweep(ctx context.Context) (done, failed int, err error) {
	done, failed, err = b.sweepMark(ctx)
	if err != nil {
		return done, failed, err
	}
	for ctx.Err() == nil {
		todos, err := b.store.DueBackfills(ctx, b.clock.Now(), b.cfg.Batch)
		if err != nil {
			return done, failed, fmt.Errorf("backfill sweep: list due todos: %w", err)
		}
		o, err := b.writeBack(ctx, todos, func(vocab.Backfill) bool { return true })
		done, failed = done+o.done, failed+o.failed
		if err == nil {
			err = o.mailboxErr(len(todos))
		}
		if err != nil || len(todos) < b.cfg.Batch || o.done == 0 {
			return done, failed, err
		}
	}
	return done, failed, nil
}

// sweepMark backfills the messages above the mark in MSG_ID order, a batch
// at a time, and moves the mark over each batch. A late row that entered
// the batch's range meanwhile keeps the mark where it is (the advance
// counts the range under the pipeline lock): the batch is read again, at
// most twice in a row.
func (b *Backfiller) sweepMark(ctx context.Context) (done, failed int, err error) {
	for missed := 0; ctx.Err() == nil; {
		from, err := b.store.BackfillMark(ctx)
		if err != nil {
			return done, failed, fmt.Errorf("backfill sweep: read the mark: %w", err)
		}
		b.mark = from
		rows, err := b.store.UnmarkedBackfills(ctx, from, b.cfg.Batch)
		if err != nil || len(rows) == 0 {
			return done, failed, wrap("backfill sweep: list the messages above the mark", err)
		}
		write := make([]vocab.Backfill, 0, len(rows))
		covered := make([]int64, len(rows))
		for i := range rows {
			covered[i] = rows[i].MsgID
			if !rows[i].Replay { // a replay has its own todo (rule 18)
				write = append(write, rows[i].Backfill)
			}
		}
		o, err := b.writeBack(ctx, write, func(vocab.Backfill) bool { return false })
		done, failed = done+o.done, failed+o.failed
		if err != nil {
			return done, failed, err
		}
		moved, err := b.advance(ctx, covered[len(covered)-1], covered)
		if err != nil {
			return done, failed, err
		}
		if err := o.mailboxErr(len(write)); err != nil {
			return done, failed, err // an outage: the batch waits as todos, with backoff
		}
		if moved {
			missed = 0
		} else if missed++; missed == 2 {
			return done, failed, nil
		}
		if moved && len(rows) < b.cfg.Batch {
			return done, failed, nil
		}
	}
	return done, failed, nil
}

// advance moves the mark to through if every message between the mark and
// through is one of covered.
func (b *Backfiller) advance(ctx context.Context, through int64, covered []int64) (bool, error) {
	moved, err := b.store.AdvanceBackfillMark(ctx, store.AdvanceBackfillMarkParams{Through: through, Covered: covered, Now: b.clock.Now()})
	if err != nil {
		return false, fmt.Errorf("backfill: move the mark to %d: %w", through, err)
	}
	if moved {
		b.mark = through
	}
	return moved, nil
}

// BackfillNow backfills what the pump just committed, then moves the mark
// over it. It never fails the caller: what it cannot do is left to the
// sweep, which Run starts at once when the mark did not follow (a message
// before these is not backfilled yet, or a late row came between).
func (b *Backfiller) BackfillNow(ctx context.Context, todos []vocab.Backfill) {
	if len(todos) == 0 {
		return
	}
	o, err := b.writeBack(ctx, todos, func(t vocab.Backfill) bool { return t.Registration > 0 || t.MsgID <= b.mark })
	if err == nil {
		err = o.mailboxErr(len(todos))
		if through := maxID(todos); through > b.mark {
			covered := make([]int64, len(todos))
			for i := range todos {
				covered[i] = todos[i].MsgID
			}
			moved, aerr := b.advance(ctx, through, covered)
			if aerr == nil && !moved {
				b.wake()
			}
			err = errors.Join(err, aerr)
		}
	}
	if err != nil {
		b.log.Warn("backfill after commit: left to the sweep", "err", err)
	}
}

func maxID(todos []vocab.Backfill) int64 {
	var m int64
	for i := range todos {
		m = max(m, todos[i].MsgID)
	}
	return m
}

// written is what writeBack did: backfills written (now or before) and
// rescheduled, and the mailbox's error when it wrote none (an outage).
type written struct {
	done, failed int
	mailbox      error
}

func (o written) mailboxErr(n int) error {
	if o.mailbox == nil {
		return nil
	}
	return fmt.Errorf("backfill %d todos: %w", n, o.mailbox)
}

func wrap(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", what, err)
}

// writeBack backfills todos in one mailbox transaction, then drops in one
// statement the todos of those registered may have one. On a mailbox outage
// every backfill of the batch is rescheduled with its backoff; one msgx
// itself got wrong (ErrInvalid) is rescheduled alone: rescheduled, it is a
// todo. A store error (returned) leaves the rest as it was.
func (b *Backfiller) writeBack(ctx context.Context, todos []vocab.Backfill, registered func(vocab.Backfill) bool) (o written, err error) {
	if len(todos) == 0 {
		return o, nil
	}
	ids, invalid, merr := b.mb.BackfillMany(ctx, todos)
	if merr != nil {
		for _, t := range todos {
			if err := b.reschedule(ctx, t, merr); err != nil {
				return o, err
			}
			o.failed++
		}
		o.mailbox = merr
		return o, nil
	}
	if keys := doneKeys(todos, ids, registered); len(keys) > 0 {
		if err := b.store.DeleteBackfills(ctx, keys); err != nil {
			return o, fmt.Errorf("backfill: delete %d todos: %w", len(keys), err)
		}
	}
	o.done = len(ids)
	if b.cfg.Observer != nil && len(ids) > 0 {
		b.cfg.Observer.BackfillDone(len(ids))
	}
	for _, t := range todos {
		if ierr, ok := invalid[t.MsgID]; ok {
			if err := b.reschedule(ctx, t, ierr); err != nil {
				return o, err
			}
			o.failed++
		}
	}
	return o, nil
}

// doneKeys names the todos of the ids backfilled that may have one, as
// they were registered when read: a replay may have re-registered one
// since, and that todo stays (rule 18).
func doneKeys(todos []vocab.Backfill, ids []int64, registered func(vocab.Backfill) bool) []vocab.BackfillKey {
	var reg map[int64]int64
	for _, t := range todos {
		if registered(t) {
			if reg == nil {
				reg = make(map[int64]int64, len(todos))
			}
			reg[t.MsgID] = t.Registration
		}
	}
	if reg == nil {
		return nil
	}
	keys := make([]vocab.BackfillKey, 0, len(reg))
	for _, id := range ids {
		if r, ok := reg[id]; ok {
			keys = append(keys, vocab.BackfillKey{MsgID: id, Registration: r})
		}
	}
	return keys
}

func (b *Backfiller) reschedule(ctx context.Context, t vocab.Backfill, cause error) error {
	next := b.clock.Now().Add(b.delay(t.Attempts + 1))
	if err := b.store.RecordBackfillFailure(ctx, store.RecordBackfillFailureParams{
		Backfill: t, NextAttemptAt: next, Reason: widths.LastError.Cut(cause.Error()),
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
