package pump

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/ingress"
	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/metrics"
	"github.com/msgx-aodb/msgx/internal/testdb"
)

// Rule 20: with the queue empty, a MariaDB outage the poller meets sets
// msgx_dependency_up{dependency="mailbox"} to 0 at its next poll (the pump
// never pauses: it has nothing to do), and the first poll after the outage
// sets it back to 1; msgx's own database stays 1 throughout.
func TestMailboxOutageIsVisibleWhileIdle(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, dsn := testdb.Mailbox(t)
	require.Contains(t, dsn, "127.0.0.1:3306")
	proxy := testdb.NewTCPProxy(t, "127.0.0.1:3306")
	db, err := mailbox.Open(t.Context(), strings.Replace(dsn, "127.0.0.1:3306", proxy.Addr, 1))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	m := metrics.New(nil, e.Clock)
	p := ingress.NewPoller(e.Store, mailbox.New(db, mailbox.WithZone(shanghai)), e.Clock, slog.New(slog.NewTextHandler(io.Discard, nil)),
		ingress.Config{Observer: m})
	srv := httptest.NewServer(m.Handler())
	t.Cleanup(srv.Close)
	up := func(dep string) string {
		res, err := http.Get(srv.URL)
		require.NoError(t, err)
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, `msgx_dependency_up{dependency="`+dep+`"} `); ok {
				return v
			}
		}
		return "absent"
	}

	_, err = p.PollOnce(t.Context())
	require.NoError(t, err)
	require.Equal(t, "1", up("mailbox"))
	require.Equal(t, "1", up("postgres"))

	proxy.Cut()
	e.Clock.Advance(ingress.DefaultConfig().Interval)
	_, err = p.PollOnce(t.Context())
	require.Error(t, err)
	require.Equal(t, "0", up("mailbox"), "the poll after the cut says the mailbox is down")
	require.Equal(t, "1", up("postgres"))
	pause, err := e.Store.PumpPause(t.Context())
	require.NoError(t, err)
	require.Nil(t, pause, "the pump, idle, published no pause: status paused=null")

	proxy.Restore(t)
	e.Clock.Advance(ingress.DefaultConfig().Interval)
	_, err = p.PollOnce(t.Context())
	require.NoError(t, err)
	require.Equal(t, "1", up("mailbox"), "up again at the first poll after the outage")
}
