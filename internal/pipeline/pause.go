package pipeline

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/msgx-aodb/msgx/internal/limits"
	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/store"
)

// A dependency outage is not a message's fault (rule 14): while PostgreSQL
// or the mailbox cannot be reached the pump pauses. It counts no attempt and
// runs no head-deadline (one already running is moved past the pause), and tries again every probe interval, so it
// resumes within that interval of the dependency's return. Only the log
// backs off (logBackoff). The pause is shown where
// operators look: PauseState (readiness, metrics) and, when PostgreSQL can
// be written, the pump_state row (msgx status).

// publishTimeout bounds publishing the pause: PostgreSQL may be the
// dependency that is down.
const publishTimeout = time.Second

// dependencyDown says which dependency an error shows unreachable, if any.
func dependencyDown(err error) (dependency string, down bool) {
	switch {
	case err == nil:
		return "", false
	case errors.Is(err, mailbox.ErrUnavailable):
		return store.DependencyMailbox, true
	case errors.Is(err, store.ErrUnavailable):
		return store.DependencyPostgres, true
	}
	return "", false
}

// notTheMessages says an error is no failure of the message: a dependency
// that cannot be reached (rule 14) or a shutdown cutting the step.
func notTheMessages(ctx context.Context, err error) bool {
	_, down := dependencyDown(err)
	return down || ctx.Err() != nil
}

// pause is the outage one pump waits out.
type pause struct {
	store.Pause
	log logBackoff
}

// pauseOn starts or continues a pause on dep.
func (p *Pump) pauseOn(ctx context.Context, dep string, err error) {
	now := p.clock.Now()
	if p.paused == nil || p.paused.Dependency != dep {
		p.paused = &pause{Pause: store.Pause{Dependency: dep, Since: now}}
	}
	p.paused.Reason, p.paused.Now = limits.Reason.Cut(err.Error()), now
	p.cfg.Pause.set(&p.paused.Pause)
	log, held := p.paused.log.fail(now)
	if !log {
		return
	}
	if now.Equal(p.paused.Since) {
		p.log.Warn("pump paused: a dependency cannot be reached; no attempt is counted, probing it", "dependency", dep,
			"probe_every", p.cfg.Probe.String(), "err", err)
	} else {
		p.log.Warn("pump still paused", "dependency", dep, "for", now.Sub(p.paused.Since).Round(time.Second).String(),
			"probes_since_last_line", held, "err", err)
	}
	p.publish(ctx, func(ctx context.Context) error { return p.store.PublishPause(ctx, p.paused.Pause) })
}

// resume ends a pause after a step that reached every dependency it needed.
func (p *Pump) resume(ctx context.Context) {
	if p.paused == nil {
		return
	}
	now := p.clock.Now()
	lasted, _ := p.paused.log.ok(now)
	p.log.Info("pump resumed", "dependency", p.paused.Dependency, "paused_for", lasted.Round(time.Millisecond).String())
	// The outage ran no deadline: a head that was failing before it keeps
	// the time it had left.
	if _, err := p.store.ShiftDeadlines(ctx, p.paused.Since, now); err != nil {
		p.log.Warn("pump: the failing heads' deadlines were not moved past the pause", "err", err)
	}
	p.paused = nil
	p.cfg.Pause.set(nil)
	p.publishResume(ctx)
}

func (p *Pump) publishResume(ctx context.Context) {
	p.publish(ctx, func(ctx context.Context) error { return p.store.PublishResume(ctx, p.clock.Now()) })
}

// publish writes the pump's state for msgx status, best effort: during an
// outage of PostgreSQL itself it cannot, and the step is not held up.
func (p *Pump) publish(ctx context.Context, write func(context.Context) error) {
	ctx, cancel := context.WithTimeout(ctx, publishTimeout)
	defer cancel()
	if err := write(ctx); err != nil {
		p.log.Debug("pump state not published", "err", err)
	}
}

// PauseState is where a pump shows that it is paused, for readiness and
// metrics; one per instance, handed to every pump it runs. The zero value
// is a running pump. Safe for concurrent use.
type PauseState struct {
	mu  sync.Mutex
	cur *store.Pause
}

// Get returns the current pause; ok is false while the pump runs.
func (s *PauseState) Get() (p store.Pause, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur == nil {
		return store.Pause{}, false
	}
	return *s.cur, true
}

func (s *PauseState) set(p *store.Pause) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p == nil {
		s.cur = nil
		return
	}
	c := *p
	s.cur = &c
}
