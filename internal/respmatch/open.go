package respmatch

import (
	"context"
	"errors"

	"github.com/msgx-aodb/msgx/internal/vocab"
)

// OpenReader reads the open request of a key, locking it
// (store.Executor).
type OpenReader interface {
	OpenRequestForUpdate(ctx context.Context, key string) (vocab.Request, error)
}

// ReadOpen is the request mode's read: the open request of the kind key,
// locked, so nothing supersedes or expires it before the transaction ends;
// none is no candidate. One copy for the guard (internal/aodbrequest) and
// the pump without one (request mode is the default).
func ReadOpen(ctx context.Context, r OpenReader, key string) (Candidates, error) {
	open, err := r.OpenRequestForUpdate(ctx, key)
	switch {
	case errors.Is(err, vocab.ErrNotFound):
		return Candidates{}, nil
	case err != nil:
		return Candidates{}, err
	}
	return Candidates{Open: &open}, nil
}
