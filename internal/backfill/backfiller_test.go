package backfill_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/backfill"
	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/testenv"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

var (
	farFuture = time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)
	quiet     = slog.New(slog.NewTextHandler(io.Discard, nil))
)

// backfillEnv is testenv's: msgx's PostgreSQL store, a MariaDB mailbox and a fake clock.
type backfillEnv struct{ *testenv.Env }

func newBackfillEnv(t *testing.T) *backfillEnv { t.Helper(); return &backfillEnv{testenv.New(t)} }

// committed is what the business transaction leaves: a mailbox row and its
// terminal PROC_STATE row, processed at the current clock time, above the
// backfill mark (so no todo); the backfill its commit hands over.
func (e *backfillEnv) committed(t *testing.T, status string) vocab.Backfill {
	t.Helper()
	id, err := e.Mailbox.Insert(t.Context(), []byte("<MSG/>"), e.Clock.Now())
	require.NoError(t, err)
	seqn := int64(4711)
	dttm := e.Clock.Now().Add(-time.Minute)
	b := vocab.Backfill{MsgID: id, MailboxStatus: status, ProcessedAt: e.Clock.Now(), NextAttemptAt: e.Clock.Now(),
		Meta: vocab.Meta{Sndr: "AODB", Seqn: &seqn, Dttm: &dttm, Type: "FLOP", Styp: "GTDT"}}
	_, err = e.Store.Enqueue(t.Context(), []int64{id}, e.Clock.Now())
	require.NoError(t, err)
	require.NoError(t, e.Store.FinishMessages(t.Context(), []vocab.Finish{{MsgID: id, Status: status, Now: e.Clock.Now(),
		Bind: &vocab.Binding{IdentityKey: fmt.Sprintf("FLOP:%d", id), Kind: "FLOP", Meta: b.Meta}}}))
	mark, err := e.Store.BackfillMark(t.Context())
	require.NoError(t, err)
	require.Less(t, mark, id, "registered by the mark, not by a todo")
	return b
}

// todo returns the pending todo of a message, or nil.
func (e *backfillEnv) todo(t *testing.T, msgID int64) *vocab.Backfill {
	t.Helper()
	all, err := e.Store.DueBackfills(t.Context(), farFuture, 1000)
	require.NoError(t, err)
	for _, b := range all {
		if b.MsgID == msgID {
			return &b
		}
	}
	return nil
}

// outstanding says whether a message's backfill is still to do: it has a
// todo, or it is above the mark.
func (e *backfillEnv) outstanding(t *testing.T, msgID int64) bool {
	t.Helper()
	mark, err := e.Store.BackfillMark(t.Context())
	require.NoError(t, err)
	return e.todo(t, msgID) != nil || msgID > mark
}

func (e *backfillEnv) backfiller(mb *mailbox.Mailbox) *backfill.Backfiller {
	return backfill.New(e.Store, mb, e.Clock, quiet, backfill.Config{})
}

// downMailbox is a mailbox whose connection pool is closed.
func (e *backfillEnv) downMailbox(t *testing.T) *mailbox.Mailbox {
	t.Helper()
	db, err := mailbox.Open(t.Context(), e.MailboxDSN)
	require.NoError(t, err)
	require.NoError(t, db.Close())
	return mailbox.New(db, mailbox.WithZone(testenv.Zone))
}

func sweep(t *testing.T, b *backfill.Backfiller) (int, int) {
	t.Helper()
	done, failed, err := b.Sweep(t.Context())
	require.NoError(t, err)
	return done, failed
}

func TestBackfillSweepWritesMailboxOnce(t *testing.T) {
	t.Parallel()
	e := newBackfillEnv(t)
	b := e.committed(t, vocab.StatusSucceeded)
	e.Clock.Advance(time.Minute) // the sweep runs later; DATE_PROCESSED stays the commit time
	bf := e.backfiller(e.Mailbox)

	done, failed := sweep(t, bf)
	require.Equal(t, [2]int{1, 0}, [2]int{done, failed})
	require.False(t, e.outstanding(t, b.MsgID), "a completed backfill deletes its todo")
	row, err := e.Mailbox.Get(t.Context(), b.MsgID)
	require.NoError(t, err)
	require.Equal(t, "SUCCEEDED", row.Status)
	require.True(t, row.ProcessedAt.Equal(b.ProcessedAt), "processed at %v", row.ProcessedAt)
	require.Equal(t, "AODB", row.Sndr)
	require.Equal(t, int64(4711), *row.Seqn)
	require.True(t, row.DateSent.Equal(*b.Meta.Dttm))
	require.Equal(t, "FLOP", row.Type)
	require.Equal(t, "GTDT", row.Subtype)

	// Nothing due: a second sweep does nothing.
	done, failed = sweep(t, bf)
	require.Zero(t, done+failed)

	// A todo for a row already backfilled (e.g. re-registered after a crash)
	// counts as done and does not overwrite the mailbox.
	again := b
	again.MailboxStatus, again.ProcessedAt, again.NextAttemptAt = vocab.StatusDead, e.Clock.Now(), e.Clock.Now()
	require.NoError(t, e.Store.AddBackfills(t.Context(), []vocab.Backfill{again}))
	done, _ = sweep(t, bf)
	require.Equal(t, 1, done)
	require.False(t, e.outstanding(t, b.MsgID))
	after, err := e.Mailbox.Get(t.Context(), b.MsgID)
	require.NoError(t, err)
	require.Equal(t, row, after, "backfilled once")
}

// A todo whose mailbox row the AODB removed is dropped, not retried for ever.
func TestBackfillMissingRowDropsTodo(t *testing.T) {
	t.Parallel()
	e := newBackfillEnv(t)
	b := e.committed(t, vocab.StatusSkipped)
	_, err := e.MailboxDB.ExecContext(t.Context(), "DELETE FROM cminmsgs WHERE CMINMSGS_ID = ?", b.MsgID)
	require.NoError(t, err)
	done, failed := sweep(t, e.backfiller(e.Mailbox))
	require.Equal(t, [2]int{1, 0}, [2]int{done, failed})
	require.False(t, e.outstanding(t, b.MsgID))
}

// While the mailbox is down each attempt reschedules the todo 30 s, 60 s, ...
// later, capped at 15 min; once it is back the next due sweep completes it.
func TestBackfillFailureBacksOff(t *testing.T) {
	t.Parallel()
	e := newBackfillEnv(t)
	b := e.committed(t, vocab.StatusSucceeded)
	down := e.backfiller(e.downMailbox(t))

	want := []time.Duration{30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute,
		15 * time.Minute, 15 * time.Minute}
	for i, d := range want {
		done, failed, err := down.Sweep(t.Context())
		require.ErrorIs(t, err, mailbox.ErrUnavailable)
		require.Equal(t, [2]int{0, 1}, [2]int{done, failed})
		todo := e.todo(t, b.MsgID)
		require.NotNil(t, todo)
		require.Equal(t, i+1, todo.Attempts)
		require.True(t, todo.NextAttemptAt.Equal(e.Clock.Now().Add(d)), "attempt %d: next %v, want now+%v", i+1, todo.NextAttemptAt, d)
		require.Contains(t, todo.LastError, "unavailable")

		// Not due before its time.
		e.Clock.Advance(d - time.Second)
		done, failed = sweep(t, down)
		require.Zero(t, done+failed)
		e.Clock.Advance(time.Second)
	}

	done, failed := sweep(t, e.backfiller(e.Mailbox))
	require.Equal(t, [2]int{1, 0}, [2]int{done, failed})
	require.False(t, e.outstanding(t, b.MsgID))
	row, err := e.Mailbox.Get(t.Context(), b.MsgID)
	require.NoError(t, err)
	require.True(t, row.ProcessedAt.Equal(b.ProcessedAt), "the commit time, not the retry time")
}

// A sweep writes its todos in one mailbox transaction: an outage fails the
// whole batch, and every todo of it is rescheduled with its backoff.
func TestBackfillOutageReschedulesTheBatch(t *testing.T) {
	t.Parallel()
	e := newBackfillEnv(t)
	first := e.committed(t, vocab.StatusSucceeded)
	second := e.committed(t, vocab.StatusSucceeded)
	done, failed, err := e.backfiller(e.downMailbox(t)).Sweep(t.Context())
	require.ErrorIs(t, err, mailbox.ErrUnavailable)
	require.Equal(t, [2]int{0, 2}, [2]int{done, failed})
	for _, b := range []vocab.Backfill{first, second} {
		todo := e.todo(t, b.MsgID)
		require.Equal(t, 1, todo.Attempts)
		require.True(t, todo.NextAttemptAt.Equal(e.Clock.Now().Add(30*time.Second)))
	}
	done, _, err = e.backfiller(e.Mailbox).Sweep(t.Context())
	require.NoError(t, err)
	require.Zero(t, done, "not due during the backoff")
}

// Todos Notify could not hand over (Run busy, its queue full) are swept as
// soon as Run is free, not at its next interval (rule 20: the clock never
// moves here, so the interval never comes).
func TestTodosNotifyCouldNotHandOverAreSweptAtOnce(t *testing.T) {
	t.Parallel()
	e := newBackfillEnv(t)
	b := e.backfiller(e.Mailbox)
	ctx, cancel := context.WithCancel(t.Context())
	stopped := make(chan struct{})
	go func() { _ = b.Run(ctx); close(stopped) }()
	t.Cleanup(func() { cancel(); <-stopped })
	require.Eventually(t, func() bool { return e.Clock.Waiters() == 1 }, 10*time.Second, time.Millisecond, "Run waits for its interval")

	// Run is kept busy by a todo whose row another transaction holds.
	busy := e.committed(t, vocab.StatusSucceeded)
	tx, err := e.MailboxDB.BeginTx(t.Context(), nil)
	require.NoError(t, err)
	defer tx.Rollback()
	_, err = tx.ExecContext(t.Context(), "SELECT 1 FROM cminmsgs WHERE CMINMSGS_ID = ? FOR UPDATE", busy.MsgID)
	require.NoError(t, err)
	b.Notify(t.Context(), []vocab.Backfill{busy})
	for range 64 { // Run's queue: full whether or not it took busy's batch
		b.Notify(t.Context(), nil)
	}
	dropped := e.committed(t, vocab.StatusSucceeded)
	b.Notify(t.Context(), []vocab.Backfill{dropped})
	require.NoError(t, tx.Rollback())

	require.Eventually(t, func() bool { return !e.outstanding(t, dropped.MsgID) }, 10*time.Second, 10*time.Millisecond,
		"the dropped todo is swept without waiting for the interval")
	row, err := e.Mailbox.Get(t.Context(), dropped.MsgID)
	require.NoError(t, err)
	require.Equal(t, "SUCCEEDED", row.Status)
}

// The pump's path right after a commit: same handling as the sweep.
func TestBackfillNow(t *testing.T) {
	t.Parallel()
	e := newBackfillEnv(t)
	ok := e.committed(t, vocab.StatusSucceeded)
	e.backfiller(e.Mailbox).BackfillNow(t.Context(), []vocab.Backfill{ok})
	require.False(t, e.outstanding(t, ok.MsgID))
	row, err := e.Mailbox.Get(t.Context(), ok.MsgID)
	require.NoError(t, err)
	require.Equal(t, "SUCCEEDED", row.Status)

	failing := e.committed(t, vocab.StatusDead)
	e.backfiller(e.downMailbox(t)).BackfillNow(t.Context(), []vocab.Backfill{failing})
	todo := e.todo(t, failing.MsgID)
	require.NotNil(t, todo, "left for the sweep")
	require.Equal(t, 1, todo.Attempts)
	require.True(t, todo.NextAttemptAt.Equal(e.Clock.Now().Add(30*time.Second)))
}

// Run sweeps at start (todos left by a crash between commit and backfill),
// then every Interval of the clock.
func TestBackfillRunSweepsAtStartThenOnInterval(t *testing.T) {
	t.Parallel()
	e := newBackfillEnv(t)
	left := e.committed(t, vocab.StatusSucceeded)
	ctx, cancel := context.WithCancel(t.Context())
	stopped := make(chan error)
	go func() { stopped <- e.backfiller(e.Mailbox).Run(ctx) }()

	require.Eventually(t, func() bool { return !e.outstanding(t, left.MsgID) }, 10*time.Second, 5*time.Millisecond)
	next := e.committed(t, vocab.StatusSucceeded)
	require.Never(t, func() bool { return !e.outstanding(t, next.MsgID) }, 100*time.Millisecond, 10*time.Millisecond,
		"no sweep before the interval passes")
	require.Eventually(t, func() bool {
		e.Clock.Advance(30 * time.Second)
		return !e.outstanding(t, next.MsgID)
	}, 10*time.Second, 5*time.Millisecond)
	row, err := e.Mailbox.Get(t.Context(), next.MsgID)
	require.NoError(t, err)
	require.NotNil(t, row.ProcessedAt)
	cancel()
	require.NoError(t, <-stopped)
}

// Todos the pump hands over are backfilled as they come, without waiting for
// the next sweep.
func TestBackfillRunTakesNotifiedTodos(t *testing.T) {
	t.Parallel()
	e := newBackfillEnv(t)
	bf := e.backfiller(e.Mailbox)
	left := e.committed(t, vocab.StatusSucceeded)
	ctx, cancel := context.WithCancel(t.Context())
	stopped := make(chan error)
	go func() { stopped <- bf.Run(ctx) }()
	require.Eventually(t, func() bool { return !e.outstanding(t, left.MsgID) }, 10*time.Second, 5*time.Millisecond,
		"the sweep at start is done")

	b := e.committed(t, vocab.StatusSucceeded)
	bf.Notify(t.Context(), []vocab.Backfill{b})
	require.Eventually(t, func() bool { return !e.outstanding(t, b.MsgID) }, 10*time.Second, 5*time.Millisecond,
		"done with the fake clock standing still: no sweep interval passed")
	row, err := e.Mailbox.Get(t.Context(), b.MsgID)
	require.NoError(t, err)
	require.Equal(t, "SUCCEEDED", row.Status)
	cancel()
	require.NoError(t, <-stopped)
}

// A backlog drains in one sweep, batch after batch, until a short batch.
func TestBackfillSweepDrainsInBatches(t *testing.T) {
	t.Parallel()
	e := newBackfillEnv(t)
	for range 11 {
		e.committed(t, vocab.StatusSucceeded)
	}
	b := backfill.New(e.Store, e.Mailbox, e.Clock, quiet, backfill.Config{Batch: 10})
	done, failed := sweep(t, b)
	require.Equal(t, 11, done, "10, then a short batch of 1")
	require.Zero(t, failed)
	all, err := e.Store.DueBackfills(t.Context(), farFuture, 100)
	require.NoError(t, err)
	require.Empty(t, all)
}
