package app

import (
	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/maintenance"
	"github.com/msgx-aodb/msgx/internal/store"
)

// MaintenanceJobs is the registry of the leader's maintenance jobs, the one
// `msgx serve` runs and `msgx maintenance run` picks from. Jobs of other
// packages are registered here.
func MaintenanceJobs(cfg config.Config, st store.Store, clk clock.Clock) *maintenance.Registry {
	return maintenance.Standard(cfg, st, clk)
}
