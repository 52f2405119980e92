// Package readiness is /readyz's side of the operators' view: whether each
// dependency really answers now (Check, RunChecks) and which role this
// instance has (Mode), put together by Prober into a Readiness. It is apart
// from internal/status, the queue and outbox report, because the two answer
// different questions from different sources: status reads the database's
// state, readiness asks the dependencies whether they are reachable, and a
// load balancer's probe must not depend on the report.
package readiness

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/msgx-aodb/msgx/internal/leader"
)

// DefaultCheckTimeout bounds one readiness check when none is given.
const DefaultCheckTimeout = 2 * time.Second

// Readiness is the answer of /readyz: whether each dependency is really
// reachable, and which role this instance has.
type Readiness struct {
	Role   string        `json:"role"` // a leader.Role: leader, standby or starting
	Shadow bool          `json:"shadow"`
	Checks []CheckResult `json:"checks"`
}

// CheckResult is the outcome of one dependency check.
type CheckResult struct {
	Name  string `json:"name"`
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
}

// Ready reports whether the instance can take its role: every check passed
// and it is the leader or a standby (a standby is ready: it is healthy and
// waiting, which is what a load balancer in front of the read API wants).
func (r Readiness) Ready() bool {
	if r.Role != string(leader.Leader) && r.Role != string(leader.Standby) {
		return false
	}
	for _, c := range r.Checks {
		if !c.OK {
			return false
		}
	}
	return true
}

// Check is one named dependency check; Run returns nil when the dependency
// is reachable. Run should honour ctx, but RunChecks does not rely on it.
type Check struct {
	Name string
	Run  func(ctx context.Context) error
}

// RunChecks runs the checks concurrently, each bounded by timeout (0:
// DefaultCheckTimeout), and returns their results in the order given. A
// check that ignores its context is abandoned at the timeout (its goroutine
// finishes on its own) and reported as timed out; a panic is reported as an
// error.
func RunChecks(ctx context.Context, timeout time.Duration, checks ...Check) []CheckResult {
	if timeout <= 0 {
		timeout = DefaultCheckTimeout
	}
	results := make([]CheckResult, len(checks))
	var wg sync.WaitGroup
	for i, c := range checks {
		wg.Go(func() {
			results[i] = CheckResult{Name: c.Name}
			if err := runOne(ctx, timeout, c.Run); err != nil {
				results[i].Error = err.Error()
				return
			}
			results[i].OK = true
		})
	}
	wg.Wait()
	return results
}

func runOne(ctx context.Context, timeout time.Duration, run func(context.Context) error) error {
	if run == nil {
		return errors.New("no check configured")
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	done := make(chan error, 1) // buffered: an abandoned check does not block
	go func() {
		defer func() {
			if v := recover(); v != nil {
				done <- fmt.Errorf("check panicked: %v", v)
			}
		}()
		done <- run(ctx)
	}()
	select {
	case err := <-done:
		if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return fmt.Errorf("timed out after %s: %w", timeout, err)
		}
		return err
	case <-ctx.Done():
		return fmt.Errorf("timed out after %s", timeout)
	}
}

// Mode is the instance's current role and whether it runs in shadow mode.
type Mode func() (role string, shadow bool)

// Prober returns a readiness hook for api.Deps.Ready: it asks mode for the
// role and shadow flag and runs the checks (RunChecks). mode nil means
// leader.Starting.
func Prober(mode Mode, timeout time.Duration, checks ...Check) func(ctx context.Context) Readiness {
	return func(ctx context.Context) Readiness {
		r := Readiness{Role: string(leader.Starting)}
		if mode != nil {
			r.Role, r.Shadow = mode()
		}
		r.Checks = RunChecks(ctx, timeout, checks...)
		return r
	}
}
