package ingress

import (
	"context"
	"errors"
	"fmt"

	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/store"
)

// Reconciled is what one reconciliation pass did (or, dry, would do).
type Reconciled struct {
	Scanned  int // unprocessed mailbox rows up to the watermark
	Enqueued int // of them, new to the queue
	Late     int // of those, late rows (rule 17)
	Note     string
}

// maxReconcilePages bounds one pass; what is left waits for the next one.
const maxReconcilePages = 10000

// Reconcile is the reconciliation pass (rule 17, docs/design.md §1.1): it
// pages the unprocessed mailbox rows up to the watermark by id, at any age,
// and enqueues those the queue does not hold — a row the bounded rescan
// could not see (received long before it committed). Each is a late row
// when a larger id already finished. Rows after the watermark are the
// poll's. A dry pass counts and enqueues nothing. In shadow mode it does
// nothing: another system processes the mailbox, so an unprocessed row is
// not a missed one, and the rescan window is the limit.
func (p *Poller) Reconcile(ctx context.Context, dry bool) (Reconciled, error) {
	var r Reconciled
	if p.cfg.Shadow {
		r.Note = "shadow mode: nothing to reconcile, the rescan window is the limit"
		return r, nil
	}
	mark, err := p.store.IngressMark(ctx, p.cfg.Source)
	if err != nil {
		return r, fmt.Errorf("reconcile: read watermark: %w", err)
	}
	var after int64
	for range maxReconcilePages {
		ids, err := p.mb.Unprocessed(ctx, mailbox.UnprocessedParams{AfterID: after, UpTo: mark, Limit: p.cfg.ReconcileBatch})
		if err != nil {
			return r, fmt.Errorf("reconcile: page after %d: %w", after, err)
		}
		r.Scanned += len(ids)
		if dry {
			n, err := p.unknown(ctx, ids)
			if err != nil {
				return r, err
			}
			r.Enqueued += n
		} else if len(ids) > 0 {
			got, late, err := p.enqueueCounting(ctx, ids)
			if err != nil {
				return r, fmt.Errorf("reconcile: enqueue %d..%d: %w", ids[0], ids[len(ids)-1], err)
			}
			r.Enqueued, r.Late = r.Enqueued+got, r.Late+late
		}
		if len(ids) < p.cfg.ReconcileBatch {
			break
		}
		after = ids[len(ids)-1]
	}
	if r.Enqueued > 0 && !dry {
		p.log.Warn("reconcile: enqueued unprocessed mailbox rows the queue did not hold", "count", r.Enqueued, "late", r.Late, "watermark", mark)
		p.cfg.Enqueued.Ring()
	}
	return r, nil
}

// enqueueCounting is enqueue, also counting the late rows.
func (p *Poller) enqueueCounting(ctx context.Context, ids []int64) (enqueued, late int, err error) {
	now := p.clock.Now()
	got, err := p.store.EnqueueNew(ctx, ids, now)
	if err != nil {
		return 0, 0, err
	}
	late = p.reportLate(got)
	return len(got), late, nil
}

// unknown counts the ids the queue (live or archived) does not hold.
func (p *Poller) unknown(ctx context.Context, ids []int64) (int, error) {
	n := 0
	for _, id := range ids {
		_, err := p.store.Message(ctx, id)
		switch {
		case errors.Is(err, store.ErrNotFound):
			n++
		case err != nil:
			return n, fmt.Errorf("reconcile: look up %d: %w", id, err)
		}
	}
	return n, nil
}
