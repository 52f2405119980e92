package orastore

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/store/storetest"
)

// TestConformance runs the store conformance suite against a real Oracle:
// MSGX_TEST_ORACLE_DSN names a dedicated, otherwise empty schema whose
// objects every test drops and recreates (docs/oracle.md).
func TestConformance(t *testing.T) {
	dsn := os.Getenv("MSGX_TEST_ORACLE_DSN")
	if dsn == "" {
		t.Skip("Oracle conformance suite (internal/store/storetest) not run: set MSGX_TEST_ORACLE_DSN to a dedicated, empty Oracle 11g schema")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st, err := Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	// One schema for the whole suite: its subtests (parallel on PostgreSQL,
	// where each gets a database of its own) take it one at a time, each
	// until it ends.
	var schema sync.Mutex
	storetest.Run(t, func(t *testing.T) store.Store {
		schema.Lock()
		t.Cleanup(schema.Unlock)
		if err := ResetTestSchema(t.Context(), st); err != nil {
			t.Fatal(err)
		}
		return st
	})
}
