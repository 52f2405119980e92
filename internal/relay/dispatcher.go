package relay

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/kafka"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
	"github.com/msgx-aodb/msgx/internal/widths"
)

// Dispatcher delivers KAFKA:msg events in EVENT_ID order (docs/design.md §1.5).
type Dispatcher struct {
	store Store
	cl    *kgo.Client
	topic string
	clock clock.Clock
	log   *slog.Logger
	obs   Observer
	cfg   Config
	// suspect is an event refused for good together with other records (see
	// refusedForGood): the next step produces it alone, and only a refusal
	// alone makes it DEAD. Kept in memory only: after a restart it is
	// produced in a batch again, no harm.
	suspect int64
}

// NewDispatcher wires a dispatcher producing to topic through cl (which the
// caller owns and closes after Run returns). obs may be nil.
func NewDispatcher(s Store, cl *kgo.Client, topic string, c clock.Clock, log *slog.Logger, obs Observer, cfg Config) *Dispatcher {
	return &Dispatcher{
		store: s, cl: cl, topic: topic, clock: c, log: log.With("target", vocab.TargetMsg),
		obs: observer(obs), cfg: cfg.withDefaults(),
	}
}

// Name is the dispatcher's name as a service (it delivers the msg target).
func (d *Dispatcher) Name() string { return "relay-msg" }

// Run delivers until ctx is done. A step in flight when ctx ends still
// finishes (its produce and database calls are bounded by their timeouts),
// so acknowledged events are marked SENT before Run returns.
func (d *Dispatcher) Run(ctx context.Context) error {
	for ctx.Err() == nil {
		_, wait, idle, err := d.step(ctx)
		if err != nil {
			d.log.Error("outbox step failed", "err", err)
			wait, idle = d.cfg.Idle, true
		}
		if wait <= 0 {
			continue
		}
		var wake <-chan struct{} // Committed ends an idle wait at once
		if idle {
			wake = d.cfg.Committed.C() // a head backing off waits its time, whatever else is committed
		}
		select {
		case <-ctx.Done():
		case <-wake:
		case <-d.clock.After(wait):
		}
	}
	return nil
}

// Step delivers from the head of the target on: batch after batch of up to
// BatchSize events while batches are full and fully acknowledged (the head
// alone when it failed before). It returns how many events were marked
// SENT. Nothing is produced while the head backs off. A record over
// MaxRecordBytes is not produced: it ends the batch before it and, once the
// head, goes DEAD at once, as does a record the broker refuses for good
// (too large, invalid) when produced alone; delivery then goes on without
// waiting.
//
// The next batch is read while a batch is produced, and the SENT mark of a
// batch is written while the next batch is produced; the next batch is
// produced only after the previous one was acknowledged in full, so a
// failure never lets a later event of the same flight overtake.
func (d *Dispatcher) Step(ctx context.Context) (int, error) {
	n, _, _, err := d.step(ctx)
	return n, err
}

// step also says how long to wait before the next step, and whether that
// wait is idleness (which Committed may end) rather than a backoff.
func (d *Dispatcher) step(ctx context.Context) (sent int, wait time.Duration, idle bool, err error) {
	events, err := d.read(ctx, 0)
	if err != nil {
		return 0, 0, false, err
	}
	if len(events) == 0 {
		return 0, d.cfg.Idle, true, nil
	}
	now := d.clock.Now()
	head := events[0]
	if head.NextAttemptAt != nil && head.NextAttemptAt.After(now) {
		return 0, head.NextAttemptAt.Sub(now), false, nil
	}
	alone := head.Attempts > 0 || head.ID == d.suspect
	if alone {
		events = events[:1] // retry a failing head alone, not the batch behind it
	}

	var marking *mark // the previous batch's SENT mark, in flight
	settle := func() error {
		n, err := d.finish(ctx, marking)
		sent += n
		marking = nil
		return err
	}
	for {
		cut := untilRetried(events)
		full := len(events) == d.cfg.BatchSize && len(cut) == len(events)
		events = cut
		recs, tooLarge := d.records(events)
		if len(recs) == 0 { // the head is over the limit: never produced
			if err := settle(); err != nil {
				return sent, 0, false, err
			}
			return sent, d.fail(ctx, events[0], tooLarge), false, nil
		}
		events = events[:len(recs)] // an event over the limit waits to be the head
		more := full && tooLarge == nil && !alone
		var ahead chan readResult // the next batch, read while this one is produced
		if more {
			ahead = d.readAhead(ctx, events[len(events)-1].ID)
		}
		acks := produce(context.WithoutCancel(ctx), d.cl, d.clock, d.obs, recs, d.cfg.ProduceTimeout)
		// Only the contiguous acknowledged prefix is SENT: an event acknowledged
		// after a failed one is sent again with it (consumers dedupe).
		ok := 0
		for ok < len(events) && acks[ok].err == nil {
			ok++
		}
		if err := settle(); err != nil {
			return sent, 0, false, err
		}
		if ok > 0 {
			marking = d.markSent(ctx, events[:ok], acks[:ok])
		}
		if ok < len(events) {
			if err := settle(); err != nil {
				return sent, 0, false, err
			}
			if cause := acks[ok].err; refusedForGood(cause) && len(events) > 1 {
				d.suspected(events[ok], cause)
				return sent, 0, false, nil
			}
			return sent, d.fail(ctx, events[ok], acks[ok].err), false, nil
		}
		if !more || ctx.Err() != nil {
			return sent, 0, false, settle()
		}
		r := <-ahead
		next, err := r.events, r.err
		if err == nil && len(next) == 0 {
			return sent, 0, false, settle()
		}
		if err != nil {
			return sent, 0, false, errors.Join(err, settle())
		}
		events = next
	}
}

// records builds the events' records up to the first one over
// MaxRecordBytes, and returns that one's refusal (nil: all fit).
func (d *Dispatcher) records(events []store.Event) ([]*kgo.Record, error) {
	recs := make([]*kgo.Record, 0, len(events))
	for _, e := range events {
		r := kafka.Record(d.topic, e)
		if err := d.cfg.fit(r); err != nil {
			return recs, err
		}
		recs = append(recs, r)
	}
	return recs, nil
}

// suspected notes an event refused for good in a batch of several: it may
// be innocent (refusedForGood), so nothing is recorded and the next step
// produces it alone, at once.
func (d *Dispatcher) suspected(e store.Event, cause error) {
	d.suspect = e.ID
	d.obs.EventFailed(vocab.TargetMsg, false)
	d.log.Warn("event refused with its batch; producing it alone to tell whether it is at fault",
		"event_id", e.ID, "flid", e.FLID, "err", cause)
}

// read returns up to BatchSize pending events after the cursor (0: the head).
func (d *Dispatcher) read(ctx context.Context, after int64) ([]store.Event, error) {
	sctx, cancel := storeCtx(ctx, d.cfg.StoreTimeout)
	defer cancel()
	events, err := d.store.PendingEventsAfter(sctx, store.PendingEventsAfterParams{Target: vocab.TargetMsg, AfterID: after, Max: d.cfg.BatchSize})
	if err != nil {
		return nil, fmt.Errorf("read the %s head: %w", vocab.TargetMsg, err)
	}
	return events, nil
}

type readResult struct {
	events []store.Event
	err    error
}

// readAhead reads the batch after the cursor in the background: the read
// overlaps the produce of the batch before it. A result nobody takes (that
// produce failed) is dropped with its buffered channel.
func (d *Dispatcher) readAhead(ctx context.Context, after int64) chan readResult {
	ch := make(chan readResult, 1)
	go func() {
		events, err := d.read(ctx, after)
		ch <- readResult{events, err}
	}()
	return ch
}

// untilRetried cuts a batch before an event that failed before (it can only
// be behind the head after a late commit): it goes first, alone, next step.
func untilRetried(events []store.Event) []store.Event {
	for i, e := range events[1:] {
		if e.Attempts > 0 {
			return events[:i+1]
		}
	}
	return events
}

// mark is a SENT mark being written.
type mark struct {
	events []store.Event
	acks   []ack
	done   chan error
}

func (d *Dispatcher) markSent(ctx context.Context, events []store.Event, acks []ack) *mark {
	m := &mark{events: events, acks: acks, done: make(chan error, 1)}
	ids := make([]int64, len(events))
	for i, e := range events {
		ids[i] = e.ID
	}
	go func() {
		sctx, cancel := storeCtx(ctx, d.cfg.StoreTimeout)
		defer cancel()
		m.done <- d.store.MarkSent(sctx, store.MarkSentParams{Target: vocab.TargetMsg, IDs: ids, Now: d.clock.Now()})
	}()
	return m
}

// finish waits for a mark (nil: none) and reports its events delivered.
func (d *Dispatcher) finish(ctx context.Context, m *mark) (int, error) {
	if m == nil {
		return 0, nil
	}
	if err := <-m.done; err != nil {
		return 0, fmt.Errorf("mark %d acknowledged events SENT (events %d..%d will be sent again): %w",
			len(m.events), m.events[0].ID, m.events[len(m.events)-1].ID, err)
	}
	for i, e := range m.events {
		d.obs.EventDelivered(vocab.TargetMsg, m.acks[i].at.Sub(e.CreatedAt))
	}
	if d.log.Enabled(ctx, slog.LevelDebug) {
		for _, e := range m.events {
			d.log.Debug("event sent", "event_id", e.ID, "flid", e.FLID, "state_version", e.StateVersion)
		}
	}
	return len(m.events), nil
}

// fail records a failed delivery of the head and returns how long the
// target waits: its backoff, or nothing when it became DEAD.
func (d *Dispatcher) fail(ctx context.Context, e store.Event, cause error) time.Duration {
	now := d.clock.Now()
	attempt := e.Attempts + 1
	next := now.Add(d.cfg.backoff(attempt))
	sctx, cancel := storeCtx(ctx, d.cfg.StoreTimeout)
	status, err := d.store.RecordDeliveryFailure(sctx, store.RecordDeliveryFailureParams{
		EventID: e.ID, Reason: widths.LastError.Cut(cause.Error()), NextAttemptAt: next, MaxAttempts: d.cfg.maxAttempts(cause),
	})
	cancel()
	if err != nil {
		// Not recorded: the next step retries at once, after Idle.
		d.log.Error("cannot record failed delivery", "event_id", e.ID, "flid", e.FLID, "cause", cause, "err", err)
		return d.cfg.Idle
	}
	dead := status == vocab.EventDead
	d.obs.EventFailed(vocab.TargetMsg, dead)
	if dead {
		d.log.Error("event dead; kept as dead letter, delivery goes on",
			"event_id", e.ID, "flid", e.FLID, "attempts", attempt, "err", cause)
		return 0
	}
	d.log.Warn("event delivery failed; target waits",
		"event_id", e.ID, "flid", e.FLID, "attempts", attempt, "retry_at", next, "err", cause)
	return next.Sub(now)
}
