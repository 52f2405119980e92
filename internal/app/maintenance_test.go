package app

import (
	"context"
	"log/slog"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/testdb"
)

// The leader runs every maintenance job (each never ran, so each is due at
// once; the backfill sweep started by the backfiller's loop) and they stop
// with the service.
func TestServeRunsMaintenanceJobs(t *testing.T) {
	t.Parallel()
	pg := testdb.Postgres(t)
	_, dsn := testdb.Mailbox(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	logs := &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, testConfig(pg.URL, dsn), slog.New(slog.NewJSONHandler(logs, nil)),
			Options{Listener: ln, MaintenanceStagger: time.Millisecond})
	}()
	st := pgstore.New(pg.Pool)
	eventually(t, 20*time.Second, "every job ran once", func() bool {
		runs, err := st.JobRuns(t.Context())
		require.NoError(t, err)
		return len(runs) == 6
	})
	runs, err := st.JobRuns(t.Context())
	require.NoError(t, err)
	for i, name := range []string{"archive", "backfill", "history", "outbox", "requests", "snaplog"} {
		require.Equal(t, name, runs[i].Job)
		require.Empty(t, runs[i].Error)
	}
	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop")
	}
}
