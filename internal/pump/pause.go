package pump

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/msgx-aodb/msgx/internal/backoff"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
	"github.com/msgx-aodb/msgx/internal/widths"
)

// A dependency outage is not a message's fault (rule 14): while PostgreSQL
// or the mailbox cannot be reached the pump pauses. It counts no attempt and
// runs no head-deadline (one already running is moved past the pause), and
// tries again every probe interval, so it resumes within that interval of the
// dependency's return. Only the log backs off (backoff.Log). The pause is shown
// where operators look: PauseState (readiness, metrics) and, when PostgreSQL
// can be written, the pump_state row (msgx status).
//
// Which failures are outages the dependency decides, not the error's class:
// after a failure that may be one, the pump probes the dependency (a trivial
// read, bounded by CheckTimeout). Only when the probe fails too is it an
// outage; when the probe answers, the failure is the message's own (a
// statement timeout, lock timeout or out-of-memory its statements caused)
// and counts, so it ends in DEAD(EXHAUSTED), never in an endless pause.

// publishTimeout bounds publishing the pause: PostgreSQL may be the
// dependency that is down.
const publishTimeout = time.Second

// dependencyDown says which dependency an error may show unreachable, if
// any: the candidates for a probe.
func dependencyDown(err error) (dependency string, down bool) {
	switch {
	case err == nil:
		return "", false
	case mailboxUnavailable(err):
		return vocab.DependencyMailbox, true
	case errors.Is(err, store.ErrUnavailable):
		return vocab.DependencyDatabase, true
	}
	return "", false
}

// mailboxUnavailable says whether err shows the mailbox unreachable: the
// RawReader's errors report it as mailbox.ErrUnavailable does, with an
// Unavailable method (the pump imports no mailbox driver).
func mailboxUnavailable(err error) bool {
	var u interface{ Unavailable() bool }
	return errors.As(err, &u) && u.Unavailable()
}

// outage is a failure whose dependency the probe found unreachable.
type outage struct {
	dependency string
	err        error
}

func (o *outage) Error() string { return o.err.Error() }
func (o *outage) Unwrap() error { return o.err }

// outageOf returns err as an outage when it is one: it names a dependency
// (dependencyDown) and a probe of that dependency fails too. An outage
// already found is not probed again.
func (p *Pump) outageOf(ctx context.Context, err error) *outage {
	var o *outage
	if errors.As(err, &o) {
		return o
	}
	dep, down := dependencyDown(err)
	if !down {
		return nil
	}
	if perr := p.probe(ctx, dep); perr == nil {
		p.log.Info("pump: the dependency answers its probe: the failure is no outage", "dependency", dep, "err", err)
		return nil
	}
	return &outage{dependency: dep, err: err}
}

// probe is the trivial read that tells whether dep answers: the queue head
// (PostgreSQL) or a mailbox row by id that does not exist.
func (p *Pump) probe(ctx context.Context, dep string) error {
	ctx, cancel := context.WithTimeout(ctx, p.cfg.CheckTimeout)
	defer cancel()
	var err error
	if dep == vocab.DependencyMailbox {
		_, err = p.raw.ReadRaws(ctx, []int64{0})
	} else {
		_, err = p.store.QueueHead(ctx, 1)
	}
	return err
}

// outageOrShutdown returns the error to hand up when a failure is none of
// the message's — an outage (rule 14; as such, so the step pauses without
// probing again) or a shutdown cutting the step — and nil when it is the
// message's own.
func (p *Pump) outageOrShutdown(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return err
	}
	if o := p.outageOf(ctx, err); o != nil {
		return o
	}
	return nil
}

// pause is the outage one pump waits out.
type pause struct {
	store.Pause
	log backoff.Log
}

// pauseOn starts or continues a pause on dep.
func (p *Pump) pauseOn(ctx context.Context, st *runState, dep string, err error) {
	now := p.clock.Now()
	if st.paused == nil || st.paused.Dependency != dep {
		st.paused = &pause{Pause: store.Pause{Dependency: dep, Since: now}}
	}
	ps := st.paused
	ps.Reason, ps.Now = widths.Reason.Cut(err.Error()), now
	p.cfg.Pause.set(&ps.Pause)
	p.dependencyUp(dep, false)
	log, held := ps.log.Fail(now)
	if !log {
		return
	}
	if now.Equal(ps.Since) {
		p.log.Warn("pump paused: a dependency cannot be reached; no attempt is counted, probing it", "dependency", dep,
			"probe_every", p.cfg.Probe.String(), "err", err)
	} else {
		p.log.Warn("pump still paused", "dependency", dep, "for", now.Sub(ps.Since).Round(time.Second).String(),
			"probes_since_last_line", held, "err", err)
	}
	p.publish(ctx, func(ctx context.Context) error { return p.store.PublishPause(ctx, ps.Pause) })
}

// resume ends a pause after a step that reached every dependency it needed.
func (p *Pump) resume(ctx context.Context, st *runState) {
	ps := st.paused
	if ps == nil {
		return
	}
	now := p.clock.Now()
	lasted, _ := ps.log.OK(now)
	p.log.Info("pump resumed", "dependency", ps.Dependency, "paused_for", lasted.Round(time.Millisecond).String())
	// The outage ran no deadline: a head that was failing before it keeps
	// the time it had left.
	if _, err := p.store.ShiftDeadlines(ctx, ps.Since, now); err != nil {
		p.log.Warn("pump: the failing heads' deadlines were not moved past the pause", "err", err)
	}
	p.dependencyUp(vocab.DependencyMailbox, true) // the step reached both
	p.dependencyUp(vocab.DependencyDatabase, true)
	st.paused = nil
	p.cfg.Pause.set(nil)
	p.publishResume(ctx)
}

// dependencyUp reports the pump's attempts on a dependency (rule 20), its
// own database under its name (StoreName).
func (p *Pump) dependencyUp(dep string, up bool) {
	o, ok := p.cfg.Observer.(DependencyObserver)
	if !ok {
		return
	}
	if dep == vocab.DependencyDatabase {
		dep = p.cfg.StoreName
	}
	o.DependencyUp(dep, up)
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
// metrics; one per instance, handed to the pump of every lead term, which
// clears it when it starts and when it stops (a term that ends while paused
// leaves no pause behind). The zero value is a running pump. Safe for
// concurrent use.
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
