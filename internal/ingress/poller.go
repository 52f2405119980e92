// Package ingress moves new mailbox rows into the PROC_STATE queue, in id
// order (docs/design.md §1.1): the Poller service, its rescan and holes
// (rule 16), the reconciliation pass (rule 17) and the size hints it hands
// the pump. It rings a wake.Signal when it enqueued; it knows nothing of
// what the pump does with the ids.
package ingress

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/msgx-aodb/msgx/internal/backoff"
	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Poller moves new mailbox rows into the PROC_STATE queue (docs/design.md §1.1).
// It never parses payloads and never marks mailbox rows: it only enqueues ids,
// which is idempotent, so re-reading a row is always harmless.
//
// Ids enter the queue in order (rule 16). The AODB's mailbox allocates an id
// at insert and may commit a smaller id after a larger one, or never (a
// rollback). So after the watermark the poller enqueues only up to the first
// hole — an id no row has while a larger id is visible — and a hole holds the
// ids after it for GapWait from when it was first seen; then it is given up
// as a gap and the ids after it are enqueued. A row that still commits in a
// gap, or behind the watermark for any other reason, is found by the bounded
// rescan (RescanDistance ids, rows received within RescanAge) or by the
// reconciliation pass (Reconcile, at any age) and enqueued as a late row.
type Poller struct {
	store Store
	mb    *mailbox.Mailbox
	clock clock.Clock
	log   *slog.Logger
	cfg   Config

	mu sync.Mutex // one poll at a time: rescanFrom, passed and holes are per poller
	// rescanFrom is where the next rescan page starts (0: the first id not
	// seen). The window is paged one Batch per poll, so a late row is found
	// even behind more than a Batch of rows not yet processed.
	rescanFrom int64
	// passed are the ids behind the watermark this poller passed as visible
	// rows or found by a rescan: they are in the queue, so a late row is one
	// it has not passed, and the rescan reads only the window's ids outside
	// them (a drain without holes rescans nothing). A restart forgets them:
	// the first rescan reads the whole window.
	passed idRanges
	// holes are the holes after the watermark the last poll saw, with when
	// each was first seen (a restart forgets them: they wait again).
	holes []hole
}

// hole is a run of ids no mailbox row has, with a larger id visible.
type hole struct {
	from, to int64
	since    time.Time // first seen
}

// Store is the slice of the store the poller uses.
type Store interface {
	IngressMark(ctx context.Context, source string) (int64, error)
	AdvanceIngressMark(ctx context.Context, p store.AdvanceIngressMarkParams) error
	RecordGap(ctx context.Context, g store.Gap) error
	EnqueueNew(ctx context.Context, ids []int64, now time.Time) ([]store.Enqueued, error)
	Message(ctx context.Context, id int64) (vocab.QueueEntry, error)
}

// Observer counts what went out of order at the ingress
// (internal/metrics implements it).
type Observer interface {
	IngressGaps(n int)     // holes given up
	IngressLateRows(n int) // rows enqueued after a larger id finished
}

// DependencyObserver is the optional part of an observer that records
// whether the last attempt on a dependency succeeded
// (msgx_dependency_up; internal/metrics implements it).
type DependencyObserver interface {
	DependencyUp(dependency string, up bool)
}

// NewPoller wires a poller; zero config fields take their defaults.
func NewPoller(s Store, mb *mailbox.Mailbox, c clock.Clock, log *slog.Logger, cfg Config) *Poller {
	if log == nil {
		log = slog.Default()
	}
	return &Poller{store: s, mb: mb, clock: c, log: log, cfg: cfg.withDefaults()}
}

// PollOnce enqueues the rescan window's next page behind the watermark and
// up to Batch rows after it, as far as the first hole that still holds, then
// advances the watermark to the last id it passed. It returns how many ids
// were new to the queue and rings Enqueued when there were any.
func (p *Poller) PollOnce(ctx context.Context) (int, error) {
	n, _, err := p.poll(ctx)
	return n, err
}

// readMailbox reads the ids visible after the mark and the rescan's
// behind it: the poller's attempt on the mailbox.
func (p *Poller) readMailbox(ctx context.Context, mark int64, now time.Time) (ahead []mailbox.Visible, behind []int64, err error) {
	if ahead, err = p.mb.VisibleAfter(ctx, mark, p.cfg.Batch); err != nil {
		return nil, nil, fmt.Errorf("ingress: list after %d: %w", mark, err)
	}
	if behind, err = p.rescan(ctx, mark, now); err != nil {
		return nil, nil, fmt.Errorf("ingress: rescan behind %d: %w", mark, err)
	}
	return ahead, behind, nil
}

// attempted reports whether an attempt on a dependency succeeded (rule 20:
// its health is visible whether or not the queue holds anything). A
// cancelled attempt (shutdown) says nothing.
func (p *Poller) attempted(dependency string, err error) {
	o, ok := p.cfg.Observer.(DependencyObserver)
	if !ok || errors.Is(err, context.Canceled) {
		return
	}
	o.DependencyUp(dependency, err == nil)
}

// poll is PollOnce, also reporting whether it read a full batch after the
// mark and passed it all (more rows may be waiting).
func (p *Poller) poll(ctx context.Context) (enqueued int, full bool, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	defer func() {
		if enqueued > 0 {
			p.cfg.Enqueued.Ring()
		}
	}()
	now := p.clock.Now()
	mark, err := p.store.IngressMark(ctx, p.cfg.Source)
	p.attempted(p.cfg.StoreName, err)
	if err != nil {
		return 0, false, fmt.Errorf("ingress: read watermark: %w", err)
	}
	ahead, behind, err := p.readMailbox(ctx, mark, now)
	p.attempted(vocab.DependencyMailbox, err)
	if err != nil {
		return 0, false, err
	}

	// Behind the mark first: those ids are smaller than any after it.
	if len(behind) > 0 {
		n, err := p.enqueue(ctx, behind, now)
		if err != nil {
			return 0, false, fmt.Errorf("ingress: enqueue rescanned ids: %w", err)
		}
		if n > 0 {
			p.log.Info("ingress: rescan found rows behind the watermark", "count", n, "watermark", mark)
		}
		enqueued += n
		for _, id := range behind {
			p.passed.add(id, id)
		}
	}
	take, last, gaps := p.admit(mark, ahead, now)
	for _, g := range gaps {
		if err := p.store.RecordGap(ctx, store.Gap{Source: p.cfg.Source, From: g.from, To: g.to, SeenAt: g.since, GivenUpAt: now}); err != nil {
			return enqueued, false, fmt.Errorf("ingress: record gap %d..%d: %w", g.from, g.to, err)
		}
		p.log.Info("ingress: gave up a hole in the mailbox ids; the ids after it are enqueued", "from_id", g.from, "to_id", g.to,
			"waited", now.Sub(g.since).String(), "gap_wait", p.cfg.GapWait.String())
	}
	if len(gaps) > 0 && p.cfg.Observer != nil {
		p.cfg.Observer.IngressGaps(len(gaps))
	}
	if len(take) > 0 {
		n, err := p.enqueue(ctx, take, now)
		if err != nil {
			return enqueued, false, fmt.Errorf("ingress: enqueue ids %d..%d: %w", take[0], take[len(take)-1], err)
		}
		enqueued += n
	}
	if last <= mark {
		return enqueued, false, nil
	}
	// Only after the enqueue: a crash in between re-reads, never skips.
	if err := p.store.AdvanceIngressMark(ctx, store.AdvanceIngressMarkParams{Source: p.cfg.Source, LastID: last, Now: now}); err != nil {
		return enqueued, false, fmt.Errorf("ingress: advance watermark to %d: %w", last, err)
	}
	for _, r := range ahead {
		if r.ID <= last {
			p.passed.add(r.ID, r.ID)
		}
	}
	p.cfg.Sizes.put(ahead, last)
	return enqueued, len(ahead) == p.cfg.Batch && last == ahead[len(ahead)-1].ID, nil
}

// admit walks the rows after the mark in id order and returns the ids to
// enqueue (unprocessed rows up to the first hole that still holds), the last
// id passed (the new watermark) and the holes given up on the way. Every
// hole of the batch is remembered with when it was first seen, so each waits
// GapWait from its own first sighting. With no watermark yet (0) the first
// row starts the ids: nothing before it is a hole.
func (p *Poller) admit(mark int64, rows []mailbox.Visible, now time.Time) (take []int64, last int64, gaps []hole) {
	last = mark
	expect := mark + 1
	held := false
	var holes []hole
	for i, r := range rows {
		if mark == 0 && i == 0 {
			expect = r.ID
		}
		if r.ID > expect {
			h := p.seen(expect, r.ID-1, now)
			switch {
			case held || now.Sub(h.since) < p.cfg.GapWait:
				holes, held = append(holes, h), true
			default:
				gaps = append(gaps, h)
			}
		}
		expect = r.ID + 1
		if held {
			continue // only to see the later holes
		}
		if !r.Done {
			take = append(take, r.ID)
		}
		last = r.ID
	}
	p.holes = holes
	return take, last, gaps
}

// seen is the hole from..to with the time it was first seen: that of a
// remembered hole it overlaps (a hole shrinks as its rows commit), or now.
func (p *Poller) seen(from, to int64, now time.Time) hole {
	for _, h := range p.holes {
		if h.from <= to && from <= h.to {
			return hole{from: from, to: to, since: h.since}
		}
	}
	return hole{from: from, to: to, since: now}
}

// enqueue enqueues ids and reports the late rows among them.
func (p *Poller) enqueue(ctx context.Context, ids []int64, now time.Time) (int, error) {
	got, err := p.store.EnqueueNew(ctx, ids, now)
	if err != nil {
		return 0, err
	}
	p.reportLate(got)
	return len(got), nil
}

// reportLate reports the late rows among new messages (rule 17): a warning
// with both ids each, and the count to the observer. It returns the count.
func (p *Poller) reportLate(got []store.Enqueued) int {
	late := 0
	for _, e := range got {
		if e.LateAfter == nil {
			continue
		}
		late++
		p.log.Warn("ingress: late row: enqueued after a larger id already finished; its effect lands after that one's",
			"msg_id", e.ID, "largest_finished_id", *e.LateAfter, "mark", vocab.LateMark(*e.LateAfter))
	}
	if late > 0 && p.cfg.Observer != nil {
		p.cfg.Observer.IngressLateRows(late)
	}
	return late
}

// rescan reads the next page of the window (mark-RescanDistance, mark]:
// the ids in it the poller has not passed, one query per run of them (at
// most maxRescanRuns; past that, one query from the first of them, as if
// nothing had been passed).
func (p *Poller) rescan(ctx context.Context, mark int64, now time.Time) ([]int64, error) {
	if mark <= 0 {
		return nil, nil
	}
	lo := max(mark-p.cfg.RescanDistance, 0)
	p.passed.trimBelow(lo + 1)
	from := max(p.rescanFrom, lo)
	if from >= mark {
		from = lo
	}
	runs := p.passed.unseen(from+1, mark)
	if len(runs) > maxRescanRuns {
		runs = []idRange{{runs[0].from, mark}}
	}
	var ids []int64
	for _, r := range runs {
		got, err := p.mb.Rescan(ctx, mailbox.RescanParams{FromID: r.from - 1, ToID: r.to, ReceivedAfter: now.Add(-p.cfg.RescanAge), Limit: p.cfg.Batch - len(ids)})
		if err != nil {
			return nil, err
		}
		ids = append(ids, got...)
		if len(ids) == p.cfg.Batch {
			break
		}
	}
	p.rescanFrom = 0
	if len(ids) == p.cfg.Batch {
		p.rescanFrom = ids[len(ids)-1]
	}
	return ids, nil
}

// maxRescanRuns bounds the queries of one rescan: a mailbox whose ids have
// many holes is read with one query over the window, as before.
const maxRescanRuns = 8

// Name is the poller's name as a service.
func (p *Poller) Name() string { return "poller" }

// Run polls at once and then every Interval on the clock, or at once when
// Inserted rings (a send inserted a row), until ctx is done; after a full batch
// it polls again without waiting. Errors are logged and the next poll
// retries. It returns nil when ctx is done.
func (p *Poller) Run(ctx context.Context) error {
	var failing backoff.Log // an outage fails every poll: the log backs off
	for {
		n, full, err := p.poll(ctx)
		if ctx.Err() != nil {
			return nil //nolint:nilerr // a failure of the cancelled poll is the shutdown, not an error
		}
		switch {
		case err != nil:
			if log, held := failing.Fail(p.clock.Now()); log {
				p.log.Error("ingress: poll failed", "err", err, "failures_since_last_line", held)
			}
		default:
			if lasted, was := failing.OK(p.clock.Now()); was {
				p.log.Info("ingress: polling again", "failed_for", lasted.Round(time.Millisecond).String())
			}
			if n > 0 {
				p.log.Debug("ingress: enqueued", "count", n)
			}
		}
		if full && err == nil {
			continue
		}
		select {
		case <-ctx.Done():
			return nil
		case <-p.clock.After(p.cfg.Interval):
		case <-p.cfg.Inserted.C():
		}
	}
}
