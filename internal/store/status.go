package store

import (
	"context"
	"time"
)

// Status is the read-only summary the operators' views need (internal/status:
// `msgx status`, GET /admin/queue, /metrics) beyond what Queue offers.
type Status interface {
	// OutboxLag returns per target with PENDING events their count and the
	// creation time of the oldest, in target order; targets with nothing
	// pending are absent.
	OutboxLag(ctx context.Context) ([]TargetLag, error)
	// BackfillStats summarises the backfill todos.
	BackfillStats(ctx context.Context) (BackfillStats, error)
}

// TargetLag is the outbox lag of one delivery target.
type TargetLag struct {
	Target  string
	Pending int64
	Oldest  time.Time // created_at of the oldest PENDING event
}

// BackfillStats summarises BACKFILL_TODO.
type BackfillStats struct {
	Todos   int64
	Failing int64      // todos that failed at least once
	Oldest  *time.Time // registration of the oldest todo; nil when there is none
}
