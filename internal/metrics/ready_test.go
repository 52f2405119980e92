package metrics_test

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/metrics"
	"github.com/msgx-aodb/msgx/internal/readiness"
)

// msgx_ready follows /readyz at every scrape, and msgx_ready_check names the
// check that failed.
func TestReadinessGauges(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	r := readiness.Readiness{Role: "standby", Checks: []readiness.CheckResult{{Name: "postgres", OK: true}, {Name: "kafka", OK: true}}}
	m := metrics.New(nil, nil, metrics.WithLogger(quiet))
	m.ExportReadiness(func(context.Context) readiness.Readiness {
		mu.Lock()
		defer mu.Unlock()
		return r
	})
	url := serve(t, m)
	values := func() (ready float64, checks map[string]float64) {
		fams := scrape(t, url)
		checks = map[string]float64{}
		for _, s := range fams["msgx_ready_check"].GetMetric() {
			checks[s.GetLabel()[0].GetValue()] = s.GetGauge().GetValue()
		}
		require.Len(t, fams["msgx_ready"].GetMetric(), 1, "msgx_ready is exported")
		return fams["msgx_ready"].GetMetric()[0].GetGauge().GetValue(), checks
	}
	ready, checks := values()
	require.Equal(t, 1.0, ready)
	require.Equal(t, map[string]float64{"postgres": 1, "kafka": 1}, checks)

	mu.Lock()
	r.Checks[1].OK = false
	mu.Unlock()
	ready, checks = values()
	require.Zero(t, ready)
	require.Equal(t, map[string]float64{"postgres": 1, "kafka": 0}, checks)

	mu.Lock()
	r = readiness.Readiness{Role: "starting"}
	mu.Unlock()
	ready, _ = values()
	require.Zero(t, ready, "no role yet: not ready")
}
