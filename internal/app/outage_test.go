package app

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/testdb"
)

// Rule 14 through the real binary: the mailbox, then PostgreSQL, are cut
// (a proxy the test stops and starts) for longer than five backoffs and the
// head-deadline while a backlog waits. The pump pauses instead of counting
// attempts, /readyz says why, and every message ends as in a run without the
// outage, in the same order.
func TestOutageOfEitherDatabaseLosesNothing(t *testing.T) {
	testdb.Long(t)
	t.Parallel()
	pg := testdb.Postgres(t)
	mbdb, dsn := testdb.Mailbox(t)
	pgProxy := testdb.NewTCPProxy(t, "127.0.0.1:5432")
	mbProxy := testdb.NewTCPProxy(t, "127.0.0.1:3306")
	require.Contains(t, pg.URL, "127.0.0.1:5432")
	require.Contains(t, dsn, "127.0.0.1:3306")
	addr := freeAddr(t)
	env := serviceEnv("MSGX_PG_URL="+strings.Replace(pg.URL, "127.0.0.1:5432", pgProxy.Addr, 1),
		"MSGX_MAILBOX_DSN="+strings.Replace(dsn, "127.0.0.1:3306", mbProxy.Addr, 1), "MSGX_HTTP_ADDR="+addr,
		"MSGX_AIRPORT_TZ=Asia/Shanghai", "MSGX_POLL_INTERVAL=50ms", "MSGX_BACKFILL_INTERVAL=200ms",
		// Five backoffs take 3.1 s and the head-deadline is 2 s: an outage of
		// 5 s would dead-letter the head twice over if it counted.
		"MSGX_BACKOFF_BASE=100ms", "MSGX_BACKOFF_CAP=2s", "MSGX_HEAD_DEADLINE=2s", "MSGX_LEADER_RETRY_INTERVAL=500ms",
		"MSGX_RUN_LENGTH=5", "MSGX_CLAIM_BATCH=40")
	l := newLoad(30, 400)
	ids := l.insert(t, mailbox.New(mbdb, mailbox.WithZone(shanghai)), time.Now())
	p := startProc(t, env, addr)
	readyz := func() string {
		res, err := http.Get(p.base + "/readyz")
		if err != nil {
			return err.Error()
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return string(b)
	}

	for _, cut := range []struct {
		proxy *testdb.TCPProxy
		name  string
		after int
	}{{mbProxy, "mailbox", 60}, {pgProxy, "postgres", 200}} {
		eventually(t, 60*time.Second, "work under way", func() bool {
			require.True(t, p.running(), "serve died: %s", p.stderr.String())
			return succeeded(t, pg.Pool) >= cut.after
		})
		cut.proxy.Cut()
		t.Logf("%s cut at %d/%d succeeded", cut.name, succeeded(t, pg.Pool), len(ids))
		if cut.name == "mailbox" {
			eventually(t, 10*time.Second, "/readyz says the pump is paused", func() bool {
				return strings.Contains(readyz(), "paused: mailbox")
			})
		}
		time.Sleep(5 * time.Second) // the outage itself: a duration, not an ordering
		cut.proxy.Restore(t)
		require.Less(t, succeeded(t, pg.Pool), len(ids), "the outage ended after all work: the test proves nothing")
	}
	began := time.Now()
	waitAllDone(t, pg.Pool, mbdb, len(ids))
	t.Logf("all done %s after the last outage", time.Since(began).Round(time.Millisecond))
	require.Contains(t, p.stderr.String(), `"msg":"pump paused`)
	require.Contains(t, p.stderr.String(), `"msg":"pump resumed"`)
	code, _ := p.terminate(t, 10*time.Second)
	require.Equal(t, 0, code, "graceful exit: %s", p.stderr.String())
	l.verifyExactlyOnce(t, pg.Pool, mbdb, ids)
	require.Zero(t, count(t, pg.Pool, "SELECT count(*) FROM proc_state WHERE attempts > 0"), "no attempt was counted")
}
