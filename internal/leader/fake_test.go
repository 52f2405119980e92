package leader_test

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/leader"
)

var errSessionGone = errors.New("fake: session ended by the server")

// fakeLock is one database lock for fake sessions on the fake clock: like
// PostgreSQL's session advisory lock, it goes with the session that holds
// it, and a waiting session gets it the moment it is released.
type fakeLock struct {
	clk *clock.Fake

	mu     sync.Mutex
	holder *fakeSession
	freed  chan struct{} // closed (and replaced) on every release
	// onRelease runs, under mu, as a holder lets the lock go.
	onRelease func(*fakeSession)
}

func newFakeLock(clk *clock.Fake) *fakeLock {
	return &fakeLock{clk: clk, freed: make(chan struct{})}
}

// dialer returns a Dial whose sessions are sent on opened as they open.
func (l *fakeLock) dialer(owner string, opened chan<- *fakeSession) func(context.Context, string) (leader.LockSession, error) {
	return func(context.Context, string) (leader.LockSession, error) {
		s := &fakeSession{l: l, owner: owner, gone: make(chan struct{}), waiting: make(chan time.Duration, 16)}
		if opened != nil {
			opened <- s
		}
		return s, nil
	}
}

func (l *fakeLock) release(s *fakeSession) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.holder != s {
		return
	}
	if l.onRelease != nil {
		l.onRelease(s)
	}
	l.holder = nil
	close(l.freed)
	l.freed = make(chan struct{})
}

func (l *fakeLock) held() *fakeSession {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.holder
}

type fakeSession struct {
	l       *fakeLock
	owner   string
	gone    chan struct{}      // closed when the server ends the session
	waiting chan time.Duration // each wait of Lock, as it begins
	endOnce sync.Once
}

func (s *fakeSession) Lock(ctx context.Context, wait time.Duration) (bool, error) {
	var timeout <-chan time.Time
	if wait > 0 {
		timeout = s.l.clk.After(wait)
	}
	for {
		s.l.mu.Lock()
		select {
		case <-s.gone:
			s.l.mu.Unlock()
			return false, errSessionGone
		default:
		}
		if s.l.holder == nil || s.l.holder == s {
			s.l.holder = s
			s.l.mu.Unlock()
			return true, nil
		}
		freed := s.l.freed
		s.l.mu.Unlock()
		if wait <= 0 {
			return false, nil
		}
		select {
		case s.waiting <- wait:
		default:
		}
		select {
		case <-freed:
		case <-timeout:
			return false, nil
		case <-ctx.Done():
			return false, ctx.Err()
		case <-s.gone:
			return false, errSessionGone
		}
	}
}

func (s *fakeSession) Ping(context.Context) error {
	select {
	case <-s.gone:
		return errSessionGone
	default:
		return nil
	}
}

func (s *fakeSession) Close(context.Context) error {
	s.l.release(s)
	return nil
}

// end is the server ending the session (a killed leader's socket closed,
// pg_terminate_backend): the lock goes at once; the client learns of it at
// its next statement.
func (s *fakeSession) end() {
	s.endOnce.Do(func() { close(s.gone) })
	s.l.release(s)
}
