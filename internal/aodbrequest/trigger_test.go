package aodbrequest_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// At leader start, today (16:00 on 2 Dec, airport time) has no generation:
// its flights are requested. Then at 22:00 local the next day's are, and
// the daily request supersedes the first.
func TestTriggersOnStartAndDaily(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.cfg.OnStart, e.cfg.DailyAt = true, "22:00"
	svc := e.service(e.Mailbox)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); _ = svc.Triggers().Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })

	waitFor(t, func() bool { return e.Clock.Waiters() == 1 }) // on-start done, the daily wait armed
	open, err := e.Store.OpenRequests(t.Context())
	require.NoError(t, err)
	require.Len(t, open, 1)
	from, to := day(t, "2026-12-02")
	require.True(t, open[0].RangeBegin.Equal(from) && open[0].RangeEnd.Equal(to), "today: %s–%s", open[0].RangeBegin, open[0].RangeEnd)

	e.Clock.Advance(5*time.Hour + 59*time.Minute) // 21:59 local
	require.Equal(t, 1, e.Clock.Waiters(), "not yet")
	e.Clock.Advance(time.Minute)
	waitFor(t, func() bool {
		all, err := e.Store.Requests(t.Context(), 1<<62, 10)
		return err == nil && len(all) == 2 && all[0].Status == vocab.RequestSent
	})
	open, err = e.Store.OpenRequests(t.Context())
	require.NoError(t, err)
	from, to = day(t, "2026-12-03")
	require.True(t, open[0].RangeBegin.Equal(from) && open[0].RangeEnd.Equal(to), "the next day: %s", open[0].RangeBegin)
	require.True(t, open[0].RegisteredAt.Equal(time.Date(2026, 12, 2, 22, 0, 0, 0, shanghai)))
}

// A day that has its generation is not requested at start.
func TestOnStartSkipsADayWithAGeneration(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	require.NoError(t, e.Store.AdvanceSnapshotGen(t.Context(), vocab.AdvanceSnapshotGenParams{
		FDay: flight.LocalDay(start.In(shanghai)), ExpectedVersion: 0, MessageID: 1, ContentDigest: "x", Now: start}))
	require.NoError(t, e.service(e.Mailbox).OnStart(t.Context()))
	open, err := e.Store.OpenRequests(t.Context())
	require.NoError(t, err)
	require.Empty(t, open)
	require.Zero(t, e.outboundRows(t))
}

// waitFor polls a condition another goroutine makes true (bounded).
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	require.Eventually(t, cond, 10*time.Second, 5*time.Millisecond)
}

// requestsOf lists every request, oldest first.
func (e *env) requestsOf(t *testing.T) []vocab.Request {
	t.Helper()
	all, err := e.Store.Requests(t.Context(), 1<<62, 100)
	require.NoError(t, err)
	slices.Reverse(all)
	return all
}

// The reproduction: every leader (re)start wrote a new RQFD for a
// day without a generation (33 in 32 restarts). Now a start registers
// nothing while the first request waits for its answer or was answered
// within request.timeout; once it timed out unanswered, the next start asks
// again.
func TestOnStartRegistersOneRequestAcrossRestarts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for range 5 { // five leader starts, a minute apart, each with its own service
		require.NoError(t, e.service(e.Mailbox).OnStart(t.Context()))
		e.Clock.Advance(time.Minute)
	}
	all := e.requestsOf(t)
	require.Len(t, all, 1)
	require.Equal(t, 1, e.outboundRows(t), "one RQFD in coutmsgs")
	require.Equal(t, vocab.OriginOnStart, all[0].Origin)
	require.Equal(t, vocab.RequestSent, all[0].Status)

	// Answered at 16:06: a start within request.timeout of the answer asks nothing.
	e.Clock.Advance(time.Minute)
	require.NoError(t, e.Store.MarkRequestDone(t.Context(), vocab.MarkRequestDoneParams{ID: all[0].ID, MsgID: 99, MatchRule: "degraded", Now: e.Clock.Now()}))
	e.Clock.Advance(9 * time.Minute)
	require.NoError(t, e.service(e.Mailbox).OnStart(t.Context()))
	require.Len(t, e.requestsOf(t), 1)

	// Past it (and the day still without a generation) the next start asks again.
	e.Clock.Advance(time.Minute)
	require.NoError(t, e.service(e.Mailbox).OnStart(t.Context()))
	all = e.requestsOf(t)
	require.Len(t, all, 2)
	require.Equal(t, vocab.RequestDone, all[0].Status)
	require.Equal(t, vocab.RequestSent, all[1].Status)

	// An unanswered request past its expires_at no longer holds the trigger,
	// even before the expiry job ran: it is expired as the job would.
	e.Clock.Advance(10 * time.Minute)
	require.NoError(t, e.service(e.Mailbox).OnStart(t.Context()))
	all = e.requestsOf(t)
	require.Len(t, all, 3)
	require.Equal(t, vocab.RequestExpired, all[1].Status)
	require.Equal(t, "timed out: no answer by expires_at", all[1].Note)
	require.Equal(t, 3, e.outboundRows(t))
}

// An operator's open request is superseded by neither automatic trigger:
// the leader's start and the daily run register nothing while it waits.
func TestAutomaticTriggersNeverSupersedeAnOperatorsRequest(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	from, to := day(t, "2026-12-05")
	op, err := e.service(e.Mailbox).Flights(t.Context(), from, to)
	require.NoError(t, err)
	require.Equal(t, vocab.OriginOperator, op.Origin)

	e.cfg.OnStart, e.cfg.DailyAt = true, "16:05"
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); _ = e.service(e.Mailbox).Triggers().Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	waitFor(t, func() bool { return e.Clock.Waiters() == 1 }) // on-start done, the daily wait armed
	e.Clock.Advance(5 * time.Minute)                          // 16:05: the daily run, the operator's request still waits
	waitFor(t, func() bool { return e.Clock.Waiters() == 1 }) // the daily run done, the next armed

	all := e.requestsOf(t)
	require.Len(t, all, 1, "neither trigger registered a request")
	require.Equal(t, op.ID, all[0].ID)
	require.Equal(t, vocab.RequestSent, all[0].Status, "the operator's request is not superseded")
	require.Equal(t, 1, e.outboundRows(t))

	// An operator's request supersedes an automatic one, as before.
	from, to = day(t, "2026-12-06")
	again, err := e.service(e.Mailbox).Flights(t.Context(), from, to)
	require.NoError(t, err)
	require.Equal(t, vocab.RequestExpired, e.get(t, op.ID).Status)
	require.Equal(t, vocab.RequestSent, again.Status)
}
