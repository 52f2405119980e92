package api

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/metrics"
)

// The chart labels its axes (the last hour, throughput and head age from 0 to
// their maximum) and says it is collecting until it has a few samples.
func TestChartAxesAndCollecting(t *testing.T) {
	now := time.Date(2026, 12, 3, 2, 0, 0, 0, time.UTC)
	samples := func(n int) []metrics.Sample {
		var out []metrics.Sample
		for i := range n {
			out = append(out, metrics.Sample{At: now.Add(time.Duration(i-n+1) * 30 * time.Second),
				Finished: int64(i * 60), HeadAge: float64(i * 5), StatusOK: true})
		}
		return out
	}
	early := newChart(samples(1), now)
	svg := string(early.SVG)
	require.True(t, early.Collecting)
	require.Contains(t, svg, ">collecting (one sample per 30 s)<")
	for _, want := range []string{">−60 min<", ">−45 min<", ">−30 min<", ">−15 min<", ">now<", ">0.0/min<", ">0<", ">0s<"} {
		require.Contains(t, svg, want)
	}

	later := newChart(samples(5), now)
	svg = string(later.SVG)
	require.False(t, later.Collecting)
	require.NotContains(t, svg, "collecting")
	require.Contains(t, svg, ">120.0/min<", "the throughput axis's maximum")
	require.Contains(t, svg, ">20s<", "the head-age axis's maximum")
	require.Contains(t, svg, "<polyline")
}
