package app

import (
	"cmp"
	"context"
	"fmt"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/ingress"
	"github.com/msgx-aodb/msgx/internal/maintenance"
	"github.com/msgx-aodb/msgx/internal/store"
)

// MaintenanceParams are the parts of the leader's maintenance jobs. Every
// job is registered whatever is nil, so a registry built only for the jobs'
// names, schedules and docs (msgx maintenance's help and name check) lists
// the same jobs as the leader's; a job whose part is nil must not be run.
type MaintenanceParams struct {
	Config config.Config
	Store  store.Store // nil: names only
	Clock  clock.Clock
	// Expire runs the request expiry (the request service's
	// Expiry().RunOnce); nil: names only.
	Expire func(context.Context) (int, error)
	// Reconcile is the poller whose reconciliation pass (rule 17) runs every
	// pipeline.reconcile-interval; nil: names only.
	Reconcile *ingress.Poller
	// Backfill is the backfill sweep (a Backfiller's Sweep); nil: names
	// only. In shadow mode, which never writes the mailbox, there is no
	// backfill job and Backfill is not used.
	Backfill func(context.Context) (done, failed int, err error)
}

// MaintenanceJobs is the registry of the leader's maintenance jobs, the one
// `msgx serve` runs and `msgx maintenance run` picks from: the standard jobs,
// the request expiry, the reconciliation pass and (unless in shadow mode) the
// backfill sweep.
func MaintenanceJobs(p MaintenanceParams) *maintenance.Registry {
	reg := maintenance.Standard(p.Config, p.Store, p.Clock)
	reg.Register(&maintenance.Requests{Base: maintenance.Base{Store: p.Store, Clock: p.Clock},
		Every: maintenance.DefaultRequestsEvery, Expire: p.Expire})
	reg.Register(reconcileJob(p.Config, p.Reconcile))
	if !p.Config.Shadow {
		reg.Register(&maintenance.Backfill{Base: maintenance.Base{Store: p.Store, Clock: p.Clock},
			Every: p.Config.BackfillInterval, Sweep: p.Backfill})
	}
	return reg
}

// reconcileJob is the reconciliation pass of a poller, every
// pipeline.reconcile-interval.
func reconcileJob(cfg config.Config, p *ingress.Poller) maintenance.Job {
	return &maintenance.Reconcile{Every: cmp.Or(cfg.ReconcileInterval, maintenance.DefaultReconcileEvery),
		Pass: func(ctx context.Context, dry bool) (int, string, error) {
			r, err := p.Reconcile(ctx, dry)
			note := r.Note
			if note == "" {
				note = fmt.Sprintf("%d unprocessed rows up to the watermark, %d late", r.Scanned, r.Late)
			}
			return r.Enqueued, note, err
		}}
}
