package aodbrequest

import (
	"context"
	"time"

	"github.com/msgx-aodb/msgx/internal/respmatch"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Store is the slice of the store the service uses: REQ_TRACK, and the
// snapshot generation the start trigger looks at. Every store.Store is one
// (T is store.Tx). Go has no covariant results, so Begin's transaction is a
// type parameter; the service uses only its Tx methods.
type Store[T Tx] interface {
	// Begin opens register's transaction.
	Begin(ctx context.Context) (T, error)

	Request(ctx context.Context, id int64) (vocab.Request, error)
	OpenRequests(ctx context.Context) ([]vocab.Request, error)
	Requests(ctx context.Context, beforeID int64, limit int) ([]vocab.Request, error)
	MarkRequestSent(ctx context.Context, p store.MarkRequestSentParams) error
	ExpireDueRequests(ctx context.Context, now time.Time, max int) ([]int64, error)
	SnapshotGen(ctx context.Context, fday time.Time) (vocab.SnapshotGen, error)
}

// Tx is register's transaction: supersede or hold, number, insert.
type Tx interface {
	respmatch.OpenReader // register's transaction, or the pump's when the guard reads (Guard.Read)
	ExpireRequestKey(ctx context.Context, p store.ExpireRequestKeyParams) ([]int64, error)
	NextRequestSeqn(ctx context.Context) (int64, error)
	InsertRequest(ctx context.Context, r store.NewRequest) (vocab.Request, error)
	LastAnsweredRequest(ctx context.Context, key string) (vocab.Request, error)
	Commit(ctx context.Context) error
	// Rollback after Commit does nothing (store.Tx), so it is deferred.
	Rollback(ctx context.Context) error
}

var _ Store[store.Tx] = store.Store(nil)

// narrowed is a Store[T] whose Begin returns the Tx, so the service holds
// one type whatever the store's transaction type.
type narrowed[T Tx] struct{ Store[T] }

func (n narrowed[T]) Begin(ctx context.Context) (Tx, error) { return n.Store.Begin(ctx) }
