package app

import (
	"context"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/db/postgres"
	"github.com/msgx-aodb/msgx/internal/leader"
	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/testdb"
)

// leaderPID returns the process id of the instance holding the leader lock
// (from its lock session's name, msgx-lock <host>:<pid>), or 0.
func leaderPID(t *testing.T, sessions []leader.Session) int {
	t.Helper()
	for _, s := range sessions {
		if s.Leading {
			pid, err := strconv.Atoi(s.Name[strings.LastIndexByte(s.Name, ':')+1:])
			require.NoError(t, err)
			return pid
		}
	}
	return 0
}

func lockSessions(t *testing.T, pg *testdb.PG) []leader.Session {
	t.Helper()
	s, err := pgstore.Sessions(t.Context(), pg.Pool, 7166317496771264632)
	require.NoError(t, err)
	return s
}

// Two real processes on one database: one leads and works, the other waits
// as hot standby; killing the leader (kill -9), then cutting the new
// leader's lock connection, hands the work over within seconds each time,
// and every message still has exactly one effect.
func TestStandbyTakesOverFromTwoProcesses(t *testing.T) {
	testdb.Long(t)
	t.Parallel()
	pg := testdb.Postgres(t)
	mbdb, dsn := testdb.Mailbox(t)
	base := []string{"MSGX_PG_URL=" + pg.URL, "MSGX_MAILBOX_DSN=" + dsn, "MSGX_AIRPORT_TZ=Asia/Shanghai",
		"MSGX_POLL_INTERVAL=50ms", "MSGX_BACKFILL_INTERVAL=200ms", "MSGX_LEADER_RETRY_INTERVAL=200ms",
		"MSGX_RUN_LENGTH=5", "MSGX_CLAIM_BATCH=20"}
	addrA, addrB := freeAddr(t), freeAddr(t)
	a := startProc(t, serviceEnv(append(base, "MSGX_HTTP_ADDR="+addrA)...), addrA)
	eventually(t, 10*time.Second, "a leads", func() bool { return leaderPID(t, lockSessions(t, pg)) == a.cmd.Process.Pid })
	b := startProc(t, serviceEnv(append(base, "MSGX_HTTP_ADDR="+addrB)...), addrB)
	eventually(t, 10*time.Second, "b waits as standby", func() bool { return len(lockSessions(t, pg)) == 2 })
	require.Equal(t, a.cmd.Process.Pid, leaderPID(t, lockSessions(t, pg)))

	l := newLoad(20, 300)
	ids := l.insert(t, mailbox.New(mbdb, mailbox.WithZone(shanghai)), time.Now())
	eventually(t, 60*time.Second, "a works", func() bool { return succeeded(t, pg.Pool) >= 50 })
	require.Contains(t, a.stderr.String(), `"msg":"message processed"`)
	require.NotContains(t, b.stderr.String(), `"msg":"message processed"`, "the standby must not work")

	a.kill9(t)
	killed := time.Now()
	eventually(t, 10*time.Second, "b takes over", func() bool { return leaderPID(t, lockSessions(t, pg)) == b.cmd.Process.Pid })
	t.Logf("takeover after kill -9 in %s", time.Since(killed).Round(time.Millisecond))

	// A new standby; then b loses its lock connection: c takes over, and b
	// stops working and becomes standby.
	addrC := freeAddr(t)
	c := startProc(t, serviceEnv(append(base, "MSGX_HTTP_ADDR="+addrC)...), addrC)
	eventually(t, 10*time.Second, "c waits as standby", func() bool { return len(lockSessions(t, pg)) == 2 })
	eventually(t, 60*time.Second, "b works", func() bool { return succeeded(t, pg.Pool) >= 150 })
	for _, s := range lockSessions(t, pg) {
		if s.Leading {
			_, err := postgres.New().LeaderTerminate(t.Context(), pg.Pool, int32(s.PID))
			require.NoError(t, err)
		}
	}
	cut := time.Now()
	eventually(t, 10*time.Second, "c takes over", func() bool { return leaderPID(t, lockSessions(t, pg)) == c.cmd.Process.Pid })
	t.Logf("takeover after a cut lock connection in %s", time.Since(cut).Round(time.Millisecond))
	// b notices at its next ping (one retry interval) and stops working; until
	// then the pipeline row lock keeps the two from applying anything twice.
	eventually(t, 10*time.Second, "b steps down", func() bool {
		return strings.Contains(b.stderr.String(), "lock connection lost, stepping down")
	})
	require.True(t, b.running(), "b survives losing its lock connection: %s", b.stderr.String())

	waitAllDone(t, pg.Pool, mbdb, len(ids))
	for _, p := range []*proc{b, c} {
		code, _ := p.terminate(t, 20*time.Second)
		require.Equal(t, 0, code, p.stderr.String())
	}
	l.verifyExactlyOnce(t, pg.Pool, mbdb, ids)
}

// A second signal ends the process at once even while the first shutdown
// waits for a step in flight (held here by the pipeline lock).
func TestSecondSignalExitsAtOnce(t *testing.T) {
	t.Parallel()
	pg := testdb.Postgres(t)
	mbdb, dsn := testdb.Mailbox(t)
	addr := freeAddr(t)
	p := startProc(t, serviceEnv("MSGX_PG_URL="+pg.URL, "MSGX_MAILBOX_DSN="+dsn, "MSGX_HTTP_ADDR="+addr,
		"MSGX_POLL_INTERVAL=50ms"), addr)

	st := pgstore.New(pg.Pool)
	tx, err := st.Begin(t.Context())
	require.NoError(t, err)
	defer tx.Rollback(context.Background())
	_, err = tx.LockPipeline(t.Context(), time.Now())
	require.NoError(t, err)

	l := newLoad(2, 3)
	l.insert(t, mailbox.New(mbdb, mailbox.WithZone(shanghai)), time.Now())
	eventually(t, 10*time.Second, "the pump waits for the pipeline lock", func() bool {
		return count(t, pg.Pool, "SELECT count(*) FROM pg_stat_activity WHERE datname = '"+pg.Name+
			"' AND wait_event_type = 'Lock' AND application_name = 'msgx'") > 0
	})

	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	eventually(t, 10*time.Second, "graceful shutdown began", func() bool {
		return strings.Contains(p.stderr.String(), "shutdown: signal received")
	})
	require.True(t, p.running(), "the first signal waits for the step in flight")
	code, took := p.terminate(t, 5*time.Second)
	require.Equal(t, 1, code, "exit 1: interrupted")
	require.Contains(t, p.stderr.String(), "second signal, exiting at once")
	t.Logf("second signal: exit %d in %s", code, took)
	require.Zero(t, succeeded(t, pg.Pool), "nothing committed behind the held lock")
}
