package leader_test

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/db/postgres"
	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/leader"
	"github.com/msgx-aodb/msgx/internal/service"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/testdb"
)

const retry = 50 * time.Millisecond

// instance is one elector running in the background with a worker that
// records whether it runs.
type instance struct {
	e       *leader.Elector
	cancel  context.CancelFunc
	done    chan struct{}
	mu      sync.Mutex
	working int // workers running now
	started int // times the work started
}

func start(t *testing.T, url string, lockID int64) *instance {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	in := &instance{cancel: cancel, done: make(chan struct{})}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	dial := pgstore.LeaderDialer(url, lockID, 5*time.Second, log)
	work := service.Func("work", func(ctx context.Context) error {
		in.mu.Lock()
		in.working++
		in.started++
		in.mu.Unlock()
		<-ctx.Done()
		in.mu.Lock()
		in.working--
		in.mu.Unlock()
		return nil
	})
	term := func() []service.Service { return []service.Service{work} }
	in.e = leader.New(leader.Config{LockID: lockID, Retry: retry, Dial: dial, Term: term}, clock.Real{}, log)
	go func() {
		defer close(in.done)
		_ = in.e.Run(ctx)
	}()
	t.Cleanup(in.stop)
	return in
}

func (in *instance) stop() {
	in.cancel()
	<-in.done
}

func (in *instance) counts() (working, started int) {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.working, in.started
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	require.Eventually(t, cond, 10*time.Second, 10*time.Millisecond, what)
}

func TestOneLeaderThenTakeoverOnShutdown(t *testing.T) {
	db := testdb.Postgres(t)
	a := start(t, db.URL, 42)
	eventually(t, "a leads", func() bool { return a.e.Role() == leader.Leader })
	b := start(t, db.URL, 42)
	eventually(t, "b is standby", func() bool { return b.e.Role() == leader.Standby })

	// Only the leader works, and the database shows one leader and one standby.
	eventually(t, "a works", func() bool { w, _ := a.counts(); return w == 1 })
	w, _ := b.counts()
	require.Zero(t, w)
	var sessions []leader.Session
	eventually(t, "both lock sessions visible", func() bool {
		var err error
		sessions, err = pgstore.Sessions(context.Background(), db.Pool, 42)
		require.NoError(t, err)
		return len(sessions) == 2
	})
	require.True(t, sessions[0].Leading)
	require.False(t, sessions[1].Leading)
	require.Contains(t, sessions[0].Name, leader.AppNamePrefix)

	// The leader stops: its work has ended before the standby takes over.
	a.stop()
	require.Equal(t, leader.Stopped, a.e.Role())
	w, _ = a.counts()
	require.Zero(t, w)
	eventually(t, "b takes over", func() bool { return b.e.Role() == leader.Leader })
	eventually(t, "b works", func() bool { _, started := b.counts(); return started == 1 })
}

func TestTakeoverWhenLeaderLosesItsConnection(t *testing.T) {
	db := testdb.Postgres(t)
	a := start(t, db.URL, 7)
	eventually(t, "a leads", func() bool { return a.e.Role() == leader.Leader })
	b := start(t, db.URL, 7)
	eventually(t, "b is standby", func() bool { return b.e.Role() == leader.Standby })

	// Cut the leader's lock session from the server side.
	sessions, err := pgstore.Sessions(context.Background(), db.Pool, 7)
	require.NoError(t, err)
	require.True(t, sessions[0].Leading)
	ok, err := postgres.New().LeaderTerminate(context.Background(), db.Pool, int32(sessions[0].PID))
	require.NoError(t, err)
	require.True(t, ok)

	eventually(t, "b takes over", func() bool { return b.e.Role() == leader.Leader })
	eventually(t, "a stopped its work", func() bool { w, _ := a.counts(); return w == 0 })
	require.NotEqual(t, leader.Leader, a.e.Role())
	// Never two workers at once after the hand-over settles.
	eventually(t, "a is standby again", func() bool { return a.e.Role() == leader.Standby })
	eventually(t, "b works", func() bool { w, _ := b.counts(); return w == 1 })
	wa, _ := a.counts()
	require.Zero(t, wa)
}

func TestDifferentLocksDoNotCompete(t *testing.T) {
	db := testdb.Postgres(t)
	a := start(t, db.URL, 1)
	b := start(t, db.URL, 2)
	eventually(t, "both lead", func() bool { return a.e.Role() == leader.Leader && b.e.Role() == leader.Leader })
}

func TestUnreachableDatabaseIsStandby(t *testing.T) {
	in := start(t, "postgres://postgres@127.0.0.1:1/none?sslmode=disable&connect_timeout=1", 1)
	eventually(t, "standby while the database is unreachable", func() bool { return in.e.Role() == leader.Standby })
	_, started := in.counts()
	require.Zero(t, started)
}

// waiters is how many sessions of db wait for an advisory lock.
func waiters(t *testing.T, db *testdb.PG) int {
	t.Helper()
	var n int
	require.NoError(t, db.Pool.QueryRow(context.Background(),
		"SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted").Scan(&n))
	return n
}

// PostgreSQL's lock session: a wait ends without the lock after its time (the
// session still usable), takes the lock the moment the holder's session
// ends, and a cancelled wait is cancelled on the server too (no waiter left
// queued) without waiting out its time.
func TestPostgresLockWait(t *testing.T) {
	db := testdb.Postgres(t)
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	dial := pgstore.LeaderDialer(db.URL, 9, 5*time.Second, log)
	holder, err := dial(ctx, leader.AppNamePrefix+"holder:1")
	require.NoError(t, err)
	defer holder.Close(ctx)
	ok, err := holder.Lock(ctx, 0)
	require.NoError(t, err)
	require.True(t, ok)

	standby, err := dial(ctx, leader.AppNamePrefix+"standby:2")
	require.NoError(t, err)
	defer standby.Close(ctx)
	ok, err = standby.Lock(ctx, 0)
	require.NoError(t, err)
	require.False(t, ok)
	ok, err = standby.Lock(ctx, 100*time.Millisecond)
	require.NoError(t, err, "a wait that runs out is no error")
	require.False(t, ok)

	// A cancelled wait returns long before its time and leaves no waiter.
	cctx, cancel := context.WithCancel(ctx)
	res := make(chan error, 1)
	go func() { _, err := standby.Lock(cctx, time.Hour); res <- err }()
	eventually(t, "the standby waits on the server", func() bool { return waiters(t, db) == 1 })
	cancel()
	require.Error(t, recv(t, res, "the cancelled wait"))
	eventually(t, "no waiter left on the server", func() bool { return waiters(t, db) == 0 })

	// A wait takes the lock as soon as the holder's session ends.
	standby, err = dial(ctx, leader.AppNamePrefix+"standby:3")
	require.NoError(t, err)
	defer standby.Close(ctx)
	got := make(chan bool, 1)
	go func() { ok, err := standby.Lock(ctx, time.Hour); assert.NoError(t, err); got <- ok }()
	eventually(t, "the standby waits on the server", func() bool { return waiters(t, db) == 1 })
	sessions, err := pgstore.Sessions(ctx, db.Pool, 9)
	require.NoError(t, err)
	require.True(t, sessions[0].Leading)
	ok, err = postgres.New().LeaderTerminate(ctx, db.Pool, int32(sessions[0].PID))
	require.NoError(t, err)
	require.True(t, ok)
	require.True(t, recv(t, got, "the standby's wait"), "the standby holds the lock")
	require.Error(t, holder.Ping(ctx), "the holder's session is gone")
}
