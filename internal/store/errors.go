package store

import (
	"errors"
	"fmt"

	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Error kinds every adapter maps its driver errors to, so callers test
// errors.Is(err, store.ErrNotFound) and never look at a driver's error codes.
var (
	// ErrNotFound: the row asked for does not exist (vocab.ErrNotFound, so a
	// reader's contract names it without the store).
	ErrNotFound = vocab.ErrNotFound
	// ErrDuplicate: a unique key is already taken (identity key, idempotency key,
	// an open request of the same kind).
	ErrDuplicate = errors.New("store: duplicate")
	// ErrConflict: a compare-and-set lost (the row moved since it was read), a
	// check constraint or foreign key refused the write, or a serialization failure.
	ErrConflict = errors.New("store: conflict")
	// ErrStale: a finish or a failure found a message no longer as it was
	// read (vocab.Finish.Read, vocab.RecordFailureParams.ReplayCount):
	// finished, replayed or archived meanwhile. The
	// caller rolls its transaction back (the other rows of the statement
	// were written) and starts again from a fresh read.
	ErrStale = errors.New("store: message changed since it was read")
	// ErrUnavailable: the database could not be reached or the connection broke;
	// the operation may be retried.
	ErrUnavailable = errors.New("store: unavailable")
	// ErrNoDatabase: the server answers, but the database does not exist or
	// refuses the user: a configuration to fix, not an outage.
	ErrNoDatabase = errors.New("store: no such database or access denied")
	// ErrSchema: msgx's tables are missing or older than this build.
	ErrSchema = errors.New("store: schema missing or outdated")
)

// StaleFailure is the error of a RecordFailure that updated no row: the
// message is no longer unfinished at the replay count p read (ErrStale).
func StaleFailure(p vocab.RecordFailureParams) error {
	return fmt.Errorf("%w: record failure: message %d is no longer unfinished at replay %d", ErrStale, p.MsgID, p.ReplayCount)
}
