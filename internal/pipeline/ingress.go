package pipeline

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/store"
)

// Poller moves new mailbox rows into the PROC_STATE queue (docs/design.md §1.1).
// It never parses payloads and never marks mailbox rows: it only enqueues ids,
// which is idempotent, so re-reading a row is always harmless.
//
// The watermark (INGRESS_MARK) makes a poll cheap, but it is not proof that
// every smaller id was seen: the AODB may commit a row with a smaller id after
// a larger one. So each poll also rescans a bounded window behind the mark
// (RescanDistance ids, rows received within RescanAge).
type Poller struct {
	store store.Store
	mb    *mailbox.Mailbox
	clock clock.Clock
	log   *slog.Logger
	cfg   PollerConfig

	mu sync.Mutex // one poll at a time: rescanFrom is per poller
	// rescanFrom is where the next rescan page starts (0: window start). The
	// window is paged one Batch per poll, so a late row is found even behind
	// more than a Batch of rows that are queued but not yet processed.
	rescanFrom int64
}

// NewPoller wires a poller; zero config fields take their defaults.
func NewPoller(s store.Store, mb *mailbox.Mailbox, c clock.Clock, log *slog.Logger, cfg PollerConfig) *Poller {
	if log == nil {
		log = slog.Default()
	}
	return &Poller{store: s, mb: mb, clock: c, log: log, cfg: cfg.withDefaults()}
}

// PollOnce enqueues up to Batch unprocessed rows after the watermark plus up
// to Batch rows of the rescan window behind it, then advances the watermark to
// the largest id read after it. It returns how many ids were new to the queue
// and rings the Bell when there were any.
func (p *Poller) PollOnce(ctx context.Context) (int, error) {
	n, _, err := p.poll(ctx)
	return n, err
}

// poll is PollOnce, also reporting whether the batch after the mark was full
// (more rows are waiting).
func (p *Poller) poll(ctx context.Context) (enqueued int, full bool, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	defer func() {
		if enqueued > 0 {
			p.cfg.Bell.Ring()
		}
	}()
	now := p.clock.Now()
	mark, err := p.store.IngressMark(ctx, p.cfg.Source)
	if err != nil {
		return 0, false, fmt.Errorf("ingress: read watermark: %w", err)
	}
	ahead, err := p.mb.ListAfter(ctx, mark, p.cfg.Batch)
	if err != nil {
		return 0, false, fmt.Errorf("ingress: list after %d: %w", mark, err)
	}
	behind, err := p.rescan(ctx, mark, now)
	if err != nil {
		return 0, false, fmt.Errorf("ingress: rescan behind %d: %w", mark, err)
	}

	if len(behind) > 0 {
		n, err := p.store.Enqueue(ctx, behind, now)
		if err != nil {
			return 0, false, fmt.Errorf("ingress: enqueue rescanned ids: %w", err)
		}
		if n > 0 {
			p.log.Info("ingress: rescan found rows behind the watermark", "count", n, "watermark", mark)
		}
		enqueued += n
	}
	if len(ahead) == 0 {
		return enqueued, false, nil
	}
	n, err := p.store.Enqueue(ctx, ahead, now)
	if err != nil {
		return enqueued, false, fmt.Errorf("ingress: enqueue ids %d..%d: %w", ahead[0], ahead[len(ahead)-1], err)
	}
	enqueued += n
	// Only after the enqueue: a crash in between re-reads, never skips.
	last := ahead[len(ahead)-1]
	if err := p.store.AdvanceIngressMark(ctx, p.cfg.Source, last, now); err != nil {
		return enqueued, false, fmt.Errorf("ingress: advance watermark to %d: %w", last, err)
	}
	return enqueued, len(ahead) == p.cfg.Batch, nil
}

// rescan reads the next page of the window (mark-RescanDistance, mark].
func (p *Poller) rescan(ctx context.Context, mark int64, now time.Time) ([]int64, error) {
	if mark <= 0 {
		return nil, nil
	}
	lo := max(mark-p.cfg.RescanDistance, 0)
	from := max(p.rescanFrom, lo)
	if from >= mark {
		from = lo
	}
	ids, err := p.mb.Rescan(ctx, from, mark, now.Add(-p.cfg.RescanAge), p.cfg.Batch)
	if err != nil {
		return nil, err
	}
	p.rescanFrom = 0
	if len(ids) == p.cfg.Batch {
		p.rescanFrom = ids[len(ids)-1]
	}
	return ids, nil
}

// Run polls at once and then every interval on the clock until ctx is done;
// after a full batch it polls again without waiting. Errors are logged and
// the next poll retries. It returns nil when ctx is done.
func (p *Poller) Run(ctx context.Context, interval time.Duration) error {
	var failing logBackoff // an outage fails every poll: the log backs off
	for {
		n, full, err := p.poll(ctx)
		if ctx.Err() != nil {
			return nil
		}
		switch {
		case err != nil:
			if log, held := failing.fail(p.clock.Now()); log {
				p.log.Error("ingress: poll failed", "err", err, "failures_since_last_line", held)
			}
		default:
			if lasted, was := failing.ok(p.clock.Now()); was {
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
		case <-p.clock.After(interval):
		}
	}
}
