package sdnotify

import (
	"context"
	"net"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/clock"
)

// listen is systemd's side: a real unix datagram socket.
func listen(t *testing.T, name string) *net.UnixConn {
	t.Helper()
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: name, Net: "unixgram"})
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	return conn
}

func receive(t *testing.T, conn *net.UnixConn) string {
	t.Helper()
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(5*time.Second)))
	buf := make([]byte, 4096)
	n, err := conn.Read(buf)
	require.NoError(t, err)
	return string(buf[:n])
}

func TestNotifySendsOneDatagram(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "notify.sock")
	conn := listen(t, path)
	n := &Notifier{Socket: path}
	require.NoError(t, n.Notify(Ready, "STATUS=serving"))
	require.Equal(t, "READY=1\nSTATUS=serving", receive(t, conn))
	require.NoError(t, n.Notify(Stopping))
	require.Equal(t, "STOPPING=1", receive(t, conn))
}

func TestNotifyAbstractSocket(t *testing.T) {
	t.Parallel()
	name := "@msgx-sdnotify-test-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	conn := listen(t, name) // Go maps a leading '@' to the abstract namespace too
	require.NoError(t, (&Notifier{Socket: name}).Notify(Ready))
	require.Equal(t, Ready, receive(t, conn))
}

func TestNotifyOffOutsideSystemd(t *testing.T) {
	t.Parallel()
	var nilN *Notifier
	require.NoError(t, nilN.Notify(Ready))
	require.NoError(t, (&Notifier{}).Notify(Ready))
	require.False(t, (&Notifier{}).Enabled())
	// A socket that is gone is an error the caller can log.
	require.Error(t, (&Notifier{Socket: filepath.Join(t.TempDir(), "gone.sock")}).Notify(Ready))
}

func TestFromEnv(t *testing.T) {
	t.Setenv("NOTIFY_SOCKET", "/run/systemd/notify")
	t.Setenv("WATCHDOG_USEC", "30000000")
	t.Setenv("WATCHDOG_PID", "")
	n := FromEnv()
	require.Equal(t, "/run/systemd/notify", n.Socket)
	require.Equal(t, 30*time.Second, n.WatchdogInterval)

	// The watchdog of another process (a parent that exec'd us) is not ours.
	t.Setenv("WATCHDOG_PID", "1")
	require.Zero(t, FromEnv().WatchdogInterval)
	t.Setenv("WATCHDOG_PID", "")
	t.Setenv("WATCHDOG_USEC", "junk")
	require.Zero(t, FromEnv().WatchdogInterval)
}

func TestRunWatchdogPingsAtHalfTheInterval(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "notify.sock")
	conn := listen(t, path)
	clk := clock.NewFake(time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC))
	n := &Notifier{Socket: path, WatchdogInterval: 10 * time.Second}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); n.RunWatchdog(ctx, clk, nil) }()
	for range 3 {
		waitWaiter(t, clk)
		clk.Advance(5 * time.Second)
		require.Equal(t, Watchdog, receive(t, conn))
	}
	cancel()
	<-done

	// No watchdog configured: returns at once, sends nothing.
	(&Notifier{Socket: path}).RunWatchdog(t.Context(), clk, nil)
}

// waitWaiter waits until the watchdog waits on the fake clock.
func waitWaiter(t *testing.T, clk *clock.Fake) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for clk.Waiters() == 0 {
		require.True(t, time.Now().Before(deadline), "the watchdog never waited on the clock")
		time.Sleep(time.Millisecond)
	}
}
