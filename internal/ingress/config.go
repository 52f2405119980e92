package ingress

import (
	"cmp"
	"time"

	"github.com/msgx-aodb/msgx/internal/vocab"
	"github.com/msgx-aodb/msgx/internal/wake"
)

// Config configures the ingress poller (docs/design.md §1.1). Zero fields
// take the defaults.
type Config struct {
	Batch          int           // ids read per poll after the watermark, and per rescan (pipeline.poll-batch); default 500
	RescanDistance int64         // the rescan looks this many ids behind the watermark; default 1000
	RescanAge      time.Duration // ...at rows received within this age; default 10 min
	Source         string        // watermark name (INGRESS_MARK.source); default "cminmsgs"
	Interval       time.Duration // Run polls this often (pipeline.poll-interval); default 1 s
	Enqueued       *wake.Signal  // rung when a poll enqueued new ids (wakes the pump); nil = none
	// GapWait is how long a hole holds the ids after it (rule 16), from when
	// it was first seen; default 3 s.
	GapWait time.Duration
	// Inserted, when rung, makes Run poll at once (a send inserted a row); nil = none.
	Inserted *wake.Signal
	// ReconcileBatch is the ids per page of the reconciliation pass; default 500.
	ReconcileBatch int
	// Shadow: the reconciliation pass does nothing (another system processes
	// the rows: the rescan window is the limit).
	Shadow   bool
	Observer Observer // metrics; nil = none
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

// DefaultConfig returns the documented defaults.
func DefaultConfig() Config {
	return Config{Batch: 500, RescanDistance: 1000, RescanAge: 10 * time.Minute, Source: "cminmsgs", Interval: time.Second, StoreName: vocab.DependencyPostgres,
		GapWait: DefaultGapWait, ReconcileBatch: 500}
}

func (c Config) withDefaults() Config {
	d := DefaultConfig()
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
