package relay

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/kafka"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
	"github.com/msgx-aodb/msgx/internal/widths"
)

// Aggregator delivers KAFKA:schd (docs/design.md §1.5): every FlushPeriod,
// per flight its pending mark, the flight's latest change (UPSERT: the full
// state; TOMBSTONE: a null value), at most FlushLimit flights per batch. A
// delivered mark is cleared only while it still names what was sent: a
// change committed between the read and the clear stays marked and goes in
// the next flush. Intermediate versions are not sent, by design; no order is
// promised between KAFKA:msg and KAFKA:schd.
type Aggregator struct {
	store Store
	cl    *kgo.Client
	topic string
	clock clock.Clock
	log   *slog.Logger
	obs   Observer
	cfg   Config

	adopted bool // an earlier release's pending KAFKA:schd rows are marks now
}

// NewAggregator wires an aggregator producing to topic through cl (which the
// caller owns). obs may be nil.
func NewAggregator(s Store, cl *kgo.Client, topic string, c clock.Clock, log *slog.Logger, obs Observer, cfg Config) *Aggregator {
	return &Aggregator{
		store: s, cl: cl, topic: topic, clock: c, log: log.With("target", vocab.TargetSchd),
		obs: observer(obs), cfg: cfg.withDefaults(),
	}
}

// Name is the aggregator's name as a service (it flushes the schd target).
func (a *Aggregator) Name() string { return "relay-schd" }

// Run flushes every FlushPeriod until ctx is done; a full batch is followed
// by the next at once (FlushLimit bounds a batch, not the rate). A flush in
// flight when ctx ends still finishes, SENT marks included.
func (a *Aggregator) Run(ctx context.Context) error {
	for ctx.Err() == nil {
		_, read, err := a.step(ctx)
		if err != nil {
			a.log.Error("schd flush failed", "err", err)
		}
		if err == nil && read >= a.cfg.FlushLimit {
			continue
		}
		select {
		case <-ctx.Done():
		case <-a.clock.After(a.cfg.FlushPeriod):
		}
	}
	return nil
}

// Step flushes one batch and returns how many flights were delivered. A
// failed flight backs off on its own; the rest of the batch is delivered.
func (a *Aggregator) Step(ctx context.Context) (int, error) {
	n, _, err := a.step(ctx)
	return n, err
}

func (a *Aggregator) step(ctx context.Context) (delivered, read int, err error) {
	if err := a.adopt(ctx); err != nil {
		return 0, 0, err
	}
	now := a.clock.Now()
	sctx, cancel := storeCtx(ctx, a.cfg.StoreTimeout)
	latest, err := a.store.DueSchdMarks(sctx, store.DueSchdMarksParams{Now: now, Max: a.cfg.FlushLimit})
	cancel()
	if err != nil {
		return 0, 0, fmt.Errorf("read pending %s flights: %w", vocab.TargetSchd, err)
	}
	if len(latest) == 0 {
		return 0, 0, nil
	}

	acks := a.produce(ctx, latest)
	var done []store.SchdSent
	for i, e := range latest {
		if acks[i].err == nil {
			done = append(done, store.SentAs(e))
		}
	}
	if len(done) > 0 {
		sctx, cancel := storeCtx(ctx, a.cfg.StoreTimeout)
		_, err := a.store.ClearSchdMarks(sctx, done)
		cancel()
		if err != nil {
			return 0, len(latest), fmt.Errorf("clear the marks of %d delivered flights (they will be sent again): %w", len(done), err)
		}
	}
	var errs []error
	for i, e := range latest {
		if acks[i].err == nil {
			a.obs.EventDelivered(vocab.TargetSchd, acks[i].at.Sub(e.CreatedAt))
			if a.log.Enabled(ctx, slog.LevelDebug) {
				a.log.Debug("flight state sent", "event_id", e.ID, "flid", e.FLID, "state_version", e.StateVersion)
			}
			continue
		}
		if err := a.fail(ctx, e, acks[i].err, now); err != nil {
			errs = append(errs, err)
		}
	}
	return len(done), len(latest), errors.Join(errs...)
}

// adopt turns, once per term, the pending KAFKA:schd rows an earlier release
// wrote (one per change) into marks: a rolling upgrade or a rollback leaves
// them, and no other step reads them.
func (a *Aggregator) adopt(ctx context.Context) error {
	if a.adopted {
		return nil
	}
	sctx, cancel := storeCtx(ctx, a.cfg.StoreTimeout)
	n, err := a.store.AdoptSchdRows(sctx)
	cancel()
	if err != nil {
		return fmt.Errorf("adopt pending %s rows of an earlier release: %w", vocab.TargetSchd, err)
	}
	if n > 0 {
		a.log.Info("pending rows of an earlier release marked for delivery", "flights", n)
	}
	a.adopted = true
	return nil
}

// produce sends the flights' records and returns their acks. A record over
// MaxRecordBytes is refused unproduced; one the broker refused for good
// together with others is produced again alone (refusedForGood), so that
// only a record at fault is blamed.
func (a *Aggregator) produce(ctx context.Context, latest []store.Event) []ack {
	acks := make([]ack, len(latest))
	var recs []*kgo.Record
	var at []int // index in latest of each of recs
	for i, e := range latest {
		if e.ID == 0 {
			// The change's KAFKA:msg event (EVENT_ID, payload) is gone, which
			// outbox retention prevents while a mark names it: a record
			// without them would be a null value, a delete. Dead at once.
			acks[i] = ack{err: fmt.Errorf("%w: the %s event of flight %d version %d (message %d) is gone; its state cannot be sent",
				kerr.InvalidRecord, vocab.TargetMsg, e.FLID, e.StateVersion, e.MsgID), at: a.clock.Now()}
			continue
		}
		r := kafka.Record(a.topic, e)
		if err := a.cfg.fit(r); err != nil {
			acks[i] = ack{err: err, at: a.clock.Now()}
			continue
		}
		recs, at = append(recs, r), append(at, i)
	}
	if len(recs) == 0 {
		return acks
	}
	ctx = context.WithoutCancel(ctx)
	for j, k := range produce(ctx, a.cl, a.clock, a.obs, recs, a.cfg.ProduceTimeout) {
		acks[at[j]] = k
	}
	if len(recs) == 1 {
		return acks
	}
	for _, i := range at {
		if refusedForGood(acks[i].err) {
			// A new record: a produced one keeps the context of its produce.
			alone := []*kgo.Record{kafka.Record(a.topic, latest[i])}
			acks[i] = produce(ctx, a.cl, a.clock, a.obs, alone, a.cfg.ProduceTimeout)[0]
		}
	}
	return acks
}

// fail records a failed delivery of a flight's mark. When it becomes DEAD
// the mark is kept as a DEAD KAFKA:schd event (the dead letter) and the
// flight waits for its next change; a mark a newer change replaced
// meanwhile records nothing (the newer change has its own attempts).
func (a *Aggregator) fail(ctx context.Context, e store.Event, cause error, now time.Time) error {
	attempt := e.Attempts + 1
	next := now.Add(a.cfg.backoff(attempt))
	sctx, cancel := storeCtx(ctx, a.cfg.StoreTimeout)
	defer cancel()
	status, err := a.store.RecordSchdFailure(sctx, store.RecordSchdFailureParams{
		SchdSent: store.SentAs(e),
		Reason:   widths.LastError.Cut(cause.Error()), NextAttemptAt: next, MaxAttempts: a.cfg.maxAttempts(cause),
	})
	if err != nil {
		return fmt.Errorf("record failed delivery of event %d (flight %d, %v): %w", e.ID, e.FLID, cause, err)
	}
	dead := status == vocab.EventDead
	a.obs.EventFailed(vocab.TargetSchd, dead)
	switch {
	case dead:
		a.log.Error("flight state dead; kept as dead letter", "event_id", e.ID, "flid", e.FLID, "attempts", attempt, "err", cause)
	case status == "":
		a.log.Warn("flight state delivery failed; a newer change is marked", "event_id", e.ID, "flid", e.FLID, "err", cause)
	default:
		a.log.Warn("flight state delivery failed; flight waits",
			"event_id", e.ID, "flid", e.FLID, "attempts", attempt, "retry_at", next, "err", cause)
	}
	return nil
}
