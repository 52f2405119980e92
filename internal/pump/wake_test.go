package pump

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/ingress"
	"github.com/msgx-aodb/msgx/internal/vocab"
	"github.com/msgx-aodb/msgx/internal/wake"
)

// waitSignalClock is the fake clock telling the test each time the pump
// starts a wait, so the test acts only once the pump is idle.
type waitSignalClock struct {
	*clock.Fake
	waiting chan time.Duration
}

func (c waitSignalClock) After(d time.Duration) <-chan time.Time {
	ch := c.Fake.After(d)
	c.waiting <- d
	return ch
}

// A row the AODB writes while the pump is idle is processed as soon as the
// poller enqueues it: the poll rings Enqueued and the pump does not sit out
// its idle interval (the fake clock never moves, so without the signal the pump
// would wait an hour).
func TestIdlePumpWakesWhenThePollerEnqueues(t *testing.T) {
	e := newEnv(t)
	enqueued, committed := wake.New(), wake.New()
	clk := waitSignalClock{Fake: e.Clock, waiting: make(chan time.Duration, 10)}
	cfg := e.pump.cfg
	cfg.Idle, cfg.Enqueued, cfg.Committed = time.Hour, enqueued, committed
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	pump := New(e.Store, e.Mailbox, nil, clk, quiet, cfg)
	poller := ingress.NewPoller(e.Store, e.Mailbox, e.Clock, quiet, ingress.Config{Enqueued: enqueued})

	ctx, cancel := context.WithCancel(t.Context())
	stopped := make(chan struct{})
	go func() { defer close(stopped); _ = pump.Run(ctx) }()
	defer func() { cancel(); <-stopped }()
	require.Equal(t, time.Hour, <-clk.waiting, "the pump idles on an empty queue")

	id, err := e.Mailbox.Insert(t.Context(), []byte(flop("STND", 1, "<STND>101</STND>")), e.Clock.Now())
	require.NoError(t, err)
	n, err := poller.PollOnce(t.Context())
	require.NoError(t, err)
	require.Equal(t, 1, n)
	select {
	case <-committed.C():
	case <-time.After(10 * time.Second): // a deadline for a failing test, not an ordering
		t.Fatal("the idle pump did not wake when the poller enqueued")
	}
	require.Equal(t, vocab.StatusSkipped, e.msg(t, id).Status, "processed (no such flight)")
	require.Equal(t, time.Hour, <-clk.waiting, "idle again")

	// A poll that enqueues nothing does not ring.
	n, err = poller.PollOnce(t.Context())
	require.NoError(t, err)
	require.Zero(t, n)
	select {
	case <-enqueued.C():
		t.Fatal("a poll that enqueued nothing rang Enqueued")
	default:
	}
}
