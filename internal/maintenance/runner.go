package maintenance

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/widths"
)

// Observer is what the runner reports per run (internal/metrics).
type Observer interface {
	JobRun(job string, rows int, took time.Duration, err error)
}

// RunLog is the slice of the store the runner uses: the jobs' runs
// (MAINTENANCE_RUN), read for the schedule and written after each run.
// Every store.Store is one; the jobs take theirs in Base.
type RunLog interface {
	JobRuns(ctx context.Context) ([]store.JobRun, error)
	SaveJobRun(ctx context.Context, run store.JobRun) error
}

var _ RunLog = store.Store(nil)

// Runner runs the jobs of a registry on their schedules while ctx lives:
// the leader's lead context, so they stop when it loses the lock.
type Runner struct {
	Registry *Registry
	Store    RunLog
	Clock    clock.Clock
	Log      *slog.Logger
	Observer Observer // nil: none
	// Stagger spreads the first checks of the jobs over [0, Stagger), so
	// they do not all start with the lead term.
	Stagger time.Duration
	// RetryAfter is the wait after a failed run before the next try.
	RetryAfter time.Duration
}

// Defaults of Runner.
const (
	DefaultStagger    = 30 * time.Second
	DefaultRetryAfter = 5 * time.Minute
)

// driven is a job another loop starts (through RunOnce, so its runs are
// recorded like the others'); the runner does not schedule it.
type driven interface{ Driven() bool }

// Name is the runner's name as a service.
func (r *Runner) Name() string { return "maintenance" }

// Run starts one goroutine per job and returns nil when ctx ends and every
// job has stopped (a batch in flight is cancelled and rolls back).
func (r *Runner) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	for _, j := range r.Registry.Jobs() {
		if d, ok := j.(driven); ok && d.Driven() {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.loop(ctx, j)
		}()
	}
	wg.Wait()
	return nil
}

func (r *Runner) loop(ctx context.Context, j Job) {
	log := r.logger().With("job", j.Name())
	if r.Stagger > 0 && !r.wait(ctx, rand.N(r.Stagger)) {
		return
	}
	var failedAt *time.Time
	for {
		lastOK, err := r.lastOK(ctx, j.Name())
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			log.Warn("maintenance: reading the last run failed, retrying", "err", err)
			if !r.wait(ctx, r.retryAfter()) {
				return
			}
			continue
		}
		now := r.Clock.Now()
		next := j.Schedule().Next(lastOK, now)
		if failedAt != nil && next.Before(failedAt.Add(r.retryAfter())) {
			next = failedAt.Add(r.retryAfter())
		}
		if !r.wait(ctx, next.Sub(now)) {
			return
		}
		if next.After(r.Clock.Now()) {
			continue // woken early (a fake clock set back, a short timer): look again
		}
		run, err := r.RunOnce(ctx, j, false)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			t := run.StartedAt
			failedAt = &t
		} else {
			failedAt = nil
		}
	}
}

// RunOnce runs a job now, records the run (unless dry) and logs it: Info
// when it did something, Error when it failed.
func (r *Runner) RunOnce(ctx context.Context, j Job, dry bool) (store.JobRun, error) {
	log := r.logger().With("job", j.Name())
	start := r.Clock.Now()
	res, err := j.Run(ctx, dry)
	run := store.JobRun{Job: j.Name(), StartedAt: start, Duration: r.Clock.Now().Sub(start), Swept: res.Swept}
	run.Rows = res.AllRows()
	if err != nil {
		run.Error = widths.LastError.Cut(err.Error())
	}
	if !dry && !(err != nil && errors.Is(ctx.Err(), context.Canceled)) {
		// A run cut by the end of the lead term is not recorded as failed.
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		if serr := r.Store.SaveJobRun(sctx, run); serr != nil {
			log.Warn("maintenance: recording the run failed", "err", serr)
		}
		cancel()
		if r.Observer != nil {
			r.Observer.JobRun(j.Name(), run.Rows, run.Duration, err)
		}
	}
	attrs := []any{"rows", run.Rows, "took", run.Duration.Round(time.Millisecond).String(), "dry_run", dry}
	if res.Oldest != nil {
		attrs = append(attrs, "oldest", *res.Oldest, "newest", *res.Newest)
	}
	for _, p := range res.Also {
		attrs = append(attrs, p.What, p.Rows)
	}
	if res.Note != "" {
		attrs = append(attrs, "note", res.Note)
	}
	switch {
	case err != nil && ctx.Err() == nil:
		log.Error("maintenance run failed", append(attrs, "err", err)...)
	case run.Rows > 0 || res.Note != "":
		log.Info("maintenance run", attrs...)
	}
	return run, err
}

func (r *Runner) lastOK(ctx context.Context, job string) (*time.Time, error) {
	runs, err := r.Store.JobRuns(ctx)
	if err != nil {
		return nil, err
	}
	for _, run := range runs {
		if run.Job == job {
			return run.LastOKAt, nil
		}
	}
	return nil, nil
}

// wait waits d on the clock; false when ctx ended first.
func (r *Runner) wait(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	select {
	case <-ctx.Done():
		return false
	case <-r.Clock.After(d):
		return true
	}
}

func (r *Runner) retryAfter() time.Duration {
	if r.RetryAfter > 0 {
		return r.RetryAfter
	}
	return DefaultRetryAfter
}

func (r *Runner) logger() *slog.Logger {
	if r.Log != nil {
		return r.Log
	}
	return slog.Default()
}
