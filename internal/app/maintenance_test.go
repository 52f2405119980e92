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
	cfg := testConfig(pg.URL, dsn)
	// The daily jobs (history, snaplog) are due at once only past today's
	// history.at: at midnight airport time that holds whatever the hour the
	// test runs (at 03:30 it failed from midnight to 03:30 airport time).
	cfg.Maintenance.HistoryAt, cfg.Maintenance.HistoryHour, cfg.Maintenance.HistoryMinute = "00:00", 0, 0
	go func() {
		done <- serve(ctx, cfg, slog.New(slog.NewJSONHandler(logs, nil)),
			Options{Listener: ln, MaintenanceStagger: time.Millisecond})
	}()
	st := pgstore.New(pg.Pool)
	names := []string{"archive", "backfill", "history", "outbox", "reconcile", "requests", "snaplog"}
	ran := func() map[string]string {
		runs, err := st.JobRuns(t.Context())
		require.NoError(t, err)
		byName := map[string]string{}
		for _, r := range runs {
			byName[r.Job] = r.Error
		}
		return byName
	}
	var missing []string
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("jobs that never ran: %v; the service's log:\n%s", missing, logs.String())
		}
	})
	eventually(t, 20*time.Second, "every job ran once", func() bool {
		got := ran()
		missing = missing[:0]
		for _, n := range names {
			if _, ok := got[n]; !ok {
				missing = append(missing, n)
			}
		}
		return len(missing) == 0
	})
	got := ran()
	for _, name := range names {
		require.Empty(t, got[name], name)
	}
	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop")
	}
}
