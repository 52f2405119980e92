package store

import (
	"context"
	"time"

	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Replays is what internal/replay (msgx replay, POST /admin/replay) needs
// beyond Queue: replay in bounded batches of ids, and what the flight rows
// record about their last change, to warn before a replay applies an older
// message over a newer state.
type Replays interface {
	// ReplayCandidates pages, in MSG_ID order after AfterID, up to Limit
	// messages a replay would move back to PENDING (FAILED or DEAD of a
	// replayable class): among IDs when IDs is non-nil, of Class when Class
	// is not empty.
	ReplayCandidates(ctx context.Context, p ReplayCandidatesParams) ([]vocab.QueueEntry, error)
	// ReplayIDs moves those of ids that are replayable back to PENDING, as
	// Replay does, and returns them in MSG_ID order; the others are left alone.
	// It counts itself under PIPELINE_LOCK (an enqueue below the largest
	// known id: a run read around a replayed id is abandoned), so it waits
	// for a business transaction in flight: never call it while holding that
	// lock in another transaction.
	ReplayIDs(ctx context.Context, ids []int64, now time.Time) ([]int64, error)
	// FlightMarks returns the last change of the given flights that exist, keyed by FLID.
	FlightMarks(ctx context.Context, flids []int64) (map[int64]FlightMark, error)
}

// ReplayCandidatesParams pages the replayable messages.
type ReplayCandidatesParams struct {
	IDs     []int64 // nil: any id
	Class   string  // empty: any replayable class
	AfterID int64
	Limit   int
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
