package maintenance

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/msgx-aodb/msgx/internal/apply"
	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// History is the history sweep (docs/design.md §8, rule 5): flights whose
// operation day ended more than Retention ago and that are DELETED, or
// ACTIVE and unchanged, for that long move to FLIGHT_HST (their last state
// as the event JSON, every detail list in it) and their live rows are
// deleted — per batch in one transaction holding the pipeline lock, so the
// pump never sees half a batch and outbox EVENT_IDs still commit in order.
// An ACTIVE flight gets a TOMBSTONE on both targets in that transaction; a
// DELETED one had its TOMBSTONE when it was deleted.
//
// The sweep never outruns the queue: a batch commits only while no message
// is unfinished (PENDING or FAILED), checked under the pipeline lock. A
// queued message is not decoded yet, so which flights it names is unknown;
// the sweep waits for an empty queue instead (up to QueueWait, then the
// flights wait for the next run).
type History struct {
	Base
	At        DailyAt
	Retention time.Duration
	// QueueWait is how long a run waits for the queue to empty before it
	// leaves the flights to the next run; 0 does not wait (a run by hand
	// says at once that the queue is busy).
	QueueWait time.Duration
	// Enabled false: the sweep deletes nothing (and says so).
	Enabled bool
	// Shadow: no outbox events (shadow mode writes none).
	Shadow bool
	// beforeLock, when set, runs after the candidates are read (tests: a
	// message changing one meanwhile); afterHistory between the history
	// write and the delete (tests: a crash there).
	beforeLock   func()
	afterHistory func() error
}

// HistoryYield is the history sweep's Base.Yield: after a batch, which holds
// the pipeline lock, it waits four times as long, so the pump keeps at least
// 80 % of its throughput while a large sweep runs (make bench).
const HistoryYield = 4

// DefaultHistoryRetention is history.retention's default.
const DefaultHistoryRetention = 7 * 24 * time.Hour

// DefaultHistoryQueueWait is how long a scheduled sweep waits for an empty
// queue; queueRecheck is how often it looks meanwhile.
const (
	DefaultHistoryQueueWait = time.Minute
	queueRecheck            = time.Second
)

// queueBusy is a batch that found an unfinished message under the pipeline
// lock: it committed nothing.
type queueBusy struct{ head vocab.QueueEntry }

func (q *queueBusy) Error() string {
	return fmt.Sprintf("history: message %d is %s", q.head.ID, q.head.Status)
}

func (q *queueBusy) note() string {
	return fmt.Sprintf("the queue is not empty (message %d is %s): nothing swept while a queued message may name a flight; the flights wait for the next run",
		q.head.ID, q.head.Status)
}

func (h *History) Name() string { return "history" }

// Doc is the job's line in `msgx maintenance --help`.
func (h *History) Doc() string {
	return "flights DELETED, or ACTIVE and quiet, for history.retention after their operation day ended → FLIGHT_HST; live rows deleted; an ACTIVE flight gets a TOMBSTONE; nothing while the queue holds a message (daily after history.at)"
}

func (h *History) Schedule() Schedule { return h.At }

// params are the candidates' bounds at now: an operation day before the
// local date of now − Retention (it ended at least Retention ago), and
// deleted, or unchanged, since then.
func (h *History) params(now time.Time, max int) store.PurgeParams {
	quiet := now.Add(-h.Retention)
	y, m, d := quiet.In(h.At.Location).Date()
	return store.PurgeParams{
		DeletedBefore: quiet, DayBefore: time.Date(y, m, d, 0, 0, 0, 0, time.UTC), QuietBefore: quiet, Max: max,
	}
}

func (h *History) Run(ctx context.Context, dry bool) (Result, error) {
	res := Result{What: "flights by operation day"}
	if !h.Enabled {
		res.Note = "history.enabled=false: nothing moved or deleted"
		if !dry {
			return res, nil
		}
	}
	b := h.Base.withDefaults()
	var busy *queueBusy
	swept, err := b.drain(ctx, dry, func(ctx context.Context, max int, dry bool) (store.Swept, error) {
		if dry {
			head, err := h.Store.QueueHead(ctx, 1)
			if err != nil {
				return store.Swept{}, fmt.Errorf("history: queue head: %w", err)
			}
			if len(head) > 0 {
				res.Note = (&queueBusy{head: head[0]}).note()
			}
			return h.Store.PreviewPurge(ctx, h.params(b.Clock.Now(), max))
		}
		began := b.Clock.Now()
		for {
			got, err := h.batch(ctx, b.Clock.Now().Truncate(time.Microsecond), max)
			if !errors.As(err, &busy) || b.Clock.Now().Sub(began) >= h.QueueWait {
				return got, err
			}
			select {
			case <-ctx.Done():
				return got, ctx.Err()
			case <-b.Clock.After(queueRecheck):
			}
		}
	})
	if busy != nil && errors.As(err, &busy) {
		res.Note, err = busy.note(), nil
	}
	res.Swept = swept
	return res, err
}

// batch moves up to max flights. The candidates are read, in full, and
// encoded before the transaction; inside it, holding the pipeline lock, only
// those whose stamp has not moved since are written to the history and
// deleted (a flight changed meanwhile is left for the next run), with their
// tombstones, and committed. The lock is held for the writes only, and
// nothing is visible before the commit: a crash anywhere loses nothing and
// doubles nothing. (A batch that skipped a flight is short and ends the run;
// candidates are quiet for days, so that is rare, and the rest waits a day.)
func (h *History) batch(ctx context.Context, now time.Time, max int) (store.Swept, error) {
	flights, err := h.Store.PurgeCandidates(ctx, h.params(now, max))
	if err != nil {
		return store.Swept{}, fmt.Errorf("history: candidates: %w", err)
	}
	if len(flights) == 0 {
		return store.Swept{}, nil
	}
	rows := make([]store.FlightHistory, len(flights))
	flids := make([]int64, len(flights))
	for i, f := range flights {
		state, err := flight.EventPayload(f)
		if err != nil {
			return store.Swept{}, fmt.Errorf("history: state of flight %d: %w", f.FLID, err)
		}
		rows[i] = store.FlightHistory{FLID: f.FLID, OperationDay: f.OperationDay, Lifecycle: f.Lifecycle,
			StateVersion: f.StateVersion, LastMessageID: f.LastMessageID, State: state, CreatedAt: f.CreatedAt, PurgedAt: now}
		flids[i] = f.FLID
	}

	if h.beforeLock != nil {
		h.beforeLock()
	}
	tx, err := h.Store.Begin(ctx)
	if err != nil {
		return store.Swept{}, fmt.Errorf("history: begin: %w", err)
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	if _, err := tx.LockPipeline(ctx, now); err != nil {
		return store.Swept{}, fmt.Errorf("history: pipeline lock: %w", err)
	}
	// Under the lock the pump commits nothing: an empty queue now means no
	// message waits to name one of these flights.
	head, err := tx.QueueHead(ctx, 1)
	if err != nil {
		return store.Swept{}, fmt.Errorf("history: queue head: %w", err)
	}
	if len(head) > 0 {
		return store.Swept{}, &queueBusy{head: head[0]}
	}
	stamps, err := tx.FlightStamps(ctx, flids)
	if err != nil {
		return store.Swept{}, fmt.Errorf("history: stamps: %w", err)
	}
	var events []vocab.NewEvent
	var marks []vocab.SchdMark
	var swept store.Swept
	kept, keptIDs := rows[:0], flids[:0]
	for i, f := range flights {
		st, ok := stamps[f.FLID]
		if !ok || st.StateVersion != f.StateVersion || !st.UpdatedAt.Equal(f.UpdatedAt) {
			continue // changed or gone since it was read: not quiet any more
		}
		kept, keptIDs = append(kept, rows[i]), append(keptIDs, f.FLID)
		day := f.OperationDay
		swept.Add(store.Swept{Rows: 1, Oldest: &day, Newest: &day})
		if f.Lifecycle == flight.Active && !h.Shadow {
			e, m := apply.SweptTombstone(f, now)
			events, marks = append(events, e), append(marks, m)
		}
	}
	if err := tx.WriteFlightHistory(ctx, kept); err != nil {
		return store.Swept{}, fmt.Errorf("history: write %d flights: %w", len(kept), err)
	}
	if h.afterHistory != nil {
		if err := h.afterHistory(); err != nil {
			return store.Swept{}, err
		}
	}
	n, err := tx.DeleteFlights(ctx, store.DeleteFlightsParams{FLIDs: keptIDs, Max: len(keptIDs)})
	if err != nil {
		return store.Swept{}, fmt.Errorf("history: delete %d flights: %w", len(keptIDs), err)
	}
	if n != len(keptIDs) {
		return store.Swept{}, fmt.Errorf("history: deleted %d of %d flights", n, len(keptIDs))
	}
	if err := tx.InsertEvents(ctx, events); err != nil {
		return store.Swept{}, fmt.Errorf("history: tombstones: %w", err)
	}
	if err := tx.MarkSchd(ctx, marks); err != nil {
		return store.Swept{}, fmt.Errorf("history: tombstone marks: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return store.Swept{}, fmt.Errorf("history: commit: %w", err)
	}
	return swept, nil
}
