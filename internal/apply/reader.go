package apply

import (
	"context"
	"time"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/respmatch"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Reader is what a message settled alone (One) reads, inside its
// transaction. The store's executor has the first four; the pump adds the
// request guard's read (internal/aodbrequest). Tests use an in-memory one.
type Reader interface {
	// IdentityHolders maps identities to the unfinished or finished message
	// holding each, with its raw digest.
	IdentityHolders(ctx context.Context, keys []string) (map[string]vocab.Holder, error)
	// Flights reads the current states of the flights that exist.
	Flights(ctx context.Context, flids []int64) (map[int64]*flight.State, error)
	// SnapshotGen is a flight day's generation; vocab.ErrNotFound: none yet.
	SnapshotGen(ctx context.Context, fday time.Time) (vocab.SnapshotGen, error)
	// PruneCandidates are the day's members not in keep and not DELETED.
	PruneCandidates(ctx context.Context, fday time.Time, keep []int64) ([]*flight.State, error)
	// RespCandidates is what a RESP of the kind key sent at dttm may answer
	// (request.guard's read; request mode locks the open request).
	RespCandidates(ctx context.Context, key string, dttm time.Time) (respmatch.Candidates, error)
}
