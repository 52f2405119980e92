// Package sdnotify speaks systemd's notify protocol (sd_notify(3)) for a
// service run with Type=notify: one datagram per state change, written to
// the unix datagram socket systemd names in $NOTIFY_SOCKET. It is a few
// lines of the standard library, so msgx takes no dependency for it.
//
// Outside systemd (no $NOTIFY_SOCKET) every call is a no-op.
package sdnotify

import (
	"context"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/msgx-aodb/msgx/internal/clock"
)

// The states msgx sends.
const (
	Ready    = "READY=1"    // serving: start-up is complete
	Stopping = "STOPPING=1" // shutdown has begun
	Watchdog = "WATCHDOG=1" // alive (WatchdogSec=)
)

// Notifier sends states to systemd. The zero value, and nil, send nothing.
type Notifier struct {
	// Socket is the path of systemd's notify socket; a leading '@' names
	// an abstract socket. Empty: notifications are off.
	Socket string
	// WatchdogInterval is the unit's WatchdogSec= as systemd passed it
	// (0: no watchdog).
	WatchdogInterval time.Duration
}

// FromEnv is the notifier systemd configured for this process:
// $NOTIFY_SOCKET, and $WATCHDOG_USEC when $WATCHDOG_PID is unset or is this
// process (sd_watchdog_enabled(3)).
func FromEnv() *Notifier {
	n := &Notifier{Socket: os.Getenv("NOTIFY_SOCKET")}
	usec, err := strconv.ParseInt(os.Getenv("WATCHDOG_USEC"), 10, 64)
	if err == nil && usec > 0 {
		if pid := os.Getenv("WATCHDOG_PID"); pid == "" || pid == strconv.Itoa(os.Getpid()) {
			n.WatchdogInterval = time.Duration(usec) * time.Microsecond
		}
	}
	return n
}

// Enabled reports whether notifications go anywhere.
func (n *Notifier) Enabled() bool { return n != nil && n.Socket != "" }

// Notify sends one or more states (newline-separated assignments, e.g.
// Ready, or "STATUS=leader") in one datagram.
func (n *Notifier) Notify(states ...string) error {
	if !n.Enabled() {
		return nil
	}
	addr := &net.UnixAddr{Name: n.Socket, Net: "unixgram"}
	if strings.HasPrefix(addr.Name, "@") {
		addr.Name = "\x00" + addr.Name[1:] // Linux abstract namespace
	}
	conn, err := net.DialUnix("unixgram", nil, addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	_, err = conn.Write([]byte(strings.Join(states, "\n")))
	return err
}

// RunWatchdog sends Watchdog every half WatchdogInterval on clk until ctx
// ends (systemd's advice: well within the interval). Without a watchdog it
// returns at once. Errors go to onErr (nil: ignored): a missed ping is
// systemd's to judge.
func (n *Notifier) RunWatchdog(ctx context.Context, clk clock.Clock, onErr func(error)) {
	if !n.Enabled() || n.WatchdogInterval <= 0 {
		return
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-clk.After(n.WatchdogInterval / 2):
			if err := n.Notify(Watchdog); err != nil && onErr != nil {
				onErr(err)
			}
		}
	}
}
