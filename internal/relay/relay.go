// Package relay delivers the outbox (MSG_EVENT) to Kafka (docs/design.md §1.5):
//
//   - Dispatcher: KAFKA:msg, every event one by one in EVENT_ID order. The
//     head of the target gates it: while the head backs off, nothing passes.
//     A record refused for good (too large, invalid) is DEAD at once and
//     lets the rest pass.
//   - Aggregator: KAFKA:schd, per flight only the latest state (the
//     flight's pending mark), flushed periodically; a failing flight backs
//     off alone.
//
// Delivery is at-least-once: an event is marked SENT (a mark cleared) only
// after the broker acknowledged it, so a crash between the ack and the mark resends it with
// the same idempotency key, by which consumers deduplicate (docs/events.md).
// No database transaction is open during a produce, and every database and
// broker call has its own timeout.
package relay

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/msgx-aodb/msgx/internal/backoff"
	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/kafka"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
	"github.com/msgx-aodb/msgx/internal/wake"
)

// Store is the slice of the store the relay uses: the outbox (MSG_EVENT
// and the KAFKA:schd marks) read, marked and failed, and nothing else. Every store.Store is one.
type Store interface {
	// KAFKA:msg (Dispatcher): the head after a cursor, marked in order.
	PendingEventsAfter(ctx context.Context, p store.PendingEventsAfterParams) ([]store.Event, error)
	MarkSent(ctx context.Context, p store.MarkSentParams) error
	RecordDeliveryFailure(ctx context.Context, p store.RecordDeliveryFailureParams) (string, error)
	// KAFKA:schd (Aggregator): the due marks, each cleared only while it
	// still names what was sent; a failure backs off or buries it DEAD.
	DueSchdMarks(ctx context.Context, p store.DueSchdMarksParams) ([]store.Event, error)
	ClearSchdMarks(ctx context.Context, sent []store.SchdSent) (int, error)
	RecordSchdFailure(ctx context.Context, p store.RecordSchdFailureParams) (string, error)
	AdoptSchdRows(ctx context.Context) (int, error)
}

var _ Store = store.Store(nil)

// Observer receives delivery figures (metrics). Optional: nil is allowed.
type Observer interface {
	EventDelivered(target string, latency time.Duration) // per event: created_at → broker ack
	EventFailed(target string, dead bool)                // per failed delivery attempt; dead when it became DEAD
	// DependencyUp is the outcome of each produce for the brokers
	// (dependency "kafka"): up when a broker answered any record
	// (msgx_dependency_up, rule 20).
	DependencyUp(dependency string, up bool)
}

// Config is the delivery policy. Zero fields take the defaults.
type Config struct {
	BatchSize      int           // KAFKA:msg events per step; default 500
	MaxAttempts    int           // failed deliveries of a record-level error before DEAD; default 10 (a refusal for good: 1)
	MaxRecordBytes int           // kafka.max-record-bytes: a larger record goes DEAD unproduced; 0 = no check here (the client still refuses it)
	BackoffBase    time.Duration // first retry delay, doubled per attempt; default 1 s
	BackoffCap     time.Duration // cap of one delay; default 1 min
	FlushPeriod    time.Duration // KAFKA:schd flush period; default 3 s
	FlushLimit     int           // KAFKA:schd flights per batch; default 500
	Idle           time.Duration // KAFKA:msg poll interval when nothing is pending; default 200 ms (Committed cuts it short)
	ProduceTimeout time.Duration // bound of one produce call; default 15 s (above the client's record timeout, which then reports the precise error)
	StoreTimeout   time.Duration // bound of one database call; default 10 s
	// Committed is rung after a commit that may have written events (the
	// pump's pump.Config.Committed): an idle dispatcher delivers at once
	// rather than at its next Idle poll. nil: none.
	Committed *wake.Signal
}

// DefaultConfig returns the documented defaults.
func DefaultConfig() Config {
	return Config{
		BatchSize: 500, MaxAttempts: 10, BackoffBase: time.Second, BackoffCap: time.Minute,
		FlushPeriod: 3 * time.Second, FlushLimit: 500, Idle: 200 * time.Millisecond,
		ProduceTimeout: 15 * time.Second, StoreTimeout: 10 * time.Second,
	}
}

func (c Config) withDefaults() Config {
	d := DefaultConfig()
	c.BatchSize = cmp.Or(c.BatchSize, d.BatchSize)
	c.MaxAttempts = cmp.Or(c.MaxAttempts, d.MaxAttempts)
	c.FlushLimit = cmp.Or(c.FlushLimit, d.FlushLimit)
	c.BackoffBase = cmp.Or(c.BackoffBase, d.BackoffBase)
	c.BackoffCap = cmp.Or(c.BackoffCap, d.BackoffCap)
	c.FlushPeriod = cmp.Or(c.FlushPeriod, d.FlushPeriod)
	c.Idle = cmp.Or(c.Idle, d.Idle)
	c.ProduceTimeout = cmp.Or(c.ProduceTimeout, d.ProduceTimeout)
	c.StoreTimeout = cmp.Or(c.StoreTimeout, d.StoreTimeout)
	return c
}

// backoff is the delay after the given attempt: base, 2×base, 4×base...,
// each capped.
func (c Config) backoff(attempt int) time.Duration {
	return backoff.Doubling(c.BackoffBase, c.BackoffCap, attempt)
}

// maxAttempts is the limit passed to the store for a failure: a refusal for
// good makes the event DEAD at once (callers produce such an event alone
// before blaming it); other record-level errors count toward DEAD; anything
// else (broker down, timeouts, leader moves, authorization) says nothing
// about the event, so it only backs off — killing events one after another
// during an outage would break the order and completeness the target
// promises.
func (c Config) maxAttempts(err error) int {
	switch {
	case refusedForGood(err):
		return 1
	case recordError(err):
		return c.MaxAttempts
	}
	return math.MaxInt32
}

// recordError reports whether the broker (or the client before it) refused
// the record itself.
func recordError(err error) bool {
	var ke *kerr.Error
	if !errors.As(err, &ke) {
		return false
	}
	switch ke {
	case kerr.MessageTooLarge, kerr.RecordListTooLarge, kerr.InvalidRecord, kerr.CorruptMessage, kerr.InvalidTimestamp:
		return true
	}
	return false
}

// refusedForGood reports a record error that no retry can cure, those kerr
// marks not retriable: too large, invalid record, timestamp out of range.
// CORRUPT_MESSAGE is not among them: it is also a checksum failure in
// transit, so it counts toward MaxAttempts.
//
// The broker refuses a batch as a whole, and franz-go then fails every
// record of that partition it holds: a record refused together with others
// may be innocent. Only a record refused alone is at fault.
func refusedForGood(err error) bool {
	var ke *kerr.Error
	return recordError(err) && errors.As(err, &ke) && !ke.Retriable
}

// fit refuses, before produce, a record over MaxRecordBytes by the measure
// the pump and the client use (kafka.RecordBytes): the client would refuse
// it alike, without the sizes.
func (c Config) fit(r *kgo.Record) error {
	if c.MaxRecordBytes <= 0 {
		return nil
	}
	if n := kafka.RecordBytes(r); n > c.MaxRecordBytes {
		return fmt.Errorf("%w: record of %d bytes, over kafka.max-record-bytes %d; not produced", kerr.MessageTooLarge, n, c.MaxRecordBytes)
	}
	return nil
}

// ack is the outcome of one record.
type ack struct {
	err error
	at  time.Time // when the broker answered
}

// produce sends records and waits for every answer, at most timeout, and
// tells obs whether the brokers answered. acks[i] belongs to recs[i]
// (franz-go answers in completion order, not input order).
func produce(ctx context.Context, cl *kgo.Client, clk clock.Clock, obs Observer, recs []*kgo.Record, timeout time.Duration) []ack {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	acks := make([]ack, len(recs))
	var wg sync.WaitGroup
	wg.Add(len(recs))
	for i, r := range recs {
		cl.Produce(ctx, r, func(_ *kgo.Record, err error) {
			acks[i] = ack{err: err, at: clk.Now()}
			wg.Done()
		})
	}
	wg.Wait()
	for i := range acks {
		if errors.Is(acks[i].err, context.DeadlineExceeded) {
			acks[i].err = fmt.Errorf("no acknowledgement within %s: %w", timeout, acks[i].err)
		}
	}
	obs.DependencyUp(vocab.DependencyKafka, brokersAnswered(acks))
	return acks
}

// brokersAnswered reports whether any record got an answer from a broker:
// an acknowledgement, or a refusal of the record itself (the broker was
// there to refuse it). Timeouts, refused connections and the like say the
// brokers are out of reach.
func brokersAnswered(acks []ack) bool {
	for _, a := range acks {
		if a.err == nil || recordError(a.err) {
			return true
		}
	}
	return false
}

// nopObserver stands in for a nil Observer.
type nopObserver struct{}

func (nopObserver) EventDelivered(string, time.Duration) {}
func (nopObserver) EventFailed(string, bool)             {}
func (nopObserver) DependencyUp(string, bool)            {}

func observer(o Observer) Observer {
	if o == nil {
		return nopObserver{}
	}
	return o
}

// storeCtx bounds one database call. It is detached from cancellation: a
// SENT mark after an acknowledged produce must still be written at shutdown.
func storeCtx(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), timeout)
}
