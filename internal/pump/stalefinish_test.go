package pump

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// The batch transaction locks no message row: each message is applied as
// the step read it and its finish writes it only while it is still so
// (vocab.Finish.Read). These scenarios replay the head between the step's
// read and its finish, through a hook in the pump's transaction, and check
// that the pump starts again from a fresh read instead of finishing the
// message as it was before the replay.

// hookStore runs beforeFinish once, in the next transaction of the pump
// that finishes messages, right before its finish (after every other write).
type hookStore struct {
	store.Store
	beforeFinish func(ctx context.Context)
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

func (t *hookTx) FinishMessages(ctx context.Context, finishes []vocab.Finish) error {
	if hook := t.h.beforeFinish; hook != nil {
		t.h.beforeFinish = nil
		hook(ctx)
	}
	return t.Tx.FinishMessages(ctx, finishes)
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

// A replay of the FAILED head committed after the step read it: the batch's
// finish finds the head no longer as read and the batch rolls back; the
// next step reads the replayed head (replay 1) and registers its backfill
// under that replay (rule 18), as overwriting the DEAD it may have been
// backfilled before.
func TestReplayBetweenReadAndFinishRestartsTheRun(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	head, all := failedHead(t, e, 1)
	hs := &hookStore{Store: e.Store}
	e.pump.store = hs
	hs.beforeFinish = func(ctx context.Context) {
		ids, err := e.Store.ReplayIDs(ctx, []int64{head}, e.Clock.Now()) // commits on its own connection
		require.NoError(t, err)
		require.Equal(t, []int64{head}, ids)
	}
	e.StepUntilWait(t)
	require.Nil(t, hs.beforeFinish, "the hook ran")

	for _, id := range all {
		require.Equal(t, vocab.StatusSucceeded, e.msg(t, id).Status, e.msg(t, id).Reason)
	}
	require.Equal(t, 1, e.msg(t, head).ReplayCount)
	todos := e.todosOf(head)
	require.Len(t, todos, 1, "the batch of the stale read committed nothing")
	require.Equal(t, int64(1), todos[0].Registration, "backfilled under the replay's registration")
	require.Equal(t, vocab.StatusDead, todos[0].OverwritesStatus)
	require.Len(t, e.events(t, head), 2, "the head's flight change is written once: a KAFKA:msg and a KAFKA:schd event")
}

// A FAILED head found exhausted, replayed before its DEAD(EXHAUSTED) is
// written: the finish is stale and writes nothing, so the replay is not
// lost; the next step processes the replayed message.
func TestReplayBeforeExhaustionIsNotLost(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.MaxAttempts = 1 })
	head, all := failedHead(t, e, 1)
	hs := &hookStore{Store: e.Store}
	e.pump.store = hs
	hs.beforeFinish = func(ctx context.Context) {
		_, err := e.Store.ReplayIDs(ctx, []int64{head}, e.Clock.Now())
		require.NoError(t, err)
	}
	e.StepUntilWait(t)
	require.Nil(t, hs.beforeFinish, "the hook ran")

	m := e.msg(t, head)
	require.Equal(t, vocab.StatusSucceeded, m.Status, "processed after its replay, not exhausted: %s", m.Reason)
	require.Equal(t, 1, m.ReplayCount)
	require.Equal(t, "INFRA", m.PrevClass)
	for _, id := range all[1:] {
		require.Equal(t, vocab.StatusSucceeded, e.msg(t, id).Status)
	}
}

// A replay in flight when the batch finishes (its UPDATE holds the head's
// row): the finish waits for it and, once it commits, checks the row's new
// version (READ COMMITTED), which fails; the next step finishes the
// replayed head. PostgreSQL only: it sees the finish wait in
// pg_stat_activity.
func TestReplayInFlightMakesTheFinishWaitAndFail(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.needPostgres(t)
	head, all := failedHead(t, e, 1)
	hs := &hookStore{Store: e.Store}
	e.pump.store = hs
	committed := make(chan error, 1)
	hs.beforeFinish = func(ctx context.Context) {
		rtx, err := e.Store.Begin(ctx)
		require.NoError(t, err)
		ids, err := rtx.ReplayIDs(ctx, []int64{head}, e.Clock.Now()) // holds the row until committed
		require.NoError(t, err)
		require.Equal(t, []int64{head}, ids)
		go func() {
			// Commit once the pump's finish waits on the row (polled, no sleep).
			for {
				var waiting int
				err := e.PG.Pool.QueryRow(context.Background(), `SELECT count(*) FROM pg_stat_activity
					WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%ProcStateFinishMany%'`).Scan(&waiting)
				if err != nil {
					committed <- err
					return
				}
				if waiting > 0 {
					break
				}
			}
			committed <- rtx.Commit(context.Background())
		}()
	}
	deadline, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	wait, err := e.pump.Step(deadline) // the batch: stale once the replay commits
	require.NoError(t, err)
	require.Zero(t, wait, "a stale batch starts again at once")
	require.NoError(t, <-committed)
	require.Equal(t, vocab.StatusPending, e.msg(t, head).Status, "the stale batch wrote nothing")
	for _, id := range all[1:] {
		require.Equal(t, vocab.StatusPending, e.msg(t, id).Status)
	}
	e.StepUntilWait(t)
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, head).Status)
	require.Equal(t, int64(1), e.todosOf(head)[0].Registration)
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
