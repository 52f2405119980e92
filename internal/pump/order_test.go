package pump

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/ingress"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Ids enter the queue in order (rules 1, 16): real interleaved MariaDB
// transactions against the poller and the pump.

// ingressCount is an ingress.Observer that counts.
type ingressCount struct{ gaps, late atomic.Int32 }

func (c *ingressCount) IngressGaps(n int)     { c.gaps.Add(int32(n)) }
func (c *ingressCount) IngressLateRows(n int) { c.late.Add(int32(n)) }

func (e *env) poller(t testing.TB, obs ingress.Observer) *ingress.Poller {
	t.Helper()
	return ingress.NewPoller(e.Store, e.Mailbox, e.Clock, slog.New(slog.NewTextHandler(io.Discard, nil)), ingress.Config{Observer: obs})
}

// heldInsert begins a mailbox transaction on its own connection and inserts
// a row in it, as a slow AODB writer does: InnoDB allocates the id now, and
// the row is invisible until commit. It returns the id and the transaction.
func (e *env) heldInsert(t testing.TB, xml string) (int64, *sql.Tx) {
	t.Helper()
	tx, err := e.MailboxDB.BeginTx(t.Context(), nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = tx.Rollback() })
	res, err := tx.ExecContext(t.Context(),
		"INSERT INTO cminmsgs (CMINMSGS_CLOB_MSG, CMINMSGS_DATE_RECEIVED, CMINMSGS_STATUS) VALUES (?, ?, 'VALID')",
		xml, e.Clock.Now().In(shanghai).Format(time.DateTime))
	require.NoError(t, err)
	id, err := res.LastInsertId()
	require.NoError(t, err)
	return id, tx
}

func (e *env) insert(t testing.TB, xml string) int64 {
	t.Helper()
	id, err := e.Mailbox.Insert(t.Context(), []byte(xml), e.Clock.Now())
	require.NoError(t, err)
	return id
}

func pollN(t testing.TB, p *ingress.Poller) int {
	t.Helper()
	n, err := p.PollOnce(t.Context())
	require.NoError(t, err)
	return n
}

func (e *env) stand(t testing.TB, flid int64) string {
	t.Helper()
	f := e.flight(t, flid)
	require.NotNil(t, f)
	return f.Scalars["STND"].Raw
}

// msgOrder is the message ids of a flight's Kafka msg events in EVENT_ID
// order: the order Kafka carries them.
func (e *env) msgOrder(t testing.TB, flid int64) []int64 {
	t.Helper()
	evs, err := e.Store.EventsOfFlight(t.Context(), flid)
	require.NoError(t, err)
	var ids []int64
	for _, ev := range evs {
		if ev.Target == vocab.TargetMsg {
			ids = append(ids, ev.MsgID)
		}
	}
	return ids
}

// BEGIN; INSERT held while the next row commits, then COMMIT: the older
// row is processed first, the flight ends with the newer value and Kafka
// carries the two in id order.
func TestHeldInsertEntersTheQueueFirst(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := e.poller(t, nil)
	e.insert(t, schd("UPD", fltr(2))) // a watermark: the ids run from it
	require.Equal(t, 1, pollN(t, p))
	older, held := e.heldInsert(t, schd("UPD", fltr(1, "<STND>OLD</STND>")))
	newer := e.insert(t, schd("UPD", fltr(1, "<STND>NEW</STND>")))
	require.Equal(t, older+1, newer)

	pollN(t, p)
	e.StepUntilWait(t)
	require.NoError(t, held.Commit())
	pollN(t, p)
	e.StepUntilWait(t)

	require.Equal(t, "NEW", e.stand(t, 1), "the newer value wins")
	require.Equal(t, []int64{older, newer}, e.msgOrder(t, 1), "Kafka order is id order")
	require.Nil(t, e.msg(t, older).LateAfter, "in order: not late")
}

// A rolled-back insert leaves a hole no row will fill: the row after it
// waits pipeline.gap-wait on the clock, then the hole is given up as a gap
// (counted, recorded) and the row is enqueued.
func TestRollbackHoleIsGivenUpAfterGapWait(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var obs ingressCount
	p := e.poller(t, &obs)
	first := e.insert(t, schd("UPD", fltr(1, "<STND>A</STND>")))
	require.Equal(t, 1, pollN(t, p))
	hole, tx := e.heldInsert(t, schd("UPD", fltr(1, "<STND>B</STND>")))
	after := e.insert(t, schd("UPD", fltr(1, "<STND>C</STND>")))
	require.NoError(t, tx.Rollback())

	require.Zero(t, pollN(t, p), "the hole holds the row after it")
	e.Clock.Advance(ingress.DefaultGapWait - time.Millisecond)
	require.Zero(t, pollN(t, p), "still within the gap-wait")
	require.Zero(t, obs.gaps.Load())
	e.Clock.Advance(time.Millisecond)
	require.Equal(t, 1, pollN(t, p), "the wait ran out: given up")
	require.Equal(t, int32(1), obs.gaps.Load())
	e.StepUntilWait(t)
	require.Equal(t, "C", e.stand(t, 1))
	require.Equal(t, []int64{first, after}, e.msgOrder(t, 1))

	irr, err := e.Store.IngressIrregular(t.Context(), start, 10)
	require.NoError(t, err)
	require.Equal(t, int64(1), irr.Gaps)
	require.Equal(t, store.Gap{Source: "cminmsgs", From: hole, To: hole, SeenAt: start, GivenUpAt: start.Add(ingress.DefaultGapWait)},
		store.Gap{Source: irr.LatestGaps[0].Source, From: irr.LatestGaps[0].From, To: irr.LatestGaps[0].To,
			SeenAt: irr.LatestGaps[0].SeenAt.UTC(), GivenUpAt: irr.LatestGaps[0].GivenUpAt.UTC()})
}

// A hole that fills within the wait holds, then both rows enter in order
// (the wait is from the hole's first sighting, not from each poll).
func TestHoleWaitRunsFromFirstSighting(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := e.poller(t, nil)
	e.insert(t, schd("UPD", fltr(1, "<STND>A</STND>")))
	require.Equal(t, 1, pollN(t, p))
	_, first := e.heldInsert(t, schd("UPD", fltr(1, "<STND>B</STND>")))
	_, second := e.heldInsert(t, schd("UPD", fltr(1, "<STND>C</STND>")))
	e.insert(t, schd("UPD", fltr(1, "<STND>D</STND>")))
	require.Zero(t, pollN(t, p))
	e.Clock.Advance(2 * time.Second)
	require.NoError(t, first.Commit()) // the hole shrinks to the second row
	require.Equal(t, 1, pollN(t, p), "the row that committed enters; the rest holds")
	e.Clock.Advance(time.Second)
	require.Equal(t, 1, pollN(t, p), "3 s after the hole was first seen it is given up")
	require.NoError(t, second.Rollback())
}

// Several writers, each in its own transaction, commit in the reverse of
// their id order while the poller and the pump run between the commits:
// every row is processed in id order, none late, and the flight ends with
// the value of the largest id.
func TestSeveralWritersAreProcessedInIDOrder(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := e.poller(t, nil)
	e.insert(t, schd("UPD", fltr(2))) // a watermark: the ids run from it
	require.Equal(t, 1, pollN(t, p))
	const writers, rounds = 4, 3
	var last string
	for r := range rounds {
		txs := make([]*sql.Tx, writers)
		for w := range writers {
			last = fmt.Sprintf("W%dR%d", w, r)
			_, txs[w] = e.heldInsert(t, schd("UPD", fltr(1, "<STND>"+last+"</STND>")))
		}
		for w := writers - 1; w >= 0; w-- {
			require.NoError(t, txs[w].Commit())
			pollN(t, p)
			e.StepUntilWait(t)
		}
	}

	order := e.msgOrder(t, 1)
	require.Len(t, order, writers*rounds)
	for i := 1; i < len(order); i++ {
		require.Less(t, order[i-1], order[i], "Kafka carries the flight's events in id order")
	}
	require.Equal(t, last, e.stand(t, 1), "the largest id's value wins")
	irr, err := e.Store.IngressIrregular(t.Context(), start.Add(-time.Hour), 10)
	require.NoError(t, err)
	require.Zero(t, irr.LateRows)
	require.Zero(t, irr.Gaps, "the clock never passed the gap-wait")
}

// The pump re-checks under PIPELINE_LOCK that its run starts at the head:
// a smaller id enqueued after the run was read (here while its XML is read)
// makes it abandon the run without effect and start again from the new head.
func TestPumpAbandonsARunOvertakenBySmallerID(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		after []string // the run the pump reads first
	}{
		{"batch", []string{"MID", "NEW"}},
		{"alone", []string{"NEW"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			smaller := e.insert(t, schd("UPD", fltr(1, "<STND>OLD</STND>")))
			var run []int64
			for _, v := range tc.after {
				run = append(run, e.insert(t, schd("UPD", fltr(1, "<STND>"+v+"</STND>")))) // queued; smaller not yet
			}
			_, err := e.Store.Enqueue(t.Context(), run, e.Clock.Now())
			require.NoError(t, err)
			var once sync.Once
			e.useRaw(readerFunc(func(ctx context.Context, ids []int64) (map[int64][]byte, error) {
				once.Do(func() { // the poller enqueues the late-committed smaller row meanwhile
					_, err := e.Store.Enqueue(ctx, []int64{smaller}, e.Clock.Now())
					require.NoError(t, err)
				})
				return e.Mailbox.ReadRaws(ctx, ids)
			}))
			e.StepUntilWait(t)
			require.Equal(t, tc.after[len(tc.after)-1], e.stand(t, 1), "the largest id's value wins")
			require.Equal(t, append([]int64{smaller}, run...), e.msgOrder(t, 1))
			require.Nil(t, e.msg(t, smaller).LateAfter, "nothing larger had finished: not late")
		})
	}
}

// An id enqueued inside the run's range after the run was read (a mailbox
// row committed late between two of its ids) is not below the head, so the
// head check cannot see it: the count of enqueues below the largest known
// id, read with the run and compared under PIPELINE_LOCK, makes the pump
// abandon the run and read again, so the three UPDs apply in id order and
// the flight keeps the largest id's value.
func TestPumpAbandonsARunOvertakenInsideItsRange(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	first := e.insert(t, schd("UPD", fltr(1, "<STND>OLD</STND>")))
	middle := e.insert(t, schd("UPD", fltr(1, "<STND>MID</STND>")))
	last := e.insert(t, schd("UPD", fltr(1, "<STND>NEW</STND>")))
	_, err := e.Store.Enqueue(t.Context(), []int64{first, last}, e.Clock.Now()) // the middle one not yet
	require.NoError(t, err)
	var once sync.Once
	e.useRaw(readerFunc(func(ctx context.Context, ids []int64) (map[int64][]byte, error) {
		once.Do(func() { // the poller enqueues the late-committed middle row meanwhile
			require.Equal(t, []int64{first, last}, ids, "the run read holds the first and the last")
			_, err := e.Store.Enqueue(ctx, []int64{middle}, e.Clock.Now())
			require.NoError(t, err)
		})
		return e.Mailbox.ReadRaws(ctx, ids)
	}))
	e.StepUntilWait(t)
	require.Equal(t, []int64{first, middle, last}, e.msgOrder(t, 1), "Kafka carries the flight's events in id order")
	require.Equal(t, "NEW", e.stand(t, 1), "the largest id's value wins")
	for _, id := range []int64{first, middle, last} {
		require.Equal(t, vocab.StatusSucceeded, e.msg(t, id).Status)
	}
	require.Nil(t, e.msg(t, middle).LateAfter, "nothing larger had finished: not late")
}
