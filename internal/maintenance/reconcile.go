package maintenance

import (
	"context"
	"time"
)

// Reconcile is the reconciliation pass (docs/design.md §1.1, rule 17): every
// unprocessed mailbox row up to the watermark that the queue does not hold is
// enqueued, however old. Pass is the poller's (ingress.Poller.Reconcile,
// through the app): it pages by id in bounded pages and reports how many
// rows it enqueued (dry: would enqueue) and a note.
type Reconcile struct {
	Every time.Duration
	Pass  func(ctx context.Context, dry bool) (enqueued int, note string, err error)
}

// DefaultReconcileEvery is pipeline.reconcile-interval's default.
const DefaultReconcileEvery = 5 * time.Minute

func (r *Reconcile) Name() string { return "reconcile" }

// Doc is the job's line in `msgx maintenance --help`.
func (r *Reconcile) Doc() string {
	return "unprocessed mailbox rows up to the watermark, at any age, that the queue does not hold → enqueued (late rows when a larger id finished; every pipeline.reconcile-interval; nothing in shadow mode)"
}

func (r *Reconcile) Schedule() Schedule { return Every(r.Every) }

func (r *Reconcile) Run(ctx context.Context, dry bool) (Result, error) {
	n, note, err := r.Pass(ctx, dry)
	res := Result{What: "mailbox rows", Note: note}
	res.Rows = n
	return res, err
}
