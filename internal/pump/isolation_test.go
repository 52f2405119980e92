package pump

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// countingStore counts transactions and savepoints on the real store.
type countingStore struct {
	store.Store
	txs, savepoints int
}

func (c *countingStore) Begin(ctx context.Context) (store.Tx, error) {
	tx, err := c.Store.Begin(ctx)
	if err != nil {
		return nil, err
	}
	c.txs++
	return &countingTx{Tx: tx, c: c}, nil
}

type countingTx struct {
	store.Tx
	c *countingStore
}

func (t *countingTx) Begin(ctx context.Context) (store.Tx, error) {
	t.c.savepoints++
	return t.Tx.Begin(ctx)
}

// finishLog is an Observer that records every reported outcome.
type finishLog struct {
	mu       sync.Mutex
	statuses []string
}

func (f *finishLog) MessageFinished(_, status, _ string, _ time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.statuses = append(f.statuses, status)
}
func (f *finishLog) BackfillDone(int) {}
func (f *finishLog) BackfillFailed()  {}
func (f *finishLog) count(status string) (n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range f.statuses {
		if s == status {
			n++
		}
	}
	return n
}

// Messages refused at decode settle inside a batch, a snapshot is settled
// alone in a transaction of its own, and the messages after it are batched
// again: nothing goes one by one behind an odd message. Every outcome is
// reported once, after its commit.
func TestBatchingGoesOnAroundOddMessages(t *testing.T) {
	t.Parallel()
	log := &finishLog{}
	e := newEnv(t, func(c *Config) { c.Observer = log })
	e.Send(t, schd("ADFT", fltr(1), fltr(2)))
	e.StepUntilWait(t)
	cs := &countingStore{Store: e.Store}
	e.pump.store = cs

	var bad []int64
	var snapshot int64
	for i := range 40 {
		switch i {
		case 10:
			bad = append(bad, e.Send(t, "<MSG><META>broken"))
		case 20:
			snapshot = e.Send(t, schd("DNLD", fltr(1), fltr(2)))
		case 30:
			bad = append(bad, e.Send(t, envelope("SCHD", "UPD", "<SCHD><RECS>2</RECS>"+fltr(2)+"</SCHD>"))) // RECS mismatch
		default:
			e.Send(t, flop("STND", int64(1+i%2), "<STND>S"+string(rune('A'+i%26))+"</STND>"))
		}
	}
	e.StepUntilWait(t)

	require.Equal(t, "MALFORMED", e.msg(t, bad[0]).ErrorClass)
	require.Equal(t, "PROTOCOL", e.msg(t, bad[1]).ErrorClass)
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, snapshot).Status)
	require.Equal(t, 3, cs.txs, "a batch up to the snapshot, the snapshot alone, a batch after it")
	require.Equal(t, 1, cs.savepoints, "only the snapshot took the single-message path")
	require.Equal(t, 1+37+1, log.count(vocab.StatusSucceeded), "each outcome reported once (the ADFT, the FLOPs, the DNLD)")
	require.Equal(t, 2, log.count(vocab.StatusDead))
	require.Equal(t, int64(37), e.flight(t, 1).StateVersion+e.flight(t, 2).StateVersion-2, "every FLOP applied once")
}

// A batch that fails is retried in halves: the failing message ends up
// alone and fails on its own, everything before it commits, and nothing is
// reported for the rolled-back attempts.
func TestFailingBatchIsHalvedToTheFailingMessage(t *testing.T) {
	t.Parallel()
	log := &finishLog{}
	e := newEnv(t, func(c *Config) { c.Observer = log })
	e.Send(t, schd("ADFT", fltr(1), fltr(2)))
	e.StepUntilWait(t)
	fs := &failingFLIDStore{Store: e.Store, flid: 2}
	e.pump.store = fs

	var ids []int64
	for i := range 16 {
		flid := int64(1)
		if i == 11 {
			flid = 2 // the one message whose write fails
		}
		ids = append(ids, e.Send(t, flop("STND", flid, "<STND>"+string(rune('A'+i))+"</STND>")))
	}
	e.StepUntilWait(t)
	for i, id := range ids {
		m := e.msg(t, id)
		switch {
		case i < 11:
			require.Equal(t, vocab.StatusSucceeded, m.Status, "message %d before the failing one", i)
		case i == 11:
			require.Equal(t, vocab.StatusFailed, m.Status)
			require.Equal(t, 1, m.Attempts, "the failure lands on exactly that message, once")
		default:
			require.Equal(t, vocab.StatusPending, m.Status, "nothing passes the failed head")
		}
	}
	require.Equal(t, 1+11, log.count(vocab.StatusSucceeded), "rolled-back attempts report nothing (the ADFT and 11 FLOPs)")
	require.Equal(t, "K", e.flight(t, 1).Scalars["STND"].Raw)
}

// failingFLIDStore fails every flight write that touches one flight.
type failingFLIDStore struct {
	store.Store
	flid int64
}

func (f *failingFLIDStore) Begin(ctx context.Context) (store.Tx, error) {
	tx, err := f.Store.Begin(ctx)
	if err != nil {
		return nil, err
	}
	return &failingFLIDTx{Tx: tx, flid: f.flid}, nil
}

type failingFLIDTx struct {
	store.Tx
	flid int64
}

func (t *failingFLIDTx) Begin(ctx context.Context) (store.Tx, error) {
	tx, err := t.Tx.Begin(ctx)
	if err != nil {
		return nil, err
	}
	return &failingFLIDTx{Tx: tx, flid: t.flid}, nil
}

func (t *failingFLIDTx) WriteFlights(ctx context.Context, ws []vocab.FlightWrite, now time.Time) error {
	for _, w := range ws {
		if w.State.FLID == t.flid {
			return errStatement
		}
	}
	return t.Tx.WriteFlights(ctx, ws, now)
}
