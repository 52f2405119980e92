package relay

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/store"
)

// Dispatcher delivers KAFKA:msg events in EVENT_ID order (design.md §5.1).
type Dispatcher struct {
	store store.Store
	cl    *kgo.Client
	topic string
	clock clock.Clock
	log   *slog.Logger
	obs   Observer
	cfg   Config
	wake  chan struct{}
}

// NewDispatcher wires a dispatcher producing to topic through cl (which the
// caller owns and closes after Run returns). obs may be nil.
func NewDispatcher(s store.Store, cl *kgo.Client, topic string, c clock.Clock, log *slog.Logger, obs Observer, cfg Config) *Dispatcher {
	return &Dispatcher{
		store: s, cl: cl, topic: topic, clock: c, log: log.With("target", store.TargetMsg),
		obs: observer(obs), cfg: cfg.withDefaults(), wake: make(chan struct{}, 1),
	}
}

// Wake ends an idle wait at once: call it after a commit that wrote events
// (the pump's after-commit hook), so delivery does not wait for the poll.
func (d *Dispatcher) Wake() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

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
		wake := d.wake
		if !idle {
			wake = nil // a head backing off waits its time, whatever else is committed
		}
		select {
		case <-ctx.Done():
		case <-wake:
		case <-d.clock.After(wait):
		}
	}
	return nil
}

// Step delivers the head of the target once: up to BatchSize events, or the
// head alone when it failed before. It returns how many were marked SENT.
// Nothing is produced while the head backs off.
func (d *Dispatcher) Step(ctx context.Context) (int, error) {
	n, _, _, err := d.step(ctx)
	return n, err
}

// step also says how long to wait before the next step, and whether that
// wait is idleness (which Wake may end) rather than a backoff.
func (d *Dispatcher) step(ctx context.Context) (sent int, wait time.Duration, idle bool, err error) {
	sctx, cancel := storeCtx(ctx, d.cfg.StoreTimeout)
	events, err := d.store.PendingEvents(sctx, store.TargetMsg, d.cfg.BatchSize)
	cancel()
	if err != nil {
		return 0, 0, false, fmt.Errorf("read the %s head: %w", store.TargetMsg, err)
	}
	if len(events) == 0 {
		return 0, d.cfg.Idle, true, nil
	}
	now := d.clock.Now()
	head := events[0]
	if head.NextAttemptAt != nil && head.NextAttemptAt.After(now) {
		return 0, head.NextAttemptAt.Sub(now), false, nil
	}
	if head.Attempts > 0 {
		events = events[:1] // retry a failing head alone, not the batch behind it
	}

	acks := produce(context.WithoutCancel(ctx), d.cl, d.clock, d.topic, events, d.cfg.ProduceTimeout)
	// Only the contiguous acknowledged prefix is SENT: an event acknowledged
	// after a failed one is sent again with it (consumers dedupe).
	for sent < len(events) && acks[sent].err == nil {
		sent++
	}
	if sent > 0 {
		ids := make([]int64, sent)
		for i, e := range events[:sent] {
			ids[i] = e.ID
		}
		sctx, cancel := storeCtx(ctx, d.cfg.StoreTimeout)
		err := d.store.MarkSent(sctx, ids, d.clock.Now())
		cancel()
		if err != nil {
			return 0, 0, false, fmt.Errorf("mark %d acknowledged events SENT (events %d..%d will be sent again): %w", sent, ids[0], ids[sent-1], err)
		}
		for i, e := range events[:sent] {
			d.obs.EventDelivered(store.TargetMsg, acks[i].at.Sub(e.CreatedAt))
		}
		if d.log.Enabled(ctx, slog.LevelDebug) {
			for _, e := range events[:sent] {
				d.log.Debug("event sent", "event_id", e.ID, "flid", e.FLID, "state_version", e.StateVersion)
			}
		}
	}
	if sent == len(events) {
		return sent, 0, false, nil
	}
	return sent, d.fail(ctx, events[sent], acks[sent].err, now), false, nil
}

// fail records a failed delivery of the head and returns how long the
// target waits: its backoff, or nothing when it became DEAD.
func (d *Dispatcher) fail(ctx context.Context, e store.Event, cause error, now time.Time) time.Duration {
	attempt := e.Attempts + 1
	next := now.Add(d.cfg.backoff(attempt))
	sctx, cancel := storeCtx(ctx, d.cfg.StoreTimeout)
	status, err := d.store.RecordDeliveryFailure(sctx, store.DeliveryFailure{
		EventID: e.ID, Reason: truncate(cause.Error()), NextAttemptAt: next, MaxAttempts: d.cfg.maxAttempts(cause),
	})
	cancel()
	if err != nil {
		// Not recorded: the next step retries at once, after Idle.
		d.log.Error("cannot record failed delivery", "event_id", e.ID, "flid", e.FLID, "cause", cause, "err", err)
		return d.cfg.Idle
	}
	dead := status == store.EventDead
	d.obs.EventFailed(store.TargetMsg, dead)
	if dead {
		d.log.Error("event dead after failed deliveries; kept as dead letter, delivery goes on",
			"event_id", e.ID, "flid", e.FLID, "attempts", attempt, "err", cause)
		return 0
	}
	d.log.Warn("event delivery failed; target waits",
		"event_id", e.ID, "flid", e.FLID, "attempts", attempt, "retry_at", next, "err", cause)
	return next.Sub(now)
}
