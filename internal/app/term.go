package app

import (
	"cmp"
	"context"
	"log/slog"

	"github.com/msgx-aodb/msgx/internal/aodbrequest"
	"github.com/msgx-aodb/msgx/internal/backfill"
	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/ingress"
	"github.com/msgx-aodb/msgx/internal/leader"
	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/maintenance"
	"github.com/msgx-aodb/msgx/internal/metrics"
	"github.com/msgx-aodb/msgx/internal/pump"
	"github.com/msgx-aodb/msgx/internal/relay"
	"github.com/msgx-aodb/msgx/internal/respmatch"
	"github.com/msgx-aodb/msgx/internal/service"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
	"github.com/msgx-aodb/msgx/internal/wake"
)

// leaderTerm is what the leader's services are built from: the instance's
// long-lived parts (wake signals, pause, request service) shared by every term.
type leaderTerm struct {
	cfg config.Config
	st  store.Store
	mb  *mailbox.Mailbox
	out *outbound // nil in shadow mode
	clk clock.Clock
	log *slog.Logger
	met *metrics.Metrics
	// enqueued wakes the pump after a poll enqueued; inserted the poller
	// after a send inserted a row (internal/wake).
	enqueued, inserted *wake.Signal
	pause              *pump.PauseState
	reqs               *aodbrequest.Service
	opt                Options
}

// services are one lead term's: poller, pump, backfill, the maintenance
// jobs, the request triggers and (unless in shadow mode) the Kafka relay.
// The elector runs them as one group until the term ends.
func (t leaderTerm) services() []service.Service {
	cfg, st, mb, clk, log, met := t.cfg, t.st, t.mb, t.clk, t.log, t.met
	// The poller reads each new row's size with its id; the pump's byte
	// budget takes it from there instead of reading the row again.
	sizes := ingress.NewSizeHints()
	pollCfg := pollerConfig(cfg, t.enqueued, t.inserted, met)
	pollCfg.Sizes = sizes
	poller := ingress.NewPoller(st, mb, clk, log, pollCfg)
	pcfg := pumpConfig(cfg)
	pcfg.Enqueued = t.enqueued
	pcfg.Grace = t.opt.StepTimeout
	pcfg.Observer = met
	pcfg.Pause = t.pause

	// Maintenance jobs run beside the pump, on their own goroutines, and stop
	// with the lead term; the backfill sweep is started by the backfiller's
	// own loop, recorded as job `backfill`.
	jobs := &maintenance.Runner{Store: st, Clock: clk, Log: log,
		Observer: met, Stagger: cmp.Or(t.opt.MaintenanceStagger, maintenance.DefaultStagger)}
	var notify func(context.Context, []vocab.Backfill)
	var sweep func(context.Context) (int, int, error)
	var backfiller *backfill.Backfiller
	if !cfg.Shadow {
		backfiller = backfill.New(st, mb, clk, log, backfill.Config{Interval: cfg.BackfillInterval, Observer: met,
			RunSweep: func(ctx context.Context) {
				if j, err := jobs.Registry.Job("backfill"); err == nil {
					_, _ = jobs.RunOnce(ctx, j, false)
				}
			}})
		notify, sweep = backfiller.Notify, backfiller.Sweep
	}
	jobs.Registry = MaintenanceJobs(MaintenanceParams{Config: cfg, Store: st, Clock: clk,
		Expire: t.reqs.Expiry().RunOnce, Reconcile: poller, Backfill: sweep})
	var svcs []service.Service
	if backfiller != nil {
		svcs = append(svcs, backfiller)
	}
	if t.out != nil {
		// Every commit wakes the KAFKA:msg dispatcher of this term.
		pcfg.Committed = wake.New()
		dispatcher, aggregator := t.out.relays(cfg, st, clk, log, met, pcfg.Committed)
		svcs = append(svcs, dispatcher, aggregator)
	}
	// Requests to the AODB: the guard the pump applies RESPs through and the
	// automatic triggers (no sends in shadow mode); their expiry is a
	// maintenance job (above).
	pcfg.Guard = aodbrequest.NewGuard(respmatch.Mode(cfg.Request.Guard), mb, cfg.Request.Timeout, pcfg.Decode)
	pump := pump.New(st, sizes.Reader(mb), notify, clk, log, pcfg)
	return append(svcs, t.reqs.Triggers(), poller, pump, jobs)
}

// Every long-running loop has the one service shape.
var (
	_ service.Service = (*ingress.Poller)(nil)
	_ service.Service = (*pump.Pump)(nil)
	_ service.Service = (*backfill.Backfiller)(nil)
	_ service.Service = (*relay.Dispatcher)(nil)
	_ service.Service = (*relay.Aggregator)(nil)
	_ service.Service = (*aodbrequest.Triggers)(nil)
	_ service.Service = (*maintenance.Runner)(nil)
	_ service.Service = (*metrics.Sampler)(nil)
	_ service.Service = (*leader.Elector)(nil)
)
