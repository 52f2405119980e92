package request_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store"
)

// At leader start, today (16:00 on 2 Dec, airport time) has no generation:
// its flights are requested. Then at 22:00 local the next day's are, and
// the daily request supersedes the first.
func TestTriggersOnStartAndDaily(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.cfg.OnStart, e.cfg.DailyAt = true, "22:00"
	svc := e.service(e.mb)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); svc.RunTriggers(ctx) }()
	t.Cleanup(func() { cancel(); <-done })

	waitFor(t, func() bool { return e.clk.Waiters() == 1 }) // on-start done, the daily wait armed
	open, err := e.st.OpenRequests(t.Context())
	require.NoError(t, err)
	require.Len(t, open, 1)
	from, to := day(t, "2026-12-02")
	require.True(t, open[0].RangeBegin.Equal(from) && open[0].RangeEnd.Equal(to), "today: %s–%s", open[0].RangeBegin, open[0].RangeEnd)

	e.clk.Advance(5*time.Hour + 59*time.Minute) // 21:59 local
	require.Equal(t, 1, e.clk.Waiters(), "not yet")
	e.clk.Advance(time.Minute)
	waitFor(t, func() bool {
		all, err := e.st.Requests(t.Context(), 1<<62, 10)
		return err == nil && len(all) == 2 && all[0].Status == store.RequestSent
	})
	open, err = e.st.OpenRequests(t.Context())
	require.NoError(t, err)
	from, to = day(t, "2026-12-03")
	require.True(t, open[0].RangeBegin.Equal(from) && open[0].RangeEnd.Equal(to), "the next day: %s", open[0].RangeBegin)
	require.True(t, open[0].RegisteredAt.Equal(time.Date(2026, 12, 2, 22, 0, 0, 0, shanghai)))
}

// A day that has its generation is not requested at start.
func TestOnStartSkipsADayWithAGeneration(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	require.NoError(t, e.st.AdvanceSnapshotGen(t.Context(), store.AdvanceGen{
		FDay: flight.LocalDay(start.In(shanghai)), ExpectedVersion: 0, MessageID: 1, ContentDigest: "x", Now: start}))
	require.NoError(t, e.service(e.mb).OnStart(t.Context()))
	open, err := e.st.OpenRequests(t.Context())
	require.NoError(t, err)
	require.Empty(t, open)
	require.Zero(t, e.outboundRows(t))
}

// waitFor polls a condition another goroutine makes true (bounded).
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	require.Eventually(t, cond, 10*time.Second, 5*time.Millisecond)
}
