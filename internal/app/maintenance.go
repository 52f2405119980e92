package app

import (
	"cmp"
	"context"
	"fmt"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/maintenance"
	"github.com/msgx-aodb/msgx/internal/pipeline"
	"github.com/msgx-aodb/msgx/internal/store"
)

// MaintenanceJobs is the registry of the leader's maintenance jobs, the one
// `msgx serve` runs and `msgx maintenance run` picks from: the standard
// jobs and the request expiry, whose run is expire (the request service's
// Expiry().RunOnce), and more (the reconciliation pass: ReconcileJob; the
// backfill sweep: BackfillJob). A nil job is none.
func MaintenanceJobs(cfg config.Config, st store.Store, clk clock.Clock, expire func(context.Context) (int, error), more ...maintenance.Job) *maintenance.Registry {
	reg := maintenance.Standard(cfg, st, clk)
	reg.Register(&maintenance.Requests{Base: maintenance.Base{Store: st, Clock: clk},
		Every: maintenance.DefaultRequestsEvery, Expire: expire})
	for _, j := range more {
		if j != nil {
			reg.Register(j)
		}
	}
	return reg
}

// ReconcileJob is the reconciliation pass (rule 17) of a poller, every
// pipeline.reconcile-interval; p may be nil when only the job's name is needed.
func ReconcileJob(cfg config.Config, p *pipeline.Poller) maintenance.Job {
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

// BackfillJob is the backfill sweep whose run is sweep (a Backfiller's
// Sweep; nil when only the job's name is needed); none in shadow mode,
// which never writes the mailbox.
func BackfillJob(cfg config.Config, st store.Store, clk clock.Clock, sweep func(context.Context) (int, int, error)) maintenance.Job {
	if cfg.Shadow {
		return nil
	}
	return &maintenance.Backfill{Base: maintenance.Base{Store: st, Clock: clk}, Every: cfg.BackfillInterval, Sweep: sweep}
}
