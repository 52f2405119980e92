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
// serves, WATCHDOG=1 while it runs, its role as STATUS=, STOPPING=1 when
// shutdown begins — on a real unix datagram socket, as systemd's.
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

	// READY=1 comes first, with the role as the status line; then the
	// watchdog's pings, and the role's changes as they happen.
	first := next()
	require.True(t, strings.HasPrefix(first, sdnotify.Ready+"\nSTATUS="), "%q", first)
	require.Contains(t, first, ", serving on "+ln.Addr().String())
	res, err := http.Get("http://" + ln.Addr().String() + "/healthz")
	require.NoError(t, err, "READY=1 means HTTP answers")
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	pings, leader := 0, strings.Contains(first, "STATUS=leader,")
	for pings < 2 || !leader {
		switch msg := next(); {
		case msg == sdnotify.Watchdog:
			pings++
		case strings.HasPrefix(msg, "STATUS=leader, serving on "):
			leader = true
		case strings.HasPrefix(msg, "STATUS="):
		default:
			t.Fatalf("unexpected notification %q while serving", msg)
		}
	}

	cancel()
	for {
		msg := next()
		if msg == sdnotify.Watchdog || strings.HasPrefix(msg, "STATUS=") {
			continue
		}
		require.Equal(t, sdnotify.Stopping, msg)
		break
	}
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop")
	}
}
