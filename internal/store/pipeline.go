package store

import (
	"context"
	"time"
)

// Pipeline is the pump's own bookkeeping: the lock every business
// transaction takes, the poller's watermark, and the pause the pump
// publishes for operators.
type Pipeline interface {
	// LockPipeline takes the single pipeline row lock for the rest of the
	// transaction; every business transaction takes it first. It returns
	// the count of enqueues below the largest known id committed before the
	// lock was granted (EnqueueNew counts those, under the lock), as
	// QueueRun returns it with a run: a batch compares the two.
	LockPipeline(ctx context.Context, now time.Time) (enqueuedBelow int64, err error)
	// IngressMark returns the poll watermark of a mailbox source (0 when none).
	IngressMark(ctx context.Context, source string) (int64, error)
	// AdvanceIngressMark moves the watermark forward, never back.
	AdvanceIngressMark(ctx context.Context, p AdvanceIngressMarkParams) error
	// RecordGap records a hole the poller gave up (rule 16); a hole recorded
	// before keeps its first record.
	RecordGap(ctx context.Context, g Gap) error
	// PublishPause records that the pump is paused on a dependency; a pause
	// already published keeps its start.
	PublishPause(ctx context.Context, p Pause) error
	// PublishResume records that the pump runs.
	PublishResume(ctx context.Context, now time.Time) error
	// PumpPause returns the published pause; nil when the pump runs (or never
	// published anything).
	PumpPause(ctx context.Context) (*Pause, error)
	// ShiftDeadlines moves the head-deadline's start (FailingSince) of the
	// FAILED messages whose failures began before pausedSince forward by
	// the pause, resumedAt − pausedSince; it returns how many moved.
	ShiftDeadlines(ctx context.Context, pausedSince, resumedAt time.Time) (int, error)
}

// AdvanceIngressMarkParams moves the watermark of a mailbox source to LastID.
type AdvanceIngressMarkParams struct {
	Source string
	LastID int64
	Now    time.Time
}

// Pause is a pump paused because a dependency cannot be reached (the
// processing contract's rule 14).
type Pause struct {
	Dependency string // vocab.DependencyDatabase or vocab.DependencyMailbox
	Reason     string
	Since      time.Time
	Now        time.Time // when it was published
}

// Gap is a hole in the mailbox ids the poller gave up (rule 16): ids From..To
// no row had while a larger id was visible, for longer than the gap-wait.
type Gap struct {
	Source    string
	From, To  int64
	SeenAt    time.Time // when the poller first saw the hole
	GivenUpAt time.Time
}
