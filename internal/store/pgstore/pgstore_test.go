package pgstore_test

import (
	"testing"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/store/storetest"
	"github.com/msgx-aodb/msgx/internal/testdb"
)

func TestConformance(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T) store.Store {
		return pgstore.New(testdb.Postgres(t).Pool)
	})
}
