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
	// IngressIrregular counts the gaps given up and the late rows enqueued
	// since a time (rules 16–17), and the identity conflicts (rule 2)
	// finished since then, and lists the newest max of each.
	IngressIrregular(ctx context.Context, since time.Time, max int) (IngressIrregular, error)
}

// IngressIrregular is what went out of order at the ingress in a period.
type IngressIrregular struct {
	Gaps              int64
	LateRows          int64
	IdentityConflicts int64
	// Newest first, at most the max asked.
	LatestGaps      []Gap
	LatestLate      []LateRow
	LatestConflicts []IdentityConflict
}

// IdentityConflict is a duplicate whose raw message differs from its
// holder's (rule 2): its id, the holder's and when it finished.
type IdentityConflict struct {
	ID, Holder int64
	At         time.Time
}

// LateRow is a late row: its id, the largest id finished before it was
// enqueued, and when it was enqueued.
type LateRow struct {
	ID, After int64
	At        time.Time
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
