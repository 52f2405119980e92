package store

import (
	"context"
	"time"
)

// Replays is what internal/replay (msgx replay, POST /admin/replay) needs
// beyond Queue: replay in bounded batches of ids, and what the flight rows
// record about their last change, to warn before a replay applies an older
// message over a newer state.
type Replays interface {
	// ReplayCandidates pages, in MSG_ID order after afterID, up to limit
	// messages a replay would move back to PENDING (FAILED or DEAD of a
	// replayable class): among ids when ids is non-nil, of class when class is
	// not empty.
	ReplayCandidates(ctx context.Context, ids []int64, class string, afterID int64, limit int) ([]Message, error)
	// ReplayIDs moves those of ids that are replayable back to PENDING, as
	// Replay does, and returns them in MSG_ID order; the others are left alone.
	ReplayIDs(ctx context.Context, ids []int64, now time.Time) ([]int64, error)
	// FlightMarks returns the last change of the given flights that exist, keyed by FLID.
	FlightMarks(ctx context.Context, flids []int64) (map[int64]FlightMark, error)
}

// FlightMark is what a flight row records about its last change.
type FlightMark struct {
	FLID          int64
	StateVersion  int64
	LastMessageID int64 // the message that last changed the state (STATE_VERSION)
	Lifecycle     string
	OperationDay  time.Time
	UpdatedAt     time.Time
}
