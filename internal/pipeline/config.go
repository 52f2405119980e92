package pipeline

import (
	"cmp"
	"context"
	"time"

	"github.com/msgx-aodb/msgx/internal/store"
)

// PollerConfig configures the ingress poller (docs/design.md §1.1). Zero fields
// take the defaults.
type PollerConfig struct {
	Batch          int           // ids read per poll after the watermark, and per rescan; default 500
	RescanDistance int64         // the rescan looks this many ids behind the watermark; default 1000
	RescanAge      time.Duration // ...at rows received within this age; default 10 min
	Source         string        // watermark name (INGRESS_MARK.source); default "cminmsgs"
	Interval       time.Duration // Run polls this often (pipeline.poll-interval); default 1 s
	Bell           *Bell         // rung when a poll enqueued new ids (wakes the pump); nil = none
	// GapWait is how long a hole holds the ids after it (rule 16), from when
	// it was first seen; default 3 s.
	GapWait time.Duration
	// Wake, when rung, makes Run poll at once (a send inserted a row); nil = none.
	Wake *Bell
	// ReconcileBatch is the ids per page of the reconciliation pass; default 500.
	ReconcileBatch int
	// Shadow: the reconciliation pass does nothing (another system processes
	// the rows: the rescan window is the limit).
	Shadow   bool
	Observer IngressObserver // metrics; nil = none
	// StoreName is msgx's own database in msgx_dependency_up (postgres or
	// oracle); default postgres.
	StoreName string
	// Sizes receives the XML size of every id enqueued after the
	// watermark, for the pump (its RawReader is Sizes.Reader(mailbox));
	// nil = none.
	Sizes *SizeHints
}

// DefaultGapWait is pipeline.gap-wait's default (rule 16).
const DefaultGapWait = 3 * time.Second

// DefaultPollerConfig returns the documented defaults.
func DefaultPollerConfig() PollerConfig {
	return PollerConfig{Batch: 500, RescanDistance: 1000, RescanAge: 10 * time.Minute, Source: "cminmsgs", Interval: time.Second, StoreName: store.DependencyPostgres,
		GapWait: DefaultGapWait, ReconcileBatch: 500}
}

func (c PollerConfig) withDefaults() PollerConfig {
	d := DefaultPollerConfig()
	c.Batch = cmp.Or(c.Batch, d.Batch)
	c.RescanDistance = cmp.Or(c.RescanDistance, d.RescanDistance)
	c.RescanAge = cmp.Or(c.RescanAge, d.RescanAge)
	c.Source = cmp.Or(c.Source, d.Source)
	c.Interval = cmp.Or(c.Interval, d.Interval)
	c.GapWait = cmp.Or(c.GapWait, d.GapWait)
	c.ReconcileBatch = cmp.Or(c.ReconcileBatch, d.ReconcileBatch)
	c.StoreName = cmp.Or(c.StoreName, d.StoreName)
	return c
}

// BackfillConfig configures the mailbox backfill sweep (docs/design.md §1.4).
// Zero fields take the defaults.
type BackfillConfig struct {
	Interval   time.Duration // between sweeps; default 30 s
	BackoffMin time.Duration // delay after the first failure, doubled per attempt; default 30 s
	BackoffMax time.Duration // cap of the delay; default 15 min
	Batch      int           // todos per sweep; default 100
	Observer   Observer      // metrics; nil = none
	// RunSweep, when set, is how Run starts its periodic sweep: the
	// maintenance job `backfill` (internal/maintenance), which calls Sweep
	// and records, logs and counts the run like every job's. nil: Run calls
	// Sweep and logs it itself.
	RunSweep func(ctx context.Context)
}

// DefaultBackfillConfig returns the documented defaults.
func DefaultBackfillConfig() BackfillConfig {
	return BackfillConfig{Interval: 30 * time.Second, BackoffMin: 30 * time.Second, BackoffMax: 15 * time.Minute, Batch: 100}
}

func (c BackfillConfig) withDefaults() BackfillConfig {
	d := DefaultBackfillConfig()
	c.Interval = cmp.Or(c.Interval, d.Interval)
	c.BackoffMin = cmp.Or(c.BackoffMin, d.BackoffMin)
	c.BackoffMax = cmp.Or(c.BackoffMax, d.BackoffMax)
	c.Batch = cmp.Or(c.Batch, d.Batch)
	return c
}
