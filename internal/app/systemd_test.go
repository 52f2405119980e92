package app

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/sdnotify"
	"github.com/msgx-aodb/msgx/internal/testdb"
)

// msgx serve under systemd (Type=notify, WatchdogSec=): READY=1 once it
// serves, WATCHDOG=1 while it runs, STOPPING=1 when shutdown begins — on a
// real unix datagram socket, as systemd's.
func TestServeNotifiesSystemd(t *testing.T) {
	t.Parallel()
	pg := testdb.Postgres(t)
	_, dsn := testdb.Mailbox(t)
	sock := filepath.Join(t.TempDir(), "notify.sock")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	require.NoError(t, err)
	defer conn.Close()
	next := func() string {
		t.Helper()
		require.NoError(t, conn.SetReadDeadline(time.Now().Add(20*time.Second)))
		buf := make([]byte, 4096)
		n, err := conn.Read(buf)
		require.NoError(t, err, "no notification from msgx serve")
		return string(buf[:n])
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, testConfig(pg.URL, dsn), slog.New(slog.NewJSONHandler(&syncBuffer{}, nil)), Options{
			Listener: ln, Notifier: &sdnotify.Notifier{Socket: sock, WatchdogInterval: 100 * time.Millisecond}})
	}()

	first := next()
	require.True(t, strings.HasPrefix(first, sdnotify.Ready+"\nSTATUS=serving on "), "%q", first)
	res, err := http.Get("http://" + ln.Addr().String() + "/healthz")
	require.NoError(t, err, "READY=1 means HTTP answers")
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, sdnotify.Watchdog, next())
	require.Equal(t, sdnotify.Watchdog, next())

	cancel()
	for {
		if msg := next(); msg != sdnotify.Watchdog {
			require.Equal(t, sdnotify.Stopping, msg)
			break
		}
	}
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop")
	}
}
