package maintenance

import (
	"context"
	"time"
)

// Requests is the request expiry (docs/design.md §7): SENT requests past
// their deadline become EXPIRED, so a late RESP is SKIPPED. Expire is the
// request service's run (internal/aodbrequest: it first recovers an
// interrupted send, then expires in bounded batches); the dry run counts
// what is due.
type Requests struct {
	Base
	Every  time.Duration
	Expire func(ctx context.Context) (int, error)
}

// DefaultRequestsEvery is how often the leader expires requests.
const DefaultRequestsEvery = 30 * time.Second

func (r *Requests) Name() string { return "requests" }

// Doc is the job's line in `msgx maintenance --help`.
func (r *Requests) Doc() string {
	return "SENT requests past their deadline → EXPIRED (every 30 s)"
}

func (r *Requests) Schedule() Schedule { return Every(r.Every) }

func (r *Requests) Run(ctx context.Context, dry bool) (Result, error) {
	b := r.Base.withDefaults()
	if dry {
		due, err := b.Store.DueRequests(ctx, b.Clock.Now())
		return Result{Swept: due, What: "requests by deadline"}, err
	}
	n, err := r.Expire(ctx)
	res := Result{What: "requests"}
	res.Rows = n
	return res, err
}
