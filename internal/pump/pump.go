// Package pump is the service that processes the PROC_STATE queue strictly
// in MSG_ID order (docs/design.md §3): it reads a run of head messages from
// the mailbox (read.go), has internal/apply decide what each does, writes
// that in one transaction per batch or message (run.go, tx.go), pauses on a
// dependency outage (pause.go) and keeps the flight states it committed
// (statecache.go). What a step carries to the next is one value, runState
// (state.go). It hears the ingress's wake.Signal when ids were enqueued and
// rings one after every commit (the Kafka relay listens); the mailbox
// backfill todos of a commit are handed over as data.
//
// The end-to-end tests that drive the poller (internal/ingress), the pump
// and the backfiller (internal/backfill) together live in this package's
// test files (order_test.go, reconcile_test.go, wake_test.go,
// bench_e2e_test.go, golden_test.go), with the golden tables in testdata/.
package pump

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/msgx-aodb/msgx/internal/apply"
	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/respmatch"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
	"github.com/msgx-aodb/msgx/internal/wake"
)

// Config sets the head rules (docs/design.md §3.2). Durations are from the
// injected clock.
type Config struct {
	MaxAttempts  int           // attempts ≥ this → DEAD(EXHAUSTED); default 5
	BackoffBase  time.Duration // first retry delay, doubled per attempt; default 1 s
	BackoffCap   time.Duration // cap of one delay; default 60 s
	HeadDeadline time.Duration // a head failing for this long (from its first counted failure) → DEAD(EXHAUSTED); default 10 min
	RunLength    int           // most consecutive head messages committed together; default 1000
	RunBytes     int           // most raw XML bytes a run reads (at least its head); default 64 MiB (read.go)
	Idle         time.Duration // wait when the queue is empty, unless Enqueued rings first; default 1 s
	Enqueued     *wake.Signal  // rung after an enqueue; nil = none (the pump then looks every Idle)
	Prune        bool          // snapshot prune of previous-generation members; default on
	Grace        time.Duration // at shutdown, how long the step in flight may still run; default 30 s
	Probe        time.Duration // while paused on an unreachable dependency, how often to try again; default 1 s
	CheckTimeout time.Duration // bounds the probe that decides whether a failure is an outage (pause.go); default 2 s
	Pause        *PauseState   // where the pump shows it is paused (readiness, metrics); nil = its own
	Decode       sis.Options
	Shadow       bool  // shadow mode: no outbox events and no mailbox backfill todos
	Guard        Guard // request.guard: which RESPs apply (*aodbrequest.Guard); nil = request mode (REQ_TRACK)
	// MaxRecordBytes is kafka.max-record-bytes, as a number: a message whose
	// event's record (EventBytes) would be larger is refused, DEAD(PROTOCOL)
	// (internal/apply); 0 = no limit. Not applied in shadow mode (no events).
	MaxRecordBytes int
	// EventBytes sizes the record the relay will produce for an event not
	// yet written (payload: the record's value); internal/app wires
	// kafka.EventBytes, so the pump knows no Kafka. nil: the payload's length
	// (a lower bound).
	EventBytes func(e vocab.NewEvent, payload []byte) int
	Observer   Observer // metrics; nil = none
	// StoreName is msgx's own database in msgx_dependency_up (postgres or
	// oracle); default postgres.
	StoreName string
	Committed *wake.Signal // rung after every commit (wakes the Kafka relay); nil = none
}

// Observer receives the pump's outcomes (internal/metrics implements it).
type Observer interface {
	// MessageFinished reports a committed terminal outcome; latency runs from
	// the message's first sighting to its commit.
	MessageFinished(kind, status, class string, latency time.Duration)
}

// DependencyObserver is the optional part of an Observer that records
// whether the last attempt on a dependency succeeded (msgx_dependency_up;
// internal/metrics implements it).
type DependencyObserver interface {
	DependencyUp(dependency string, up bool)
}

// Store is the slice of the store the pump uses: the queue, its business
// transactions and its published state.
type Store interface {
	Begin(ctx context.Context) (store.Tx, error)
	QueueHead(ctx context.Context, max int) ([]vocab.QueueEntry, error)
	QueueRun(ctx context.Context, max int) ([]vocab.QueueEntry, int64, error)
	Message(ctx context.Context, id int64) (vocab.QueueEntry, error)
	PendingAfter(ctx context.Context, after int64, max int) ([]int64, error)
	RecordFailure(ctx context.Context, p vocab.RecordFailureParams) (int, error)
	ShiftDeadlines(ctx context.Context, pausedSince, resumedAt time.Time) (int, error)
	PublishPause(ctx context.Context, p store.Pause) error
	PublishResume(ctx context.Context, now time.Time) error
}

// Guard reads, inside the transaction of a RESP, what the RESP may answer
// (request.guard; *aodbrequest.Guard).
type Guard interface {
	Mode() respmatch.Mode
	Read(ctx context.Context, ex respmatch.OpenReader, key string, dttm time.Time) (respmatch.Candidates, error)
}

// DefaultConfig returns the documented defaults.
func DefaultConfig() Config {
	return Config{
		MaxAttempts: 5, BackoffBase: time.Second, BackoffCap: time.Minute,
		HeadDeadline: 10 * time.Minute, RunLength: 1000, RunBytes: DefaultRunBytes, Idle: time.Second,
		Prune: true, Grace: 30 * time.Second, Probe: time.Second, CheckTimeout: 2 * time.Second, Decode: sis.DefaultOptions(),
		StoreName: vocab.DependencyPostgres, // msgx_dependency_up's name of the own database (app passes oracle)
	}
}

// withDefaults gives zero counts and durations their defaults, like every
// config of this package (flags such as Prune and Shadow are as given:
// start from DefaultConfig to get their defaults).
func (c Config) withDefaults() Config {
	d := DefaultConfig()
	c.MaxAttempts = cmp.Or(c.MaxAttempts, d.MaxAttempts)
	c.BackoffBase = cmp.Or(c.BackoffBase, d.BackoffBase)
	c.BackoffCap = cmp.Or(c.BackoffCap, d.BackoffCap)
	c.HeadDeadline = cmp.Or(c.HeadDeadline, d.HeadDeadline)
	c.RunLength = cmp.Or(c.RunLength, d.RunLength)
	c.RunBytes = cmp.Or(c.RunBytes, d.RunBytes)
	c.Idle = cmp.Or(c.Idle, d.Idle)
	c.Grace = cmp.Or(c.Grace, d.Grace)
	c.Probe = cmp.Or(c.Probe, d.Probe)
	c.StoreName = cmp.Or(c.StoreName, d.StoreName)
	c.CheckTimeout = cmp.Or(c.CheckTimeout, d.CheckTimeout)
	if c.Pause == nil {
		c.Pause = &PauseState{}
	}
	return c
}

// RawReader reads messages' raw XML, or only its size in bytes, from the
// mailbox (*mailbox.Mailbox), by id. A row that does not exist is absent
// from the map; an error is an infrastructure failure, never "missing".
type RawReader interface {
	ReadRaws(ctx context.Context, ids []int64) (map[int64][]byte, error)
	RawSizes(ctx context.Context, ids []int64) (map[int64]int, error)
}

// Pump processes the queue strictly in MSG_ID order: the head is the
// smallest unfinished message, and nothing passes a FAILED head.
type Pump struct {
	store    Store
	apply    *apply.Applier // what one message does
	raw      RawReader
	backfill func(ctx context.Context, todos []vocab.Backfill) // right after a commit; nil = sweep only
	clock    clock.Clock
	log      *slog.Logger
	cfg      Config
	// st is what a step carries to the next (state.go): only the step
	// loop changes it, handing it down as an argument. Run and Step are
	// never called at once.
	st      *runState
	release func() // returns freed memory to the OS (debug.FreeOSMemory; tests count)
}

// New wires a pump. backfill runs the mailbox backfill right after each
// commit (the sweep retries what it could not do).
func New(s Store, raw RawReader, backfill func(context.Context, []vocab.Backfill), c clock.Clock, log *slog.Logger, cfg Config) *Pump {
	cfg = cfg.withDefaults()
	mode := respmatch.ModeRequest
	if cfg.Guard != nil {
		mode = cfg.Guard.Mode()
	}
	a := apply.New(apply.Config{Prune: cfg.Prune, Shadow: cfg.Shadow, Guard: mode, Location: cfg.Decode.Location,
		MaxRecordBytes: cfg.MaxRecordBytes, EventBytes: cfg.EventBytes, Log: log,
		Retries: apply.Retries{MaxAttempts: cfg.MaxAttempts, BackoffBase: cfg.BackoffBase, BackoffCap: cfg.BackoffCap, HeadDeadline: cfg.HeadDeadline}})
	return &Pump{store: s, apply: a, raw: raw, backfill: backfill, clock: c, log: log, cfg: cfg,
		st: newRunState(cfg.RunLength), release: debug.FreeOSMemory}
}

// Name is the pump's name as a service.
func (p *Pump) Name() string { return "pump" }

// Run pumps until ctx is done. It waits only when there is nothing to do:
// an empty queue (Idle, or until Enqueued rings) or a FAILED head not yet
// due (until its time; a ring changes nothing about that head).
//
// Shutdown does not cut the step in flight: cancelling its context would
// roll back work that is about to commit. The step may run on for Grace
// after ctx is done (then it is cancelled and rolls back), and no step
// starts after that.
func (p *Pump) Run(ctx context.Context) error {
	// The pause shown is this pump's: one a previous term's pump left (it
	// stopped while paused) is over, and none is shown once this one stops.
	p.cfg.Pause.set(nil)
	defer p.cfg.Pause.set(nil)
	p.publishResume(ctx) // a pause a previous leader published is over
	for ctx.Err() == nil {
		sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		stop := context.AfterFunc(ctx, func() { time.AfterFunc(p.cfg.Grace, cancel) })
		res, err := p.step(sctx, ctx, p.st)
		stop()
		cancel()
		if err != nil {
			p.log.Error("pump step failed", "err", err)
			res = stepResult{kind: failed, wait: p.cfg.Idle}
		}
		if res.wait <= 0 {
			continue
		}
		var enqueued <-chan struct{}
		if res.kind == idle {
			enqueued = p.cfg.Enqueued.C()
		}
		select {
		case <-ctx.Done():
		case <-p.clock.After(res.wait):
		case <-enqueued:
		}
	}
	return nil
}

// Step does one unit of work: settles or waits for a FAILED head, or
// processes a run of consecutive heads in one commit. It returns how long to
// wait before the next step (0: go on at once).
func (p *Pump) Step(ctx context.Context) (time.Duration, error) {
	res, err := p.step(ctx, nil, p.st)
	return res.wait, err
}

// step is one step on the run state st. life is Run's context (nil: Step
// called alone): a read-ahead ends with it, and a shutdown is seen in it
// before the step's own context is cut. A dependency that cannot be
// reached pauses the pump instead of failing the step (rule 14): the next
// step, one probe interval later, tries again.
func (p *Pump) step(ctx, life context.Context, st *runState) (stepResult, error) {
	res, err := p.work(ctx, life, st)
	if ctx.Err() == nil {
		if o := p.outageOf(ctx, err); o != nil {
			p.pauseOn(ctx, st, o.dependency, err)
			return stepResult{kind: paused, wait: p.cfg.Probe}, nil //nolint:nilerr // an outage pauses the pump (rule 14): the error is shown as the pause, not returned
		}
	}
	if err == nil {
		p.resume(ctx, st)
	}
	return res, err
}

// work settles or waits for a FAILED head, or processes a run.
func (p *Pump) work(ctx, life context.Context, st *runState) (stepResult, error) {
	heads, below, err := p.store.QueueRun(ctx, p.cfg.RunLength)
	if err != nil {
		return stepResult{kind: failed}, fmt.Errorf("read queue head: %w", err)
	}
	if len(heads) == 0 {
		return stepResult{kind: idle, wait: p.cfg.Idle}, nil
	}
	if heads[0].Status == vocab.StatusFailed {
		// The retry rules read the whole row (backoff, deadline, last error).
		if heads[0], err = p.store.Message(ctx, heads[0].ID); err != nil {
			return stepResult{kind: failed}, fmt.Errorf("read queue head: %w", err)
		}
	}
	now := p.now()
	head := heads[0]
	if head.Status == vocab.StatusFailed {
		r := p.apply.Retry(head, st.paused != nil, now)
		if r.Exhausted != nil {
			if err := p.finishExhausted(ctx, head, r, now); errors.Is(err, store.ErrStale) {
				p.logStale(head.ID, err) // replayed since it was read: the next step reads it again
				return stepResult{kind: stale}, nil
			} else if err != nil {
				return stepResult{kind: failed}, err
			}
			return stepResult{kind: exhausted}, nil
		}
		if r.Due.After(now) {
			return stepResult{kind: backingOff, wait: r.Due.Sub(now)}, nil
		}
	}
	kind, err := p.processRun(ctx, life, st, heads, below)
	return stepResult{kind: kind}, err
}

// finishExhausted settles a head apply found exhausted, in its own
// transaction.
func (p *Pump) finishExhausted(ctx context.Context, m vocab.QueueEntry, r apply.HeadRetry, now time.Time) error {
	err := p.inTx(ctx, now, func(tx store.Tx, _ int64) error { return write(ctx, tx, r.Exhausted, now, p.cfg.Shadow) })
	if err != nil {
		return fmt.Errorf("finish exhausted message %d: %w", m.ID, err)
	}
	p.log.Warn("message exhausted", "msg_id", m.ID, "attempts", m.Attempts, "reason", r.Outcome.Reason)
	if p.cfg.Observer != nil {
		kind := cmp.Or(m.Kind, string(sis.KindUnknown)) // bound at its failures when it decoded
		p.cfg.Observer.MessageFinished(kind, r.Outcome.Status, string(r.Outcome.Class), now.Sub(m.FirstSeenAt))
	}
	p.afterCommit(ctx, r.Exhausted.Backfills)
	return nil
}

// failHead records a failure of the head message, unless the failure is not
// the message's: an outage its probe confirmed (rule 14: no attempt is
// counted, the caller pauses) or a shutdown (the step was cut). Those are
// returned.
func (p *Pump) failHead(ctx context.Context, m vocab.QueueEntry, err error, bind *vocab.Binding) (stepKind, error) {
	if up := p.outageOrShutdown(ctx, err); up != nil {
		return failed, up
	}
	return p.recordFailure(ctx, m, apply.Classify(err), bind)
}

// recordFailure marks the head FAILED as apply decides (its backoff), in
// its own short transaction after the run's rollback or commit, binding bind
// if not nil. A replay committed since the step read m found the old
// attempt's failure stale (store.ErrStale): nothing is recorded, the replay's
// fresh start stands, and the next step reads the message again.
func (p *Pump) recordFailure(ctx context.Context, m vocab.QueueEntry, f *apply.Failure, bind *vocab.Binding) (stepKind, error) {
	attempts, err := p.store.RecordFailure(ctx, p.apply.Failed(m, f, bind, p.now()))
	if errors.Is(err, store.ErrStale) {
		p.logStale(m.ID, err)
		return stale, nil
	}
	if err != nil {
		return failed, fmt.Errorf("record failure of message %d (%s): %w", m.ID, f, err)
	}
	p.log.Warn("message failed", "msg_id", m.ID, "class", f.Class, "attempts", attempts, "reason", f.Reason)
	return failed, nil
}

// shuttingDown says whether a shutdown began: the step's context is cut only
// after the grace, so between two transactions the pump also looks at the
// context Run was given (life; nil when Step is called alone).
func shuttingDown(ctx, life context.Context) bool {
	return ctx.Err() != nil || (life != nil && life.Err() != nil)
}

// now is the clock's time at the precision the store keeps (microseconds):
// a state computed in memory, its event payload and its cached copy are then
// exactly what a read of the committed row returns.
func (p *Pump) now() time.Time { return p.clock.Now().Truncate(time.Microsecond) }

// afterCommit hands a commit's backfill todos to the backfiller and wakes
// whoever waits for new outbox events (the Kafka relay).
func (p *Pump) afterCommit(ctx context.Context, todos []vocab.Backfill) {
	if p.backfill != nil && len(todos) > 0 {
		p.backfill(ctx, todos)
	}
	p.cfg.Committed.Ring()
}

// inTx runs fn in a business transaction holding the pipeline lock, with
// the lock's count of enqueues below the largest known id (store.LockPipeline).
func (p *Pump) inTx(ctx context.Context, now time.Time, fn func(tx store.Tx, enqueuedBelow int64) error) error {
	tx, err := p.store.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	below, err := tx.LockPipeline(ctx, now)
	if err != nil {
		return err
	}
	if err := fn(tx, below); err != nil {
		return err
	}
	return tx.Commit(ctx)
}
