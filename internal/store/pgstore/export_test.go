package pgstore

import (
	"context"
	"time"

	"github.com/msgx-aodb/msgx/internal/store"
)

// For the external tests (package pgstore_test, which can import testdb).
var (
	ColumnsRows  = columnsRows
	ColumnsState = columnsState
)

// EnqueueAbove is the poll's plain insert, as EnqueueNew takes it when its
// check found every id new and above every known one.
func (s *Store) EnqueueAbove(ctx context.Context, ids []int64, now time.Time) ([]store.Enqueued, error) {
	return s.enqueueAbove(ctx, ids, now)
}
