package orastore

import (
	"testing"
	"time"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/maintenance"
)

// TestMaintenanceJobsOnOracle: the standard maintenance jobs, run by the
// runner as `msgx serve` and `msgx maintenance run` do on either dialect,
// reach their Oracle statements through this adapter and record each run
// in MAINTENANCE_RUN (nothing to sweep in the empty fake).
func TestMaintenanceJobsOnOracle(t *testing.T) {
	cfg := config.Defaults()
	cfg.Maintenance.HistoryEnabled = true
	clk := clock.NewFake(time.Date(2026, 12, 3, 3, 0, 0, 0, time.UTC))
	f, s := newFake(t)
	reg := maintenance.Standard(cfg, s, clk)
	r := &maintenance.Runner{Registry: reg, Store: s, Clock: clk}
	want := map[string]string{"history": "FlightListPurgeCandidates", "snaplog": "SchdSnapLogPurge",
		"archive": "ProcStateArchive", "outbox": "EventPurgeDelivered"}
	for _, j := range reg.Jobs() {
		f.calls = nil
		if _, err := r.RunOnce(ctx, j, false); err != nil {
			t.Fatalf("%s: %v", j.Name(), err)
		}
		if len(f.calls) < 2 || f.calls[0].SQL != mustQuery(want[j.Name()]).SQL {
			t.Fatalf("%s sent %v", j.Name(), f.calls)
		}
		if last := f.calls[len(f.calls)-1]; last.SQL != mustQuery("MaintenanceRunSave").SQL || last.Args["job"] != j.Name() || last.Args["last_error"] != nil {
			t.Errorf("%s recorded %q %v", j.Name(), last.SQL, last.Args)
		}
	}
	if len(reg.Jobs()) != len(want) {
		t.Errorf("jobs %v", reg.Names())
	}
}
