// Package replay sends FAILED and DEAD messages of the replayable classes
// back to PENDING (docs/design.md §3), for `msgx replay` and POST /admin/replay.
//
// A replay is not an undo: the pump processes a replayed message again in
// MSG_ID order only among what is still unfinished, so its content is applied
// over whatever later messages have made of its flights meanwhile. Preview
// shows what a replay would move and warns, per flight, snapshot day and
// reference record, where the current state comes from a later message than
// the one to replay. Apply moves the messages in bounded batches.
//
// filter.go selects, preview.go plans, warnings.go learns what a message
// would change and warns (idscan.go picks FLIDs out of XML the codec
// refused), apply.go moves the messages.
package replay

import (
	"context"
	"errors"
	"time"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Classes are the replayable error classes. MALFORMED and PROTOCOL are final:
// the same bytes would be refused again.
var Classes = []string{string(vocab.ClassCodec), string(vocab.ClassUnsupported), string(vocab.ClassInfra), string(vocab.ClassExhausted)}

var (
	// ErrNotReplayable: the filter names a class that is never replayed.
	ErrNotReplayable = errors.New("not replayable")
	// ErrInvalidFilter: the filter names neither ids nor a class, or both, or a bad id.
	ErrInvalidFilter = errors.New("invalid replay filter")
)

// Defaults of Options and Apply.
const (
	DefaultLimit = 1000 // messages a Preview lists
	BatchSize    = 500  // messages Apply moves per statement
)

// Store is what a replay reads and writes; every store.Store is one.
type Store interface {
	Message(ctx context.Context, id int64) (vocab.QueueEntry, error)
	ReplayCandidates(ctx context.Context, p store.ReplayCandidatesParams) ([]vocab.QueueEntry, error)
	ReplayIDs(ctx context.Context, ids []int64, now time.Time) ([]int64, error)
	FlightMarks(ctx context.Context, flids []int64) (map[int64]store.FlightMark, error)
	SnapshotGen(ctx context.Context, fday time.Time) (vocab.SnapshotGen, error)
	Ref(ctx context.Context, rtype, rkey string) (vocab.RefRecord, error)
}

// RawReader reads raw messages from the mailbox by id (*mailbox.Mailbox);
// missing rows are absent from the map.
type RawReader interface {
	ReadRaws(ctx context.Context, ids []int64) (map[int64][]byte, error)
}
