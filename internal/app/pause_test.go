package app

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/testdb"
)

// Rule 14, last sentences, through the real binary: a FLOP whose own
// statement hits the database's statement_timeout (a trigger of the test's
// database sleeps on its STND) is counted like any failure of the message
// and ends DEAD(EXHAUSTED): the database answers the probe, so the pump
// never pauses. Everything after it is processed.
func TestOwnStatementTimeoutDeadLettersThroughServe(t *testing.T) {
	t.Parallel()
	pg := testdb.Postgres(t)
	mbdb, dsn := testdb.Mailbox(t)
	for _, q := range []string{
		`CREATE FUNCTION msgx_test_slow() RETURNS trigger LANGUAGE plpgsql AS $$
		 BEGIN IF NEW.stnd = 'SLOW' THEN PERFORM pg_sleep(5); END IF; RETURN NEW; END $$`,
		`CREATE TRIGGER msgx_test_slow BEFORE INSERT OR UPDATE ON flight_schd FOR EACH ROW EXECUTE FUNCTION msgx_test_slow()`,
		`ALTER DATABASE "` + pg.Name + `" SET statement_timeout = '1s'`, // the service's sessions
	} {
		_, err := pg.Pool.Exec(t.Context(), q)
		require.NoError(t, err)
	}
	mb := mailbox.New(mbdb, mailbox.WithZone(shanghai))
	var ids []int64
	for _, x := range []string{
		dnld(1, fltr(1001, ""), fltr(1002, "")),
		flopSTND(2, 1001, "SLOW"),
		flopSTND(3, 1002, "A"),
		flopSTND(4, 1002, "B"), // batched with it first: not flight 1001, whose last write would hide SLOW
	} {
		id, err := mb.Insert(t.Context(), []byte(x), time.Now())
		require.NoError(t, err)
		ids = append(ids, id)
	}
	addr := freeAddr(t)
	p := startProc(t, serviceEnv("MSGX_PG_URL="+pg.URL, "MSGX_MAILBOX_DSN="+dsn, "MSGX_HTTP_ADDR="+addr,
		"MSGX_AIRPORT_TZ=Asia/Shanghai", "MSGX_POLL_INTERVAL=50ms", "MSGX_BACKFILL_INTERVAL=200ms",
		"MSGX_MAX_ATTEMPTS=3", "MSGX_BACKOFF_BASE=100ms"), addr)

	waitAllDone(t, pg.Pool, mbdb, len(ids))
	var status, class string
	var attempts int
	require.NoError(t, pg.Pool.QueryRow(t.Context(), "SELECT status, error_class, attempts FROM proc_state WHERE msg_id = $1",
		ids[1]).Scan(&status, &class, &attempts))
	require.Equal(t, []any{"DEAD", "EXHAUSTED", 3}, []any{status, class, attempts})
	require.Equal(t, 3, count(t, pg.Pool, "SELECT count(*) FROM proc_state WHERE status = 'SUCCEEDED'"), "the rest is processed")
	require.Equal(t, 1, count(t, pg.Pool, "SELECT count(*) FROM flight_schd WHERE flid = 1002 AND stnd = 'B'"))
	require.NotContains(t, p.stderr.String(), `"msg":"pump paused`, "the database answered: no outage")
	require.Contains(t, p.stderr.String(), "statement timeout")
	code, _ := p.terminate(t, 10*time.Second)
	require.Equal(t, 0, code, "graceful exit: %s", p.stderr.String())
}

// pauseGauge reads msgx_pump_paused{dependency} from /metrics.
func pauseGauge(t *testing.T, base, dependency string) string {
	t.Helper()
	_, body := httpDo(t, http.MethodGet, base+"/metrics", "", "")
	m := regexp.MustCompile(`(?m)^msgx_pump_paused\{dependency="` + dependency + `"\} (\S+)$`).FindSubmatch(body)
	require.NotNil(t, m, "msgx_pump_paused{dependency=%q} exported", dependency)
	return string(m[1])
}

// Rule 14 across a lead term: PostgreSQL (a private server) is restarted
// under a leader that is paused on it; the leader steps down and leads
// again. Once the queue drains, /readyz is 200 and msgx_pump_paused is 0 —
// the pause of the term that ended is not shown for ever. A real mailbox
// pause later in the same run is reported, and clears in turn.
func TestPauseClearsAfterPostgresRestart(t *testing.T) {
	t.Parallel()
	cluster := newPGCluster(t)
	began := time.Now()
	t.Log("private cluster up")
	pgURL := cluster.Database(t, "msgx_restart")
	pool, err := pgxpool.New(t.Context(), pgURL)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	mbdb, dsn := testdb.Mailbox(t)
	mbProxy := testdb.NewTCPProxy(t, "127.0.0.1:3306")
	require.Contains(t, dsn, "127.0.0.1:3306")
	addr := freeAddr(t)
	env := serviceEnv("MSGX_PG_URL="+pgURL, "MSGX_MAILBOX_DSN="+strings.Replace(dsn, "127.0.0.1:3306", mbProxy.Addr, 1),
		"MSGX_HTTP_ADDR="+addr, "MSGX_AIRPORT_TZ=Asia/Shanghai", "MSGX_POLL_INTERVAL=50ms", "MSGX_BACKFILL_INTERVAL=200ms",
		"MSGX_LEADER_RETRY_INTERVAL=500ms", "MSGX_RUN_LENGTH=5", "MSGX_CLAIM_BATCH=40",
		"MSGX_MAX_ATTEMPTS=2", "MSGX_BACKOFF_BASE=1s")
	mb := mailbox.New(mbdb, mailbox.WithZone(shanghai))
	l := newLoad(30, 300)
	ids := l.insert(t, mb, time.Now())
	p := startProc(t, env, addr)
	ready := func() (int, string) {
		code, body := httpDo(t, http.MethodGet, p.base+"/readyz", "", "")
		return code, string(body)
	}
	cleared := func(after string) {
		t.Helper()
		eventually(t, 10*time.Second, "/readyz 200 "+after, func() bool { code, _ := ready(); return code == http.StatusOK })
		for _, dep := range []string{"postgres", "mailbox"} {
			require.Equal(t, "0", pauseGauge(t, p.base, dep), "msgx_pump_paused{dependency=%q} %s", dep, after)
		}
	}

	eventually(t, 60*time.Second, "work under way", func() bool {
		require.True(t, p.running(), "serve died: %s", p.stderr.String())
		return succeeded(t, pool) >= 40
	})
	t.Logf("%s: postgres stopped at %d/%d succeeded", time.Since(began), succeeded(t, pool), len(ids))
	cluster.Stop(t)
	// The pump pauses on PostgreSQL and the leader, its lock session gone,
	// steps down: the term ends paused.
	eventually(t, 20*time.Second, "paused, then stepped down", func() bool {
		s := p.stderr.String()
		return strings.Contains(s, `"msg":"pump paused`) && strings.Contains(s, "stepping down")
	})
	cluster.Start(t)
	t.Logf("%s: postgres started", time.Since(began))
	pool.Reset() // the test's own sessions ended with the server
	waitAllDone(t, pool, mbdb, len(ids))
	l.verifyExactlyOnce(t, pool, mbdb, ids)
	require.Zero(t, count(t, pool, "SELECT count(*) FROM proc_state WHERE attempts > 0"), "the restart counted no attempt")
	cleared("after the queue drained")

	// A mailbox outage while work waits: reported, then cleared. A head that
	// fails (UNSUPPORTED) and waits for its next attempt holds the new work
	// in the queue; its next attempt must read the mailbox.
	bad, err := mb.Insert(t.Context(), []byte(sisMsg("SCHS", "DNLD", 4999, "<SCHS/>")), time.Now())
	require.NoError(t, err)
	more := []int64{bad}
	for i := range 50 {
		id, err := mb.Insert(t.Context(), []byte(flopSTND(5000+i, 1001, fmt.Sprintf("M%d", i))), time.Now())
		require.NoError(t, err)
		more = append(more, id)
	}
	eventually(t, 30*time.Second, "the new work queued behind a failed head", func() bool {
		return count(t, pool, "SELECT count(*) FROM proc_state") == len(ids)+len(more) &&
			count(t, pool, fmt.Sprintf("SELECT count(*) FROM proc_state WHERE msg_id = %d AND status = 'FAILED'", bad)) == 1
	})
	mbProxy.Cut()
	t.Logf("%s: mailbox cut", time.Since(began))
	eventually(t, 10*time.Second, "the mailbox pause reported", func() bool {
		code, body := ready()
		return code == http.StatusServiceUnavailable && strings.Contains(body, "paused: mailbox")
	})
	require.Equal(t, "1", pauseGauge(t, p.base, "mailbox"))
	require.Equal(t, "0", pauseGauge(t, p.base, "postgres"))
	mbProxy.Restore(t)
	waitAllDone(t, pool, mbdb, len(ids)+len(more))
	cleared("after the mailbox outage")
	t.Logf("%s: cleared", time.Since(began))
	code, _ := p.terminate(t, 10*time.Second)
	require.Equal(t, 0, code, "graceful exit: %s", p.stderr.String())
}
