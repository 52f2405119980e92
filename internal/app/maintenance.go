package app

import (
	"context"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/maintenance"
	"github.com/msgx-aodb/msgx/internal/store"
)

// MaintenanceJobs is the registry of the leader's maintenance jobs, the one
// `msgx serve` runs and `msgx maintenance run` picks from: the standard
// jobs, the request expiry, whose run is expire (the request service's
// Expiry().RunOnce), and the backfill sweep, whose run is sweep (a
// Backfiller's Sweep; none in shadow mode, which never writes the mailbox).
func MaintenanceJobs(cfg config.Config, st store.Store, clk clock.Clock, expire func(context.Context) (int, error),
	sweep func(context.Context) (int, int, error)) *maintenance.Registry {
	reg := maintenance.Standard(cfg, st, clk)
	reg.Register(&maintenance.Requests{Base: maintenance.Base{Store: st, Clock: clk},
		Every: maintenance.DefaultRequestsEvery, Expire: expire})
	if !cfg.Shadow {
		reg.Register(&maintenance.Backfill{Base: maintenance.Base{Store: st, Clock: clk}, Every: cfg.BackfillInterval, Sweep: sweep})
	}
	return reg
}
