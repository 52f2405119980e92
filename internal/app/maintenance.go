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
// jobs and the request expiry, whose run is expire (the request service's
// Expiry().RunOnce).
func MaintenanceJobs(cfg config.Config, st store.Store, clk clock.Clock, expire func(context.Context) (int, error)) *maintenance.Registry {
	reg := maintenance.Standard(cfg, st, clk)
	reg.Register(&maintenance.Requests{Base: maintenance.Base{Store: st, Clock: clk},
		Every: maintenance.DefaultRequestsEvery, Expire: expire})
	return reg
}
