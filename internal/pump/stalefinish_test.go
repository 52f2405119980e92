package pump

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// A replay moves ids back into the queue while the pump may hold a run it
// read outside its transaction. The replay counts itself under
// PIPELINE_LOCK (as an enqueue below the largest known id), so it commits
// either before the pump's transaction takes that lock, and the run is
// abandoned (the count moved, or the finish finds a message no longer as
// read), or after the pump's commit, finding the messages finished. These
// scenarios replay through a hook in the pump's transaction before it
// takes the lock, and check that the next step processes the replayed
// message in order. A finish also writes a message only while it is still
// as the step read it (vocab.Finish.Read), a defence kept behind the count.

// hookStore runs beforeLock once, in the pump's next transaction, right
// before it takes PIPELINE_LOCK: a replay there commits between the step's
// read and the lock (its own waits for nothing the pump holds).
type hookStore struct {
	store.Store
	beforeLock func(ctx context.Context)
}

func (h *hookStore) Begin(ctx context.Context) (store.Tx, error) {
	tx, err := h.Store.Begin(ctx)
	if err != nil {
		return nil, err
	}
	return &hookTx{Tx: tx, h: h}, nil
}

type hookTx struct {
	store.Tx
	h *hookStore
}

func (t *hookTx) LockPipeline(ctx context.Context, now time.Time) (int64, error) {
	if hook := t.h.beforeLock; hook != nil {
		t.h.beforeLock = nil
		hook(ctx)
	}
	return t.Tx.LockPipeline(ctx, now)
}

// replayBeforeLock installs a hookStore that replays id, committed on its
// own connection, in the pump's next transaction before it takes the lock.
func replayBeforeLock(t *testing.T, e *env, id int64) *hookStore {
	t.Helper()
	hs := &hookStore{Store: e.Store}
	e.pump.store = hs
	hs.beforeLock = func(ctx context.Context) {
		moved, err := e.Store.ReplayIDs(ctx, []int64{id}, e.Clock.Now())
		require.NoError(t, err)
		require.Equal(t, []int64{id}, moved)
	}
	return hs
}

// step is one pump step and how it ended.
func (e *env) step(t *testing.T) stepKind {
	t.Helper()
	res, err := e.pump.step(t.Context(), nil, e.pump.st)
	require.NoError(t, err)
	return res.kind
}

// failedHead sends three FLOPs of three flights it creates first and
// makes the first FLOP a FAILED head of a replayable class (INFRA), due
// now, with the given attempts.
func failedHead(t *testing.T, e *env, attempts int) (head int64, all []int64) {
	t.Helper()
	e.Send(t, schd("ADFT", fltr(1), fltr(2), fltr(3)))
	e.StepUntilWait(t)
	for flid := int64(1); flid <= 3; flid++ {
		all = append(all, e.Send(t, flop("STND", flid, "<STND>1</STND>")))
	}
	for range attempts {
		_, err := e.Store.RecordFailure(t.Context(), vocab.RecordFailureParams{MsgID: all[0], ErrorClass: "INFRA",
			Reason: "db down", NextAttemptAt: e.Clock.Now(), Now: e.Clock.Now()})
		require.NoError(t, err)
	}
	return all[0], all
}

// todosOf are the backfill todos the pump handed over for a message.
func (e *env) todosOf(id int64) []vocab.Backfill {
	var out []vocab.Backfill
	for _, b := range e.todos {
		if b.MsgID == id {
			out = append(out, b)
		}
	}
	return out
}

// A replay of the FAILED head committed after the step read its run,
// before the batch takes the lock: the lock's count moved, so the run is
// abandoned (overtaken, not found stale at the finish); the next step reads
// the replayed head (replay 1) and registers its backfill under that replay
// (rule 18), as overwriting the DEAD it may have been backfilled before.
func TestReplayBetweenReadAndLockRestartsTheRun(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	head, all := failedHead(t, e, 1)
	hs := replayBeforeLock(t, e, head)
	require.Equal(t, overtaken, e.step(t), "the replay counted itself under the lock")
	require.Nil(t, hs.beforeLock, "the hook ran")
	e.StepUntilWait(t)

	for _, id := range all {
		require.Equal(t, vocab.StatusSucceeded, e.msg(t, id).Status, e.msg(t, id).Reason)
	}
	require.Equal(t, 1, e.msg(t, head).ReplayCount)
	todos := e.todosOf(head)
	require.Len(t, todos, 1, "the abandoned run committed nothing")
	require.Equal(t, int64(1), todos[0].Registration, "backfilled under the replay's registration")
	require.Equal(t, vocab.StatusDead, todos[0].OverwritesStatus)
	require.Len(t, e.events(t, head), 2, "the head's flight change is written once: a KAFKA:msg and a KAFKA:schd event")
}

// The ordering the count keeps: a replayed finished id above the head (a
// DEAD id, then a late row below it) re-enters inside a run the step read
// without it. The run is abandoned and the next one holds it in order; a
// run committed as read would have finished the ids above it first.
func TestReplayInsideTheRunRestartsIt(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.MaxAttempts = 1 })
	created := e.Send(t, schd("ADFT", fltr(1)))
	e.StepUntilWait(t)
	ids := make([]int64, 4)
	for i := range ids {
		id, err := e.Mailbox.Insert(t.Context(), []byte(flop("STND", 1, fmt.Sprintf("<STND>%d</STND>", i+1))), e.Clock.Now())
		require.NoError(t, err)
		ids[i] = id
	}
	late, replayed := ids[0], ids[1]
	_, err := e.Store.Enqueue(t.Context(), []int64{replayed}, e.Clock.Now())
	require.NoError(t, err)
	_, err = e.Store.RecordFailure(t.Context(), vocab.RecordFailureParams{MsgID: replayed, ErrorClass: "INFRA",
		Reason: "db down", NextAttemptAt: e.Clock.Now(), Now: e.Clock.Now()})
	require.NoError(t, err)
	e.StepUntilWait(t)
	require.Equal(t, vocab.StatusDead, e.msg(t, replayed).Status, "exhausted")
	_, err = e.Store.Enqueue(t.Context(), []int64{late, ids[2], ids[3]}, e.Clock.Now())
	require.NoError(t, err)

	hs := replayBeforeLock(t, e, replayed)
	require.Equal(t, overtaken, e.step(t), "the run read without the replayed id is abandoned")
	require.Nil(t, hs.beforeLock, "the hook ran")
	e.StepUntilWait(t)
	for _, id := range ids {
		require.Equal(t, vocab.StatusSucceeded, e.msg(t, id).Status, e.msg(t, id).Reason)
	}
	require.Equal(t, append([]int64{created}, ids...), e.msgOrder(t, 1), "Kafka carries the flight's messages in id order")
}

// A FAILED head found exhausted, replayed before its DEAD(EXHAUSTED)
// transaction takes the lock: that finish (one message, no run) checks no
// count but finds the head no longer as read, and writes nothing, so the
// replay is not lost; the next step processes the replayed message.
func TestReplayBeforeExhaustionIsNotLost(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.MaxAttempts = 1 })
	head, all := failedHead(t, e, 1)
	hs := replayBeforeLock(t, e, head)
	require.Equal(t, stale, e.step(t), "the exhausted finish found the head replayed")
	require.Nil(t, hs.beforeLock, "the hook ran")
	e.StepUntilWait(t)

	m := e.msg(t, head)
	require.Equal(t, vocab.StatusSucceeded, m.Status, "processed after its replay, not exhausted: %s", m.Reason)
	require.Equal(t, 1, m.ReplayCount)
	require.Equal(t, "INFRA", m.PrevClass)
	for _, id := range all[1:] {
		require.Equal(t, vocab.StatusSucceeded, e.msg(t, id).Status)
	}
}

// A replay in flight when the batch takes the lock (it holds the lock row,
// which it took first, and the head's row): the batch's lock waits for it
// and, once it commits, reads the moved count (READ COMMITTED), so the run
// is abandoned without effect; the next step finishes the replayed head.
// The replay can no longer commit between the lock and the finish.
// PostgreSQL only: it sees the lock wait in pg_stat_activity.
func TestReplayInFlightMakesTheBatchWaitAndStartAgain(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.needPostgres(t)
	head, all := failedHead(t, e, 1)
	hs := &hookStore{Store: e.Store}
	e.pump.store = hs
	deadline, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	committed := make(chan error, 1)
	hs.beforeLock = func(ctx context.Context) {
		rtx, err := e.Store.Begin(ctx)
		require.NoError(t, err)
		ids, err := rtx.ReplayIDs(ctx, []int64{head}, e.Clock.Now()) // holds the rows until committed
		require.NoError(t, err)
		require.Equal(t, []int64{head}, ids)
		go func() {
			// Commit once the pump's lock waits on the row (polled, no sleep).
			if err := e.awaitLockWaiter(deadline, "PipelineLockAcquire"); err != nil {
				_ = rtx.Rollback(context.Background())
				committed <- err
				return
			}
			committed <- rtx.Commit(context.Background())
		}()
	}
	res, err := e.pump.step(deadline, nil, e.pump.st)
	require.NoError(t, err)
	require.NoError(t, <-committed)
	require.Equal(t, overtaken, res.kind, "the lock read the replay's count")
	for _, id := range all {
		require.Equal(t, vocab.StatusPending, e.msg(t, id).Status, "the abandoned run wrote nothing")
	}
	e.StepUntilWait(t)
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, head).Status)
	require.Equal(t, int64(1), e.todosOf(head)[0].Registration)
}

// awaitLockWaiter polls pg_stat_activity until a session of the test's
// database waits on a lock in the named query.
func (e *env) awaitLockWaiter(ctx context.Context, query string) error {
	for {
		var waiting int
		err := e.PG.Pool.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%' || $1 || '%'`, query).Scan(&waiting)
		if err != nil || waiting > 0 {
			return err
		}
	}
}

// corruptReadStore makes every batch's finish expect a replay count no row
// has: a check that can never pass, as a bug would make it.
type corruptReadStore struct{ store.Store }

func (c corruptReadStore) Begin(ctx context.Context) (store.Tx, error) {
	tx, err := c.Store.Begin(ctx)
	if err != nil {
		return nil, err
	}
	return corruptReadTx{tx}, nil
}

type corruptReadTx struct{ store.Tx }

func (t corruptReadTx) FinishMessages(ctx context.Context, finishes []vocab.Finish) error {
	for i := range finishes {
		finishes[i].Read.ReplayCount = 99
	}
	return t.Tx.FinishMessages(ctx, finishes)
}

// A batch stale twice in a row from the same message is halved like a
// failed one, down to messages settled alone under their row lock (whose
// finish is not the batch's): the pump never spins on a check that cannot
// pass.
func TestBatchStaleTwiceIsHalved(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Send(t, schd("ADFT", fltr(1), fltr(2), fltr(3)))
	e.StepUntilWait(t)
	var all []int64
	for flid := int64(1); flid <= 3; flid++ {
		all = append(all, e.Send(t, flop("STND", flid, "<STND>1</STND>")))
	}
	e.pump.store = corruptReadStore{e.Store}
	e.StepUntilWait(t)
	for _, id := range all {
		require.Equal(t, vocab.StatusSucceeded, e.msg(t, id).Status, e.msg(t, id).Reason)
	}
}
