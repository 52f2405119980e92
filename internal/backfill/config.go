package backfill

import (
	"cmp"
	"context"
	"time"
)

// Config configures the mailbox backfill sweep (docs/design.md §1.4). Zero
// fields take the defaults.
type Config struct {
	Interval    time.Duration // between sweeps (pipeline.backfill-interval); default 30 s
	BackoffBase time.Duration // delay after the first failure, doubled per attempt; default 30 s
	BackoffCap  time.Duration // cap of the delay; default 15 min
	Batch       int           // todos per sweep; default 100
	Observer    Observer      // metrics; nil = none
	// RunSweep, when set, is how Run starts its periodic sweep: the
	// maintenance job `backfill` (internal/maintenance), which calls Sweep
	// and records, logs and counts the run like every job's. nil: Run calls
	// Sweep and logs it itself.
	RunSweep func(ctx context.Context)
}

// DefaultConfig returns the documented defaults.
func DefaultConfig() Config {
	return Config{Interval: 30 * time.Second, BackoffBase: 30 * time.Second, BackoffCap: 15 * time.Minute, Batch: 100}
}

func (c Config) withDefaults() Config {
	d := DefaultConfig()
	c.Interval = cmp.Or(c.Interval, d.Interval)
	c.BackoffBase = cmp.Or(c.BackoffBase, d.BackoffBase)
	c.BackoffCap = cmp.Or(c.BackoffCap, d.BackoffCap)
	c.Batch = cmp.Or(c.Batch, d.Batch)
	return c
}
