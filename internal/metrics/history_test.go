package metrics_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/metrics"
	"github.com/msgx-aodb/msgx/internal/status"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

func TestHistoryKeepsAnHourOfSamples(t *testing.T) {
	t.Parallel()
	m := metrics.New(nil, nil)
	at := t0
	for i := range metrics.HistorySamples + 10 {
		if i%2 == 0 {
			m.MessageFinished("FLIGHT_OPS", vocab.StatusSucceeded, "", time.Second)
		}
		m.Sample(at, &status.Report{Backlog: int64(i), Head: &status.Head{AgeSeconds: float64(i)}})
		at = at.Add(metrics.HistoryInterval)
	}
	m.MessageFinished("SCHEDULE", vocab.StatusSkipped, "", time.Second)
	m.Sample(at, nil)

	kept, current := m.History(at)
	require.Len(t, kept, metrics.HistorySamples, "bounded: the oldest go first")
	require.Equal(t, at, kept[len(kept)-1].At)
	require.False(t, kept[len(kept)-1].StatusOK, "a sample without the report says so")
	prev := kept[len(kept)-2]
	require.True(t, prev.StatusOK)
	require.Equal(t, int64(metrics.HistorySamples+9), prev.Backlog)
	require.Equal(t, float64(metrics.HistorySamples+9), prev.HeadAge)
	require.Equal(t, int64(67), current.Finished)
	require.Equal(t, int64(66), current.Outcomes[metrics.Outcome{Kind: "FLIGHT_OPS", Status: vocab.StatusSucceeded}])
	require.Equal(t, int64(1), current.Outcomes[metrics.Outcome{Kind: "SCHEDULE", Status: vocab.StatusSkipped}])
	require.Equal(t, time.Hour, kept[len(kept)-1].At.Sub(kept[0].At), "an hour, both ends included")

	var nilM *metrics.Metrics
	nilM.Sample(at, nil)
	none, _ := nilM.History(at)
	require.Empty(t, none, "metrics disabled: no history")
}

func TestRunHistorySamplesTheStatusReport(t *testing.T) {
	t.Parallel()
	st := pgstore.New(testdb.Postgres(t).Pool)
	clk := clock.NewFake(t0)
	m := metrics.New(nil, clk)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); _ = m.Sampler(st, clk, quiet).Run(ctx) }()

	waitFor := func(n int) {
		t.Helper()
		require.Eventually(t, func() bool { kept, _ := m.History(clk.Now()); return len(kept) == n && clk.Waiters() == 1 },
			10*time.Second, time.Millisecond)
	}
	waitFor(1) // the first at once
	clk.Advance(metrics.HistoryInterval)
	waitFor(2)
	kept, _ := m.History(clk.Now())
	require.Equal(t, t0.Add(metrics.HistoryInterval), kept[1].At)
	require.True(t, kept[1].StatusOK, "read from the store")
	cancel()
	<-done
}
