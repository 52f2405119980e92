package leader_test

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/leader"
	"github.com/msgx-aodb/msgx/internal/service"
)

// The election on fake sessions and the fake clock: what happens at once
// happens without the clock moving.

const interval = time.Minute // the fake clock's retry interval

// fakeInstance is one elector on a fakeLock, with a worker that holds its
// term open until hold is closed once its context has ended.
type fakeInstance struct {
	e        *leader.Elector
	cancel   context.CancelFunc
	done     chan struct{}
	roles    chan leader.Role
	sessions chan *fakeSession
	stopping chan struct{} // a term's work saw its context end
	hold     chan struct{} // closed: the work returns once stopping

	mu      sync.Mutex
	working int
}

func startFake(t *testing.T, l *fakeLock, owner string, hold bool) *fakeInstance {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	in := &fakeInstance{cancel: cancel, done: make(chan struct{}), roles: make(chan leader.Role, 16),
		sessions: make(chan *fakeSession, 16), stopping: make(chan struct{}, 16), hold: make(chan struct{})}
	if !hold {
		close(in.hold)
	}
	work := service.Func("work", func(ctx context.Context) error {
		in.mu.Lock()
		in.working++
		in.mu.Unlock()
		<-ctx.Done()
		in.stopping <- struct{}{}
		<-in.hold
		in.mu.Lock()
		in.working--
		in.mu.Unlock()
		return nil
	})
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	in.e = leader.New(leader.Config{LockID: 1, Retry: interval, Dial: l.dialer(owner, in.sessions),
		Term: func() []service.Service { return []service.Service{work} }}, l.clk, log)
	in.e.OnChange(func(r leader.Role) { in.roles <- r })
	go func() {
		defer close(in.done)
		_ = in.e.Run(ctx)
	}()
	t.Cleanup(func() {
		in.cancel()
		select {
		case <-in.hold:
		default:
			close(in.hold)
		}
		<-in.done
	})
	return in
}

func (in *fakeInstance) await(t *testing.T, want leader.Role) {
	t.Helper()
	for {
		select {
		case r := <-in.roles:
			if r == want {
				return
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("role %s never came (now %s)", want, in.e.Role())
		}
	}
}

func (in *fakeInstance) workers() int {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.working
}

func recv[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
		panic("unreachable")
	}
}

// The standby knows its role at once (the first attempt does not wait),
// then waits on the lock: a wait that ends without it is followed by the
// next at once, and the lock is taken the moment the leader's session ends,
// with no clock tick. The old leader learns of its lost session at its next
// ping and stops its work.
func TestStandbyTakesOverTheMomentTheLeadersSessionEnds(t *testing.T) {
	clk := clock.NewFake(time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC))
	l := newFakeLock(clk)
	a := startFake(t, l, "a", false)
	a.await(t, leader.Leader)
	as := recv(t, a.sessions, "a's session")
	b := startFake(t, l, "b", false)
	b.await(t, leader.Standby)
	bs := recv(t, b.sessions, "b's session")
	require.Equal(t, interval, recv(t, bs.waiting, "b waits on the lock"))

	// a pings and b's wait runs out on the same tick: b waits again at once.
	require.Eventually(t, func() bool { return clk.Waiters() >= 2 }, 10*time.Second, time.Millisecond, "a's ping and b's wait on the clock")
	clk.Advance(interval)
	require.Equal(t, interval, recv(t, bs.waiting, "b waits again"))
	require.Equal(t, leader.Leader, a.e.Role())

	// The server ends a's session: b leads before the clock moves.
	at := clk.Now()
	as.end()
	b.await(t, leader.Leader)
	require.Equal(t, at, clk.Now())
	require.Same(t, bs, l.held())
	require.Eventually(t, func() bool { return b.workers() == 1 }, 10*time.Second, time.Millisecond, "b works")

	// a's next ping fails: it steps down and its work stops.
	require.Eventually(t, func() bool { return clk.Waiters() >= 3 }, 10*time.Second, time.Millisecond, "a's and b's pings on the clock")
	clk.Advance(interval)
	a.await(t, leader.Standby)
	require.Zero(t, a.workers())
	require.Equal(t, 1, b.workers())
	require.Same(t, bs, l.held())
}

// A leader that shuts down lets the lock go only after its work returned:
// the standby, waiting on the lock all along, gets it then and not before.
func TestShutdownHandsOverOnlyAfterTheWorkReturned(t *testing.T) {
	clk := clock.NewFake(time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC))
	l := newFakeLock(clk)
	var atRelease []int // the releasing owner's running workers
	a := startFake(t, l, "a", true)
	l.mu.Lock()
	l.onRelease = func(s *fakeSession) {
		if s.owner == "a" {
			atRelease = append(atRelease, a.workers())
		}
	}
	l.mu.Unlock()
	a.await(t, leader.Leader)
	as := recv(t, a.sessions, "a's session")
	b := startFake(t, l, "b", false)
	b.await(t, leader.Standby)
	bs := recv(t, b.sessions, "b's session")
	recv(t, bs.waiting, "b waits on the lock")

	a.cancel()
	recv(t, a.stopping, "a's work winds down")
	require.Same(t, as, l.held(), "the lock stays while the work winds down")
	require.Equal(t, leader.Standby, b.e.Role())
	close(a.hold)
	b.await(t, leader.Leader)
	<-a.done
	require.Equal(t, leader.Stopped, a.e.Role())
	l.mu.Lock()
	defer l.mu.Unlock()
	require.Equal(t, []int{0}, atRelease, "a's work had returned when its lock went")
}

// Shutdown ends a standby's wait on the lock at once: no clock tick, no
// hang, the session closed.
func TestShutdownInterruptsAWaitingStandby(t *testing.T) {
	clk := clock.NewFake(time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC))
	l := newFakeLock(clk)
	a := startFake(t, l, "a", false)
	a.await(t, leader.Leader)
	b := startFake(t, l, "b", false)
	b.await(t, leader.Standby)
	bs := recv(t, b.sessions, "b's session")
	recv(t, bs.waiting, "b waits on the lock")

	at := clk.Now()
	b.cancel()
	recv(t, b.done, "b's Run returns")
	require.Equal(t, leader.Stopped, b.e.Role())
	require.Equal(t, at, clk.Now())
	require.Equal(t, leader.Leader, a.e.Role())
	require.Zero(t, b.workers())
}
