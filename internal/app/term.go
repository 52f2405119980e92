package app

import (
	"cmp"
	"context"
	"log/slog"

	"github.com/msgx-aodb/msgx/internal/aodbrequest"
	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/leader"
	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/maintenance"
	"github.com/msgx-aodb/msgx/internal/metrics"
	"github.com/msgx-aodb/msgx/internal/pipeline"
	"github.com/msgx-aodb/msgx/internal/relay"
	"github.com/msgx-aodb/msgx/internal/respmatch"
	"github.com/msgx-aodb/msgx/internal/service"
	"github.com/msgx-aodb/msgx/internal/store"
)

// leaderTerm is what the leader's services are built from: the instance's
// long-lived parts (bells, pause, request service) shared by every term.
type leaderTerm struct {
	cfg         config.Config
	st          store.Store
	mb          *mailbox.Mailbox
	out         *outbound // nil in shadow mode
	clk         clock.Clock
	log         *slog.Logger
	met         *metrics.Metrics
	bell, polls *pipeline.Bell
	pause       *pipeline.PauseState
	reqs        *aodbrequest.Service
	opt         Options
}

// services are one lead term's: poller, pump, backfill, the maintenance
// jobs, the request triggers and (unless in shadow mode) the Kafka relay.
// The elector runs them as one group until the term ends.
func (t leaderTerm) services() []service.Service {
	cfg, st, mb, clk, log, met := t.cfg, t.st, t.mb, t.clk, t.log, t.met
	// The poller reads each new row's size with its id; the pump's byte
	// budget takes it from there instead of reading the row again.
	sizes := pipeline.NewSizeHints()
	pollCfg := pollerConfig(cfg, t.bell, t.polls, met)
	pollCfg.Sizes = sizes
	poller := pipeline.NewPoller(st, mb, clk, log, pollCfg)
	pcfg := pumpConfig(cfg)
	pcfg.Bell = t.bell
	pcfg.Grace = t.opt.StepTimeout
	pcfg.Observer = met
	pcfg.Pause = t.pause

	// Maintenance jobs run beside the pump, on their own goroutines, and stop
	// with the lead term; the backfill sweep is started by the backfiller's
	// own loop, recorded as job `backfill`.
	jobs := &maintenance.Runner{Store: st, Clock: clk, Log: log,
		Observer: met, Stagger: cmp.Or(t.opt.MaintenanceStagger, maintenance.DefaultStagger)}
	var notify func(context.Context, []store.Backfill)
	var sweep func(context.Context) (int, int, error)
	var backfiller *pipeline.Backfiller
	if !cfg.Shadow {
		backfiller = pipeline.NewBackfiller(st, mb, clk, log, pipeline.BackfillConfig{Interval: cfg.BackfillInterval, Observer: met,
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
		dispatcher, aggregator := t.out.relays(cfg, st, clk, log, met)
		pcfg.Committed = dispatcher.Wake
		svcs = append(svcs, dispatcher, aggregator)
	}
	// Requests to the AODB: the guard the pump applies RESPs through and the
	// automatic triggers (no sends in shadow mode); their expiry is a
	// maintenance job (above).
	pcfg.Guard = aodbrequest.NewGuard(respmatch.Mode(cfg.Request.Guard), mb, cfg.Request.Timeout, pcfg.Decode)
	pump := pipeline.NewPump(st, sizes.Reader(mb), notify, clk, log, pcfg)
	return append(svcs, t.reqs.Triggers(), poller, pump, jobs)
}

// Every long-running loop has the one service shape.
var (
	_ service.Service = (*pipeline.Poller)(nil)
	_ service.Service = (*pipeline.Pump)(nil)
	_ service.Service = (*pipeline.Backfiller)(nil)
	_ service.Service = (*relay.Dispatcher)(nil)
	_ service.Service = (*relay.Aggregator)(nil)
	_ service.Service = (*aodbrequest.Triggers)(nil)
	_ service.Service = (*maintenance.Runner)(nil)
	_ service.Service = (*metrics.Sampler)(nil)
	_ service.Service = (*leader.Elector)(nil)
)
