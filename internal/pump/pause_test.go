package pump

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/metrics"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// lineLog is a slog handler that keeps the messages it is given.
type lineLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *lineLog) Enabled(context.Context, slog.Level) bool { return true }
func (l *lineLog) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, r.Message)
	return nil
}
func (l *lineLog) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *lineLog) WithGroup(string) slog.Handler      { return l }
func (l *lineLog) count(prefix string) (n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, s := range l.lines {
		if strings.HasPrefix(s, prefix) {
			n++
		}
	}
	return n
}

// downStore is PostgreSQL unreachable: every call the pump makes fails as
// the adapter reports a lost server.
type downStore struct{ store.Store }

func (downStore) QueueHead(context.Context, int) ([]vocab.QueueEntry, error) {
	return nil, store.ErrUnavailable
}
func (downStore) QueueRun(context.Context, int) ([]vocab.QueueEntry, int64, error) {
	return nil, 0, store.ErrUnavailable
}
func (downStore) Begin(context.Context) (store.Tx, error)         { return nil, store.ErrUnavailable }
func (downStore) PublishPause(context.Context, store.Pause) error { return store.ErrUnavailable }
func (downStore) PublishResume(context.Context, time.Time) error  { return store.ErrUnavailable }

// An outage of the mailbox, then of PostgreSQL, for far longer than five
// backoffs: the pump pauses and probes every second, counts no attempt, runs
// no deadline, logs with backoff, shows the pause, and once the dependency is
// back processes everything as if nothing had happened.
func TestOutagePausesThePump(t *testing.T) {
	t.Parallel()
	lines := &lineLog{}
	state := &PauseState{}
	met := metrics.New(nil, clock.NewFake(start))
	e := newEnv(t, func(c *Config) { c.Pause = state; c.HeadDeadline = 10 * time.Second; c.Observer = met })
	e.pump.log = slog.New(lines)
	e.Send(t, schd("ADFT", fltr(1)))
	e.StepUntilWait(t)
	ids := []int64{
		e.Send(t, flop("STND", 1, "<STND>1</STND>")),
		e.Send(t, flop("STND", 1, "<STND>2</STND>")),
	}

	closed, err := mailbox.Open(t.Context(), "root@tcp(127.0.0.1:3306)/?parseTime=true")
	require.NoError(t, err)
	require.NoError(t, closed.Close())
	e.useRaw(mailbox.New(closed))
	probe := func(outage time.Duration) {
		t.Helper()
		for range int(outage / time.Second) {
			wait, err := e.pump.Step(t.Context())
			require.NoError(t, err, "a pause is not a failed step")
			require.Equal(t, time.Second, wait, "probe every second, whatever the outage lasts")
			e.Clock.Advance(wait)
		}
	}
	probe(2 * time.Minute)
	p, ok := state.Get()
	require.True(t, ok)
	require.Equal(t, vocab.DependencyMailbox, p.Dependency)
	require.True(t, p.Since.Equal(start), "paused since the first failed read")
	pub, err := e.Store.PumpPause(t.Context())
	require.NoError(t, err)
	require.Equal(t, vocab.DependencyMailbox, pub.Dependency, "msgx status sees the pause")
	require.Equal(t, map[string]bool{"mailbox": false}, met.Dependencies(), "msgx_dependency_up from the pump's attempts")
	for _, id := range ids {
		m := e.msg(t, id)
		require.Equal(t, vocab.StatusPending, m.Status)
		require.Zero(t, m.Attempts, "an outage counts no attempt")
		require.Nil(t, m.FailingSince, "and starts no deadline")
	}
	require.LessOrEqual(t, lines.count("pump paused")+lines.count("pump still paused"), 8, "the log backs off: 1, 2, 4 ... 60 s")

	e.pump.store = downStore{e.Store}
	probe(time.Minute)
	p, _ = state.Get()
	require.Equal(t, vocab.DependencyDatabase, p.Dependency)
	require.Equal(t, map[string]bool{"mailbox": false, "postgres": false}, met.Dependencies(), "the mailbox is still closed: not seen up yet")

	e.pump.store = e.Store
	e.useRaw(e.Mailbox)
	e.StepUntilWait(t)
	_, ok = state.Get()
	require.False(t, ok, "resumed at the first probe that got through")
	pub, err = e.Store.PumpPause(t.Context())
	require.NoError(t, err)
	require.Nil(t, pub)
	require.Equal(t, 1, lines.count("pump resumed"))
	require.Equal(t, map[string]bool{"mailbox": true, "postgres": true}, met.Dependencies())
	for _, id := range ids {
		m := e.msg(t, id)
		require.Equal(t, vocab.StatusSucceeded, m.Status)
		require.Zero(t, m.Attempts)
	}
	require.Equal(t, "2", e.flight(t, 1).Scalars["STND"].Raw, "in order")
}

// A head already failing when an outage begins keeps the deadline time it
// had left: the outage runs no deadline, during the pause or after it.
func TestOutageRunsNoDeadline(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.MaxAttempts = 100; c.HeadDeadline = time.Minute })
	bad := e.Send(t, envelope("SCHS", "DNLD", "<SCHS/>")) // UNSUPPORTED: fails every time
	e.StepUntilWait(t)
	require.Equal(t, vocab.StatusFailed, e.msg(t, bad).Status)
	e.Clock.Advance(30 * time.Second) // half its deadline used

	closed, err := mailbox.Open(t.Context(), "root@tcp(127.0.0.1:3306)/?parseTime=true")
	require.NoError(t, err)
	require.NoError(t, closed.Close())
	e.useRaw(mailbox.New(closed))
	for range 300 { // a 5-minute outage, probed every second
		_, err := e.pump.Step(t.Context())
		require.NoError(t, err)
		e.Clock.Advance(time.Second)
	}
	require.Equal(t, vocab.StatusFailed, e.msg(t, bad).Status, "not exhausted during the outage")

	e.useRaw(e.Mailbox)
	_, err = e.pump.Step(t.Context()) // the outage ends
	require.NoError(t, err)
	m := e.msg(t, bad)
	require.Equal(t, vocab.StatusFailed, m.Status, "not exhausted when it ends either")
	require.True(t, m.FailingSince.Equal(start.Add(5*time.Minute)), "its start moved by the pause (5 min): %v", m.FailingSince)
	for range 40 {
		e.Clock.Advance(time.Second)
		_, err = e.pump.Step(t.Context())
		require.NoError(t, err)
	}
	require.Equal(t, "EXHAUSTED", e.msg(t, bad).ErrorClass, "the 30 s it had left ran out after the outage")
}

// slowFlight makes the test's own database time out a statement that writes
// a flight whose STND is stnd: a trigger sleeps past the statement_timeout
// every new session of the database gets. The database answers throughout:
// the timeout is the message's own failure.
func slowFlight(t *testing.T, e *env, stnd string) {
	t.Helper()
	for _, q := range []string{
		`CREATE FUNCTION msgx_test_slow() RETURNS trigger LANGUAGE plpgsql AS $$
		 BEGIN IF NEW.stnd = '` + stnd + `' THEN PERFORM pg_sleep(2); END IF; RETURN NEW; END $$`,
		`CREATE TRIGGER msgx_test_slow BEFORE INSERT OR UPDATE ON flight_schd FOR EACH ROW EXECUTE FUNCTION msgx_test_slow()`,
		`ALTER DATABASE "` + e.PG.Name + `" SET statement_timeout = '500ms'`,
	} {
		_, err := e.PG.Pool.Exec(t.Context(), q)
		require.NoError(t, err)
	}
	e.PG.Pool.Reset() // new sessions: the setting applies
}

// Rule 14, last sentences: a statement timeout (SQLSTATE 57014) that the
// message's own statement raises is counted, with backoff, until the message
// is DEAD(EXHAUSTED) — the database answers the probe, so it is no outage
// and the pump never pauses. The message after it is processed.
func TestOwnStatementTimeoutIsCounted(t *testing.T) {
	t.Parallel()
	state := &PauseState{}
	e := newEnv(t, func(c *Config) { c.Pause = state; c.MaxAttempts = 3 })
	e.needPostgres(t)
	e.Send(t, schd("ADFT", fltr(1), fltr(2)))
	e.StepUntilWait(t)
	slowFlight(t, e, "SLOW")
	bad := e.Send(t, flop("STND", 1, "<STND>SLOW</STND>"))
	next := e.Send(t, flop("STND", 2, "<STND>2</STND>")) // batched with it first

	for range 20 {
		wait, err := e.pump.Step(t.Context())
		require.NoError(t, err)
		_, paused := state.Get()
		require.False(t, paused, "the database answers: no pause")
		if e.msg(t, next).Status == vocab.StatusSucceeded {
			break
		}
		e.Clock.Advance(wait)
	}
	m := e.msg(t, bad)
	require.Equal(t, vocab.StatusDead, m.Status)
	require.Equal(t, "EXHAUSTED", m.ErrorClass)
	require.Equal(t, 3, m.Attempts)
	require.Contains(t, m.Reason, "statement timeout")
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, next).Status)
	require.Equal(t, "2", e.flight(t, 2).Scalars["STND"].Raw)
}

// The pause shown is the running pump's: a pump whose lead term ends while
// it is paused leaves no pause behind, and the next term's pump, which has
// no pause of its own, starts clean.
func TestPauseStateFollowsTheRunningPump(t *testing.T) {
	t.Parallel()
	state := &PauseState{}
	e := newEnv(t, func(c *Config) { c.Pause = state })
	e.Send(t, flop("STND", 1, "<STND>1</STND>"))
	closed, err := mailbox.Open(t.Context(), "root@tcp(127.0.0.1:3306)/?parseTime=true")
	require.NoError(t, err)
	require.NoError(t, closed.Close())
	e.useRaw(mailbox.New(closed))

	ctx, stop := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); _ = e.pump.Run(ctx) }()
	require.Eventually(t, func() bool { _, ok := state.Get(); return ok }, 10*time.Second, time.Millisecond, "paused on the mailbox")
	stop() // the lead term ends during the outage
	<-done
	_, ok := state.Get()
	require.False(t, ok, "a pump that stopped shows no pause")

	// A pause left behind (as by a pump that never returned) is cleared by
	// the next term's pump.
	_, _ = e.pump.Step(t.Context())
	_, ok = state.Get()
	require.True(t, ok)
	e.useRaw(e.Mailbox)
	next := New(e.Store, envReader{e}, nil, e.Clock, e.pump.log, e.pump.cfg)
	ctx, stop = context.WithCancel(t.Context())
	stop()
	require.NoError(t, next.Run(ctx))
	_, ok = state.Get()
	require.False(t, ok, "the next term starts clean")
}

// The mailbox side of the probe: a read of the message's row that the
// mailbox refuses (as a MariaDB max_statement_time would) while the mailbox
// answers its probe is the message's failure: counted, never a pause.
func TestOwnMailboxReadFailureIsCounted(t *testing.T) {
	t.Parallel()
	state := &PauseState{}
	e := newEnv(t, func(c *Config) { c.Pause = state; c.MaxAttempts = 2 })
	bad := e.Send(t, schd("ADFT", fltr(1)))
	e.useRaw(readerFunc(func(ctx context.Context, ids []int64) (map[int64][]byte, error) {
		if slices.Contains(ids, bad) {
			return nil, fmt.Errorf("mailbox: read: %w: Query execution was interrupted (max_statement_time exceeded)", mailbox.ErrUnavailable)
		}
		return e.Mailbox.ReadRaws(ctx, ids)
	}))
	for range 5 {
		wait, err := e.pump.Step(t.Context())
		require.NoError(t, err)
		_, paused := state.Get()
		require.False(t, paused, "the mailbox answers: no pause")
		e.Clock.Advance(wait)
	}
	m := e.msg(t, bad)
	require.Equal(t, vocab.StatusDead, m.Status)
	require.Equal(t, "EXHAUSTED", m.ErrorClass)
}
