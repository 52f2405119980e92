package ingress_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/ingress"
	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/testenv"
	"github.com/msgx-aodb/msgx/internal/vocab"
	"github.com/msgx-aodb/msgx/internal/wake"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// ingressEnv is testenv's: msgx's PostgreSQL store, a MariaDB mailbox and a fake clock.
type ingressEnv struct{ *testenv.Env }

func newIngressEnv(t *testing.T) *ingressEnv { t.Helper(); return &ingressEnv{testenv.New(t)} }

func (e *ingressEnv) poller(cfg ingress.Config) *ingress.Poller {
	return ingress.NewPoller(e.Store, e.Mailbox, e.Clock, quiet, cfg)
}

// insertRow writes an inbound row with an explicit id, as the AODB does when
// it commits a smaller id late; receivedAt is stored as testenv.Zone wall time.
func (e *ingressEnv) insertRow(t *testing.T, id int64, receivedAt time.Time) {
	t.Helper()
	_, err := e.MailboxDB.ExecContext(t.Context(),
		"INSERT INTO cminmsgs (CMINMSGS_ID, CMINMSGS_CLOB_MSG, CMINMSGS_DATE_RECEIVED, CMINMSGS_STATUS) VALUES (?, '<MSG/>', ?, 'VALID')",
		id, receivedAt.In(testenv.Zone).Format(time.DateTime))
	require.NoError(t, err)
}

// queue lists the unfinished messages in queue order.
func (e *ingressEnv) queue(t *testing.T) []vocab.QueueEntry {
	t.Helper()
	ms, err := e.Store.QueueHead(t.Context(), 1000)
	require.NoError(t, err)
	return ms
}

func (e *ingressEnv) queuedIDs(t *testing.T) []int64 {
	t.Helper()
	var ids []int64
	for _, m := range e.queue(t) {
		ids = append(ids, m.ID)
	}
	return ids
}

func (e *ingressEnv) mark(t *testing.T) int64 {
	t.Helper()
	m, err := e.Store.IngressMark(t.Context(), "cminmsgs")
	require.NoError(t, err)
	return m
}

func poll(t *testing.T, p *ingress.Poller) int {
	t.Helper()
	n, err := p.PollOnce(t.Context())
	require.NoError(t, err)
	return n
}

func TestPollEnqueuesInIDOrder(t *testing.T) {
	t.Parallel()
	e := newIngressEnv(t)
	var ids []int64
	for range 5 {
		id, err := e.Mailbox.Insert(t.Context(), []byte("<MSG/>"), testenv.Start)
		require.NoError(t, err)
		ids = append(ids, id)
	}
	require.Equal(t, 5, poll(t, e.poller(ingress.Config{})))
	require.Equal(t, ids, e.queuedIDs(t))
	for _, m := range e.queue(t) {
		require.Equal(t, vocab.StatusPending, m.Status)
	}
	require.Equal(t, ids[4], e.mark(t))
}

// Polling again (forward read and rescan both see the same unprocessed rows)
// enqueues nothing twice and keeps first_seen_at, the head-deadline start.
func TestPollRescanIsHarmless(t *testing.T) {
	t.Parallel()
	e := newIngressEnv(t)
	for id := int64(1); id <= 4; id++ {
		e.insertRow(t, id, testenv.Start)
	}
	p := e.poller(ingress.Config{})
	require.Equal(t, 4, poll(t, p))
	e.Clock.Advance(time.Minute)
	require.Zero(t, poll(t, p))
	require.Zero(t, poll(t, e.poller(ingress.Config{})), "a fresh poller rescans from the window start")
	q := e.queue(t)
	require.Len(t, q, 4)
	for _, m := range q {
		require.True(t, m.FirstSeenAt.Equal(testenv.Start), "first_seen_at of %d moved to %v", m.ID, m.FirstSeenAt)
	}
}

// A row committed after a larger id moved the watermark past it is found by
// the rescan, and queued in id order before the larger ones.
func TestPollRescanFindsLateSmallerID(t *testing.T) {
	t.Parallel()
	e := newIngressEnv(t)
	e.insertRow(t, 10, testenv.Start)
	e.insertRow(t, 12, testenv.Start)
	p := e.poller(ingress.Config{})
	require.Equal(t, 1, poll(t, p), "11 is a hole: 12 waits")
	e.Clock.Advance(ingress.DefaultGapWait)
	require.Equal(t, 1, poll(t, p), "the hole is given up")
	require.Equal(t, int64(12), e.mark(t))

	e.Clock.Advance(time.Minute)
	e.insertRow(t, 11, e.Clock.Now())
	require.Equal(t, 1, poll(t, p))
	require.Equal(t, []int64{10, 11, 12}, e.queuedIDs(t))
	require.Equal(t, int64(12), e.mark(t), "the watermark never moves back")
}

// With no watermark the first visible row starts the ids (docs/design.md
// §1.1): nothing below it is a hole, as no row there can be told from a
// purged or never-allocated id. A row that still commits below it is not
// lost: the rescan behind the watermark enqueues it.
func TestFirstPollStartsAtTheFirstVisibleRow(t *testing.T) {
	t.Parallel()
	e := newIngressEnv(t)
	for id := int64(100); id <= 102; id++ {
		e.insertRow(t, id, testenv.Start)
	}
	p := e.poller(ingress.Config{})
	require.Equal(t, 3, poll(t, p), "nothing waits for the ids below 100")
	require.Equal(t, int64(102), e.mark(t))
	irr, err := e.Store.IngressIrregular(t.Context(), time.Time{}, 10)
	require.NoError(t, err)
	require.Zero(t, irr.Gaps, "no gap recorded below the first row")

	e.Clock.Advance(time.Second)
	e.insertRow(t, 99, e.Clock.Now()) // an insert that was in flight at the first poll
	require.Equal(t, 1, poll(t, p))
	require.Equal(t, []int64{99, 100, 101, 102}, e.queuedIDs(t))
}

// The rescan is bounded by age and distance: rows outside either are left alone.
func TestPollRescanWindowIsBounded(t *testing.T) {
	t.Parallel()
	e := newIngressEnv(t)
	e.insertRow(t, 100, testenv.Start)
	p := e.poller(ingress.Config{RescanDistance: 10, RescanAge: 10 * time.Minute})
	require.Equal(t, 1, poll(t, p))

	e.Clock.Advance(time.Hour)
	now := e.Clock.Now()
	e.insertRow(t, 95, now.Add(-11*time.Minute)) // too old
	e.insertRow(t, 89, now)                      // too far behind (window is (90, 100])
	e.insertRow(t, 96, now.Add(-9*time.Minute))  // inside: proves the rescan ran
	require.Equal(t, 1, poll(t, p))
	require.Equal(t, []int64{96, 100}, e.queuedIDs(t))
}

// Each poll reads at most Batch rows after the mark and Batch rows behind it;
// the rescan pages through its window, so a late row is found even behind
// more than a batch of queued rows.
func TestPollBatchesAreBounded(t *testing.T) {
	t.Parallel()
	e := newIngressEnv(t)
	for _, id := range []int64{1, 2, 3, 4, 5, 7, 8} {
		e.insertRow(t, id, testenv.Start)
	}
	p := e.poller(ingress.Config{Batch: 3})
	require.Equal(t, 3, poll(t, p))
	require.Equal(t, []int64{1, 2, 3}, e.queuedIDs(t))
	require.Equal(t, int64(3), e.mark(t))
	require.Equal(t, 2, poll(t, p), "up to the hole at 6")
	require.Equal(t, []int64{1, 2, 3, 4, 5}, e.queuedIDs(t))
	require.Equal(t, int64(5), e.mark(t))
	e.Clock.Advance(ingress.DefaultGapWait)
	require.Equal(t, 2, poll(t, p), "the hole given up: 7 and 8")
	require.Equal(t, int64(8), e.mark(t))

	e.insertRow(t, 6, testenv.Start) // late, behind more than a batch of queued rows
	found := 0
	for range 3 {
		found += poll(t, p)
	}
	require.Equal(t, 1, found, "6 by the rescan")
	require.Equal(t, int64(8), e.mark(t))
	require.Equal(t, []int64{1, 2, 3, 4, 5, 6, 7, 8}, e.queuedIDs(t))
}

// The watermark is persistent: a new poller (a restart) continues after it.
func TestPollWatermarkSurvivesRestart(t *testing.T) {
	t.Parallel()
	e := newIngressEnv(t)
	for id := int64(1); id <= 3; id++ {
		e.insertRow(t, id, testenv.Start)
	}
	require.Equal(t, 2, poll(t, e.poller(ingress.Config{Batch: 2})))
	require.Equal(t, int64(2), e.mark(t))
	// From mark 0 a batch of 2 would read only the known ids 1 and 2.
	require.Equal(t, 1, poll(t, e.poller(ingress.Config{Batch: 2})))
	require.Equal(t, int64(3), e.mark(t))
}

// A mailbox outage is an error and leaves the watermark where it was.
func TestPollMailboxDownKeepsWatermark(t *testing.T) {
	t.Parallel()
	e := newIngressEnv(t)
	e.insertRow(t, 1, testenv.Start)
	down, err := mailbox.Open(t.Context(), e.MailboxDSN)
	require.NoError(t, err)
	require.NoError(t, down.Close())
	p := ingress.NewPoller(e.Store, mailbox.New(down), e.Clock, quiet, ingress.Config{})
	_, err = p.PollOnce(t.Context())
	require.ErrorIs(t, err, mailbox.ErrUnavailable)
	require.Zero(t, e.mark(t))
	require.Empty(t, e.queue(t))
}

func TestPollerRunPollsOnTheClock(t *testing.T) {
	t.Parallel()
	e := newIngressEnv(t)
	e.insertRow(t, 1, testenv.Start)
	ctx, cancel := context.WithCancel(t.Context())
	stopped := make(chan error)
	go func() { stopped <- e.poller(ingress.Config{Interval: time.Second}).Run(ctx) }()

	// The first poll runs at start, without the clock; then the poller
	// waits on the clock (a waiter), and only the clock moves it on.
	require.Eventually(t, func() bool { return e.Clock.Waiters() == 1 }, 10*time.Second, time.Millisecond)
	require.Equal(t, int64(1), e.mark(t), "the first poll ran at start")
	e.insertRow(t, 2, testenv.Start)
	require.Equal(t, 1, e.Clock.Waiters(), "still waiting: no poll before the interval passes")
	require.Equal(t, int64(1), e.mark(t))
	e.Clock.Advance(time.Second)
	require.Eventually(t, func() bool { return e.Clock.Waiters() == 1 && e.mark(t) == 2 }, 10*time.Second, time.Millisecond,
		"the interval passed: one poll, then a wait again")
	cancel()
	require.NoError(t, <-stopped)
}

// A send rings Inserted: the poller polls at once, not at its next interval.
func TestPollerRunPollsWhenWoken(t *testing.T) {
	t.Parallel()
	e := newIngressEnv(t)
	e.insertRow(t, 1, testenv.Start)
	inserted := wake.New()
	ctx, cancel := context.WithCancel(t.Context())
	stopped := make(chan error)
	go func() { stopped <- e.poller(ingress.Config{Inserted: inserted, Interval: time.Hour}).Run(ctx) }()
	require.Eventually(t, func() bool { return e.Clock.Waiters() == 1 && e.mark(t) == 1 }, 10*time.Second, time.Millisecond)
	e.insertRow(t, 2, testenv.Start)
	inserted.Ring()
	require.Eventually(t, func() bool { return e.mark(t) == 2 }, 10*time.Second, time.Millisecond, "polled without the clock moving")
	cancel()
	require.NoError(t, <-stopped)
}

// The rescan reads only the ids of its window the poller has not passed:
// after a drain of consecutive ids it reads nothing, however many of them
// wait unprocessed (it read a Batch of them on every poll); a row committed
// late in a hole is still found.
func TestRescanSkipsTheIDsThePollerPassed(t *testing.T) {
	t.Parallel()
	e := newIngressEnv(t)
	e.MailboxDB.SetMaxOpenConns(1) // the session counters are the mailbox's reads
	for id := int64(1); id <= 600; id++ {
		if id != 300 {
			e.insertRow(t, id, testenv.Start)
		}
	}
	p := e.poller(ingress.Config{})
	poll(t, p)
	e.Clock.Advance(ingress.DefaultGapWait)
	for poll(t, p) > 0 {
	}
	require.Equal(t, int64(600), e.mark(t))

	before := testdb.MailboxReads(t, e.MailboxDB)
	require.Zero(t, poll(t, p))
	require.LessOrEqual(t, testdb.MailboxReads(t, e.MailboxDB)-before, int64(5), "599 unprocessed rows behind the mark, none read again")

	e.insertRow(t, 300, e.Clock.Now()) // committed late, in the hole given up
	require.Equal(t, 1, poll(t, p))
	require.Contains(t, e.queuedIDs(t), int64(300))
}

// The poller hands the pump the size of every row it enqueues after the
// watermark, read with the ids: the pump's budget reads no row twice.
func TestPollerHandsTheSizesToThePump(t *testing.T) {
	t.Parallel()
	e := newIngressEnv(t)
	e.insertRow(t, 1, testenv.Start)
	e.insertRow(t, 2, testenv.Start)
	sizes := ingress.NewSizeHints()
	p := e.poller(ingress.Config{Sizes: sizes})
	require.Equal(t, 2, poll(t, p))
	e.MailboxDB.SetMaxOpenConns(1)
	before := testdb.MailboxReads(t, e.MailboxDB)
	got, err := sizes.Reader(e.Mailbox).RawSizes(t.Context(), []int64{1, 2})
	require.NoError(t, err)
	require.Equal(t, map[int64]int{1: len("<MSG/>"), 2: len("<MSG/>")}, got)
	require.Zero(t, testdb.MailboxReads(t, e.MailboxDB)-before, "no read of the mailbox")
}
