package maintenance

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

const day = 24 * time.Hour

// Flights of 2 Dec (local) are quiet for the retention (7 days) from 10 Dec
// 00:00 local on; the tests start on 2 Dec 16:00 local.
func TestHistoryBatchOf10Over11(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	flids := make([]int64, 11)
	for i := range flids {
		flids[i] = int64(100 + i)
	}
	e.Send(t, adft(flids...))
	e.Drain(t)

	h := e.history()
	h.Batch, h.MaxBatches = 10, 1
	e.Clock.Advance(7 * day) // 9 Dec 16:00: 2 Dec ended 6 days 16 hours ago
	res, err := h.Run(t.Context(), false)
	require.NoError(t, err)
	require.Zero(t, res.Rows, "the operation day is not yet quiet for 7 days")

	e.Clock.Advance(day)
	res, err = h.Run(t.Context(), false)
	require.NoError(t, err)
	require.Equal(t, 10, res.Rows, "one batch of 10 per run when capped at one batch")
	require.Equal(t, 1, e.count(t, "SELECT count(*) FROM flight_schd"))

	h.MaxBatches = 0
	e.Send(t, adft(200))
	e.Drain(t) // 200 changed now: not quiet
	res, err = h.Run(t.Context(), false)
	require.NoError(t, err)
	require.Equal(t, 1, res.Rows, "the 11th; a short batch ends the run")
	require.Equal(t, "2026-12-02", res.Oldest.Format(time.DateOnly))
	require.Equal(t, 11, e.count(t, "SELECT count(*) FROM flight_hst"))
	require.Equal(t, 0, e.count(t, "SELECT count(*) FROM flight_gate WHERE flid < 200"), "details went with their flights")
	require.Equal(t, 2, e.count(t, "SELECT count(*) FROM flight_gate WHERE flid = 200"))

	// All 11 in one run when batches are not capped: 10, then a short 1.
	e2 := newEnv(t)
	e2.Send(t, adft(flids...))
	e2.Drain(t)
	e2.Clock.Advance(10 * day)
	h2 := e2.history()
	h2.Batch = 10
	res, err = h2.Run(t.Context(), false)
	require.NoError(t, err)
	require.Equal(t, 11, res.Rows)
	require.Equal(t, 0, e2.count(t, "SELECT count(*) FROM flight_schd"))
}

func TestHistoryDisabledDeletesNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Send(t, adft(1, 2))
	e.Send(t, fdel(2))
	e.Drain(t)
	e.Clock.Advance(10 * day)
	h := e.history()
	h.Enabled = false
	res, err := h.Run(t.Context(), false)
	require.NoError(t, err)
	require.Zero(t, res.Rows)
	require.Contains(t, res.Note, "history.enabled=false")
	require.Equal(t, 2, e.count(t, "SELECT count(*) FROM flight_schd"))
	require.Equal(t, 0, e.count(t, "SELECT count(*) FROM flight_hst"))

	dry, err := h.Run(t.Context(), true)
	require.NoError(t, err)
	require.Equal(t, 2, dry.Rows, "a dry run still says what an enabled sweep would move")
	require.Equal(t, 2, e.count(t, "SELECT count(*) FROM flight_schd"))
}

// TOMBSTONE for an ACTIVE flight (both targets, rule 8 keys, version + 1);
// none for a flight already DELETED (it had its TOMBSTONE when deleted).
func TestHistoryTombstoneForActive(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	created := e.Send(t, adft(1, 2))
	deleted := e.Send(t, fdel(2))
	e.Drain(t)
	e.Clock.Advance(10 * day)
	res, err := e.history().Run(t.Context(), false)
	require.NoError(t, err)
	require.Equal(t, 2, res.Rows)

	evs, err := e.Store.EventsOfMessage(t.Context(), created)
	require.NoError(t, err)
	var tombs []store.Event
	for _, ev := range evs {
		if ev.EventType == vocab.EventTombstone {
			tombs = append(tombs, ev)
		}
	}
	require.Len(t, tombs, 1, "flight 1: one KAFKA:msg TOMBSTONE")
	tomb := tombs[0]
	require.Equal(t, vocab.TargetMsg, tomb.Target)
	require.Equal(t, int64(1), tomb.FLID)
	require.Equal(t, int64(2), tomb.StateVersion, "one past the last state")
	require.Equal(t, vocab.IdempotencyKey(created, 1, 2, vocab.TargetMsg), tomb.IdempotencyKey)
	require.Equal(t, vocab.EventPending, tomb.Status)
	require.Greater(t, tomb.ID, evs[len(evs)-2].ID, "after every earlier event")
	marks, err := e.Store.DueSchdMarks(t.Context(), store.DueSchdMarksParams{Now: e.Clock.Now(), Max: 10})
	require.NoError(t, err)
	marked := map[int64]store.Event{}
	for _, m := range marks {
		marked[m.FLID] = m
	}
	require.Equal(t, vocab.EventTombstone, marked[1].EventType, "flight 1's schd mark names the TOMBSTONE")
	require.Equal(t, vocab.IdempotencyKey(created, 1, 2, vocab.TargetSchd), marked[1].IdempotencyKey)
	require.Equal(t, tomb.ID, marked[1].ID, "with its KAFKA:msg event's id")
	del, err := e.Store.EventsOfMessage(t.Context(), deleted)
	require.NoError(t, err)
	require.Len(t, del, 1, "flight 2 keeps only the TOMBSTONE of its FDEL")

	// History stays readable, every detail in it.
	h1, err := e.Store.LatestFlightHistory(t.Context(), 1)
	require.NoError(t, err)
	require.Equal(t, "ACTIVE", h1.Lifecycle)
	require.Contains(t, string(h1.State), `"GTDT":[`)
	require.Contains(t, string(h1.State), `"stamps":{`, "and its stamps (rule 19)")
	h2, err := e.Store.LatestFlightHistory(t.Context(), 2)
	require.NoError(t, err)
	require.Equal(t, "DELETED", h2.Lifecycle)
	var doc flight.State
	require.NoError(t, json.Unmarshal(h2.State, &doc))
	_, stamped := doc.Stamps.Of(flight.StampLifecycle)
	require.True(t, stamped, "the history keeps when the flight was deleted")
}

var errCrash = errors.New("crash between the history write and the delete")

// A crash after the history write and before the delete commits nothing: the
// rerun moves every flight exactly once, with one TOMBSTONE pair each.
func TestHistoryCrashBetweenWriteAndDelete(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Send(t, adft(1, 2, 3))
	e.Drain(t)
	e.Clock.Advance(10 * day)
	h := e.history()
	h.Batch = 2
	crashes := 0
	h.afterHistory = func() error {
		crashes++
		if crashes == 2 {
			return errCrash // the second batch: the first one committed
		}
		return nil
	}
	res, err := h.Run(t.Context(), false)
	require.ErrorIs(t, err, errCrash)
	require.Equal(t, 2, res.Rows, "the first batch committed")
	require.Equal(t, 2, e.count(t, "SELECT count(*) FROM flight_hst"), "the crashed batch wrote no history")
	require.Equal(t, 1, e.count(t, "SELECT count(*) FROM flight_schd"), "… and deleted nothing")

	h.afterHistory = nil
	res, err = h.Run(t.Context(), false)
	require.NoError(t, err)
	require.Equal(t, 1, res.Rows)
	require.Equal(t, 0, e.count(t, "SELECT count(*) FROM flight_schd"))
	require.Equal(t, 0, e.count(t, "SELECT count(*) FROM flight_gate"))
	require.Equal(t, 3, e.count(t, "SELECT count(DISTINCT flid) FROM flight_hst"))
	require.Equal(t, 3, e.count(t, "SELECT count(*) FROM flight_hst"), "nothing doubled")
	require.Equal(t, 3, e.count(t, "SELECT count(*) FROM msg_event WHERE event_type = 'TOMBSTONE'"), "one KAFKA:msg TOMBSTONE per flight")
	require.Equal(t, 3, e.count(t, "SELECT count(*) FROM schd_mark WHERE event_type = 'TOMBSTONE'"), "and its schd mark")
}

// A flight changed between the sweep's read and its locked write is left
// alone: no history, no delete, no TOMBSTONE; the others move.
func TestHistorySkipsAFlightChangedMeanwhile(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Send(t, adft(1, 2))
	e.Drain(t)
	e.Clock.Advance(10 * day)
	h := e.history()
	h.beforeLock = func() {
		e.Send(t, envelope("FLOP", "STND", "<FLOP><FLID>1</FLID><STND>305</STND></FLOP>"))
		e.Drain(t)
	}
	res, err := h.Run(t.Context(), false)
	require.NoError(t, err)
	require.Equal(t, 1, res.Rows)
	require.Equal(t, 1, e.count(t, "SELECT count(*) FROM flight_schd WHERE flid = 1 AND stnd = '305'"), "the change survives")
	require.Equal(t, 0, e.count(t, "SELECT count(*) FROM flight_hst WHERE flid = 1"))
	require.Equal(t, 0, e.count(t, "SELECT count(*) FROM msg_event WHERE flid = 1 AND event_type = 'TOMBSTONE'"))
	require.Equal(t, 1, e.count(t, "SELECT count(*) FROM flight_hst WHERE flid = 2"))
}

// Retention applies to DELETED flights too (docs/design.md §8): a flight
// deleted today stays in the live tables, and in the reports, until its
// operation day ended Retention ago.
func TestHistoryKeepsAFlightDeletedToday(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Send(t, adft(1, 2))
	e.Send(t, fdel(2))
	e.Drain(t)
	e.Clock.Advance(time.Minute)
	h := e.history()
	res, err := h.Run(t.Context(), false)
	require.NoError(t, err)
	require.Zero(t, res.Rows, "deleted a minute ago, its day not over")
	dry, err := h.Run(t.Context(), true)
	require.NoError(t, err)
	require.Zero(t, dry.Rows)
	require.Equal(t, 1, e.count(t, "SELECT count(*) FROM flight_schd WHERE flid = 2 AND lifecycle = 'DELETED'"))

	e.Clock.Advance(7 * day) // 9 Dec 16:01: deleted 7 days ago, but 2 Dec ended 6 days 16 hours ago
	res, err = h.Run(t.Context(), false)
	require.NoError(t, err)
	require.Zero(t, res.Rows)

	e.Clock.Advance(day)
	res, err = h.Run(t.Context(), false)
	require.NoError(t, err)
	require.Equal(t, 2, res.Rows)
	require.Equal(t, 0, e.count(t, "SELECT count(*) FROM flight_schd"))
}

// The sweep never outruns the queue: while a message naming a flight waits
// (not decoded yet), nothing is swept; the message then applies to the live
// flight, and the next run sweeps what is quiet.
func TestHistoryWaitsForTheQueue(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Send(t, adft(1, 2))
	e.Drain(t)
	e.Clock.Advance(10 * day)
	flop := e.Send(t, envelope("FLOP", "STND", "<FLOP><FLID>1</FLID><STND>305</STND></FLOP>"))

	h := e.history()
	dry, err := h.Run(t.Context(), true)
	require.NoError(t, err)
	require.Equal(t, 2, dry.Rows)
	require.Contains(t, dry.Note, "the queue is not empty")
	res, err := h.Run(t.Context(), false)
	require.NoError(t, err, "a busy queue is no failure")
	require.Zero(t, res.Rows)
	require.Contains(t, res.Note, fmt.Sprintf("message %d is PENDING", flop))
	require.Equal(t, 2, e.count(t, "SELECT count(*) FROM flight_schd"))
	require.Equal(t, 0, e.count(t, "SELECT count(*) FROM flight_hst"))

	e.Drain(t)
	m, err := e.Store.Message(t.Context(), flop)
	require.NoError(t, err)
	require.Equal(t, vocab.StatusSucceeded, m.Status, "applied to the live flight, not no-match:flight")
	res, err = h.Run(t.Context(), false)
	require.NoError(t, err)
	require.Equal(t, 1, res.Rows, "flight 2; flight 1 changed just now")
	require.Equal(t, 1, e.count(t, "SELECT count(*) FROM flight_schd WHERE flid = 1 AND stnd = '305'"))
}

// A scheduled run waits up to QueueWait for the queue to empty, then sweeps.
func TestHistoryQueueWait(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Send(t, adft(1))
	e.Drain(t)
	e.Clock.Advance(10 * day)
	e.Send(t, envelope("FLOP", "STND", "<FLOP><FLID>9</FLID><STND>305</STND></FLOP>"))
	h := e.history()
	h.QueueWait = DefaultHistoryQueueWait
	type ran struct {
		res Result
		err error
	}
	done := make(chan ran, 1)
	go func() {
		res, err := h.Run(t.Context(), false)
		done <- ran{res, err}
	}()
	require.Eventually(t, func() bool { return e.Clock.Waiters() > 0 }, 10*time.Second, time.Millisecond, "the run waits")
	e.Drain(t)
	e.Clock.Advance(queueRecheck)
	got := <-done
	require.NoError(t, got.err)
	require.Equal(t, 1, got.res.Rows)
	require.Empty(t, got.res.Note)
}
