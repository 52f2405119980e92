package storetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// newEvent is an UPSERT event of KAFKA:msg with a payload.
func newEvent(msg, flid, version int64) vocab.NewEvent {
	return vocab.NewEvent{
		Target: vocab.TargetMsg, EventType: vocab.EventUpsert, MsgID: msg, FLID: flid, StateVersion: version,
		IdempotencyKey: vocab.IdempotencyKey(msg, flid, version, vocab.TargetMsg), CreatedAt: t0,
		Payload: []byte(fmt.Sprintf(`{"flid":%d,"version":%d}`, flid, version)),
	}
}

// newMark marks flight flid for KAFKA:schd at the change (msg, version), written at.
func newMark(msg, flid, version int64, at time.Time) vocab.SchdMark {
	return vocab.SchdMark{FLID: flid, MsgID: msg, StateVersion: version, EventType: vocab.EventUpsert, CreatedAt: at}
}

func testOutbox(t *testing.T, newStore Factory) {
	t.Run("IdempotencyKeyIsUnique", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		require.NoError(t, s.InsertEvents(ctx(t), []vocab.NewEvent{newEvent(1, 10, 1)}))
		err := s.InsertEvents(ctx(t), []vocab.NewEvent{newEvent(1, 10, 1)})
		require.ErrorIs(t, err, store.ErrDuplicate)
		require.Equal(t, "1:10:1:KAFKA:msg", vocab.IdempotencyKey(1, 10, 1, vocab.TargetMsg))
	})

	t.Run("HeadOrderSentAndDead", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		tomb := newEvent(3, 11, 2)
		tomb.EventType, tomb.Payload = vocab.EventTombstone, nil
		require.NoError(t, s.InsertEvents(ctx(t), []vocab.NewEvent{
			newEvent(1, 10, 1),
			newEvent(2, 11, 1), tomb,
		}))
		head, err := s.PendingEvents(ctx(t), vocab.TargetMsg, 10)
		require.NoError(t, err)
		require.Len(t, head, 3)
		require.Equal(t, "10", head[0].PartitionKey)
		require.Less(t, head[0].ID, head[1].ID)
		require.Nil(t, head[2].Payload, "a tombstone may carry no payload")

		after, err := s.PendingEventsAfter(ctx(t), store.PendingEventsAfterParams{Target: vocab.TargetMsg, AfterID: head[0].ID, Max: 10})
		require.NoError(t, err)
		require.Equal(t, []int64{head[1].ID, head[2].ID}, []int64{after[0].ID, after[1].ID}, "the head after a cursor")
		after, err = s.PendingEventsAfter(ctx(t), store.PendingEventsAfterParams{Target: vocab.TargetMsg, AfterID: head[0].ID, Max: 1})
		require.NoError(t, err)
		require.Len(t, after, 1)

		require.NoError(t, s.MarkSent(ctx(t), store.MarkSentParams{Target: vocab.TargetMsg, IDs: []int64{head[0].ID, head[0].ID + 1000}, Now: t0}), "unknown ids are ignored")
		status, err := s.RecordDeliveryFailure(ctx(t), store.RecordDeliveryFailureParams{EventID: head[1].ID, Reason: "NOT_LEADER", NextAttemptAt: t0.Add(time.Second), MaxAttempts: 2})
		require.NoError(t, err)
		require.Equal(t, vocab.EventPending, status)
		status, err = s.RecordDeliveryFailure(ctx(t), store.RecordDeliveryFailureParams{EventID: head[1].ID, Reason: "too large", NextAttemptAt: t0.Add(2 * time.Second), MaxAttempts: 2})
		require.NoError(t, err)
		require.Equal(t, vocab.EventDead, status, "DEAD at the limit, kept as the dead letter")

		head, err = s.PendingEvents(ctx(t), vocab.TargetMsg, 10)
		require.NoError(t, err)
		require.Len(t, head, 1)
		require.Equal(t, int64(3), head[0].MsgID)

		all, err := s.EventsOfMessage(ctx(t), 2)
		require.NoError(t, err)
		require.Equal(t, vocab.EventDead, all[0].Status)
		require.Equal(t, "too large", all[0].LastError)
		require.Equal(t, 2, all[0].Attempts)
	})

	t.Run("EventsOfFlightAndDeadEvents", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		require.NoError(t, s.InsertEvents(ctx(t), []vocab.NewEvent{
			newEvent(1, 10, 1),
			newEvent(2, 11, 1), newEvent(3, 10, 2),
		}))
		evs, err := s.EventsOfFlight(ctx(t), 10)
		require.NoError(t, err)
		require.Len(t, evs, 2, "only flight 10's events")
		require.Equal(t, []int64{1, 3}, []int64{evs[0].MsgID, evs[1].MsgID}, "in EVENT_ID order")
		require.Equal(t, []int64{1, 2}, []int64{evs[0].StateVersion, evs[1].StateVersion})
		require.Equal(t, vocab.EventPending, evs[1].Status)
		none, err := s.EventsOfFlight(ctx(t), 99)
		require.NoError(t, err)
		require.Empty(t, none)

		dead, err := s.DeadEvents(ctx(t), store.DeadEventsParams{Target: vocab.TargetMsg, Limit: 10})
		require.NoError(t, err)
		require.Empty(t, dead)
		for _, id := range []int64{evs[0].ID, evs[1].ID} {
			status, err := s.RecordDeliveryFailure(ctx(t), store.RecordDeliveryFailureParams{EventID: id, Reason: "too large", NextAttemptAt: t0, MaxAttempts: 1})
			require.NoError(t, err)
			require.Equal(t, vocab.EventDead, status)
		}
		dead, err = s.DeadEvents(ctx(t), store.DeadEventsParams{Target: vocab.TargetMsg, Limit: 10})
		require.NoError(t, err)
		require.Equal(t, []int64{evs[0].ID, evs[1].ID}, []int64{dead[0].ID, dead[1].ID})
		require.Equal(t, "too large", dead[0].LastError)
		page, err := s.DeadEvents(ctx(t), store.DeadEventsParams{Target: vocab.TargetMsg, AfterID: evs[0].ID, Limit: 1})
		require.NoError(t, err)
		require.Len(t, page, 1)
		require.Equal(t, evs[1].ID, page[0].ID, "keyset paging after a cursor")
		schd, err := s.DeadEvents(ctx(t), store.DeadEventsParams{Target: vocab.TargetSchd, Limit: 10})
		require.NoError(t, err)
		require.Empty(t, schd, "per target")
	})

	t.Run("MsgDeliveredPrefixOnly", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		require.NoError(t, s.InsertEvents(ctx(t), []vocab.NewEvent{
			newEvent(1, 10, 1), newEvent(2, 11, 1),
			newEvent(3, 12, 1), newEvent(4, 13, 1),
		}))
		head, err := s.PendingEvents(ctx(t), vocab.TargetMsg, 10)
		require.NoError(t, err)
		require.Len(t, head, 4)
		for _, e := range head {
			require.Equal(t, vocab.EventPending, e.Status)
		}
		e1, e2, e3, e4 := head[0].ID, head[1].ID, head[2].ID, head[3].ID

		err = s.MarkSent(ctx(t), store.MarkSentParams{Target: vocab.TargetMsg, IDs: []int64{e1, e3}, Now: t0})
		require.ErrorIs(t, err, store.ErrConflict, "a gap in the acknowledged prefix is refused")
		head, err = s.PendingEvents(ctx(t), vocab.TargetMsg, 10)
		require.NoError(t, err)
		require.Len(t, head, 4, "nothing marked on a refused prefix")

		require.NoError(t, s.MarkSent(ctx(t), store.MarkSentParams{Target: vocab.TargetMsg, IDs: []int64{e1, e2}, Now: t0}))
		require.NoError(t, s.MarkSent(ctx(t), store.MarkSentParams{Target: vocab.TargetMsg, IDs: []int64{e1, e2}, Now: t0}), "a repeated mark is a no-op")
		head, err = s.PendingEvents(ctx(t), vocab.TargetMsg, 10)
		require.NoError(t, err)
		require.Equal(t, []int64{e3, e4}, []int64{head[0].ID, head[1].ID}, "the head moved past the prefix")
		after, err := s.PendingEventsAfter(ctx(t), store.PendingEventsAfterParams{Target: vocab.TargetMsg, AfterID: e3, Max: 10})
		require.NoError(t, err)
		require.Len(t, after, 1)
		evs, err := s.EventsOfMessage(ctx(t), 2)
		require.NoError(t, err)
		require.Len(t, evs, 1)
		require.Equal(t, vocab.EventSent, evs[0].Status, "msg: SENT below the watermark")
		_, err = s.RecordDeliveryFailure(ctx(t), store.RecordDeliveryFailureParams{EventID: e1, Reason: "late", NextAttemptAt: t0, MaxAttempts: 5})
		require.ErrorIs(t, err, store.ErrNotFound, "a delivered event cannot fail")

		// e3 fails, then dies: the head goes on to e4, which is delivered past the dead letter.
		status, err := s.RecordDeliveryFailure(ctx(t), store.RecordDeliveryFailureParams{EventID: e3, Reason: "timeout", NextAttemptAt: t0.Add(time.Second), MaxAttempts: 2})
		require.NoError(t, err)
		require.Equal(t, vocab.EventPending, status)
		head, err = s.PendingEvents(ctx(t), vocab.TargetMsg, 10)
		require.NoError(t, err)
		require.Equal(t, e3, head[0].ID)
		require.Equal(t, 1, head[0].Attempts)
		require.Equal(t, "timeout", head[0].LastError)
		status, err = s.RecordDeliveryFailure(ctx(t), store.RecordDeliveryFailureParams{EventID: e3, Reason: "too large", NextAttemptAt: t0.Add(2 * time.Second), MaxAttempts: 2})
		require.NoError(t, err)
		require.Equal(t, vocab.EventDead, status)
		require.NoError(t, s.MarkSent(ctx(t), store.MarkSentParams{Target: vocab.TargetMsg, IDs: []int64{e4}, Now: t0}), "a DEAD event is no gap")
		head, err = s.PendingEvents(ctx(t), vocab.TargetMsg, 10)
		require.NoError(t, err)
		require.Empty(t, head)
		for msg, want := range map[int64]string{3: vocab.EventDead, 4: vocab.EventSent} {
			evs, err := s.EventsOfMessage(ctx(t), msg)
			require.NoError(t, err)
			require.Equal(t, want, evs[0].Status, "message %d", msg)
		}
		evs, err = s.EventsOfMessage(ctx(t), 3)
		require.NoError(t, err)
		require.Equal(t, "too large", evs[0].LastError, "the dead letter keeps its reason")

		// A head that failed and then went through keeps its history.
		require.NoError(t, s.InsertEvents(ctx(t), []vocab.NewEvent{newEvent(5, 14, 1)}))
		head, err = s.PendingEvents(ctx(t), vocab.TargetMsg, 10)
		require.NoError(t, err)
		require.Len(t, head, 1)
		_, err = s.RecordDeliveryFailure(ctx(t), store.RecordDeliveryFailureParams{EventID: head[0].ID, Reason: "NOT_LEADER", NextAttemptAt: t0, MaxAttempts: 5})
		require.NoError(t, err)
		require.NoError(t, s.MarkSent(ctx(t), store.MarkSentParams{Target: vocab.TargetMsg, IDs: []int64{head[0].ID}, Now: t0}))
		evs, err = s.EventsOfMessage(ctx(t), 5)
		require.NoError(t, err)
		require.Equal(t, vocab.EventSent, evs[0].Status)
		require.Equal(t, 1, evs[0].Attempts)

		lag, err := s.OutboxLag(ctx(t))
		require.NoError(t, err)
		require.Empty(t, lag, "msg has nothing pending")
		require.ErrorIs(t, s.MarkSent(ctx(t), store.MarkSentParams{Target: vocab.TargetSchd, IDs: []int64{e1}, Now: t0}), store.ErrConflict, "schd is delivered from its marks")
	})

	t.Run("SchdMarkLatestPerFlight", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		tombEvent := newEvent(3, 10, 3)
		tombEvent.EventType, tombEvent.Payload = vocab.EventTombstone, nil
		require.NoError(t, s.InsertEvents(ctx(t), []vocab.NewEvent{newEvent(1, 10, 1), newEvent(1, 11, 1), newEvent(2, 10, 2), tombEvent}))
		msgs, err := s.PendingEvents(ctx(t), vocab.TargetMsg, 10)
		require.NoError(t, err)
		require.NoError(t, s.MarkSchd(ctx(t), []vocab.SchdMark{newMark(1, 10, 1, t0), newMark(1, 11, 1, t0.Add(time.Second))}))
		first, err := s.DueSchdMarks(ctx(t), store.DueSchdMarksParams{Now: t0, Max: 10})
		require.NoError(t, err)
		require.Len(t, first, 2)
		require.Equal(t, int64(10), first[0].FLID, "oldest pending first")
		tomb := newMark(3, 10, 3, t0.Add(2*time.Second))
		tomb.EventType = vocab.EventTombstone
		require.NoError(t, s.MarkSchd(ctx(t), []vocab.SchdMark{newMark(2, 10, 2, t0.Add(2*time.Second))}))
		due, err := s.DueSchdMarks(ctx(t), store.DueSchdMarksParams{Now: t0, Max: 10})
		require.NoError(t, err)
		require.Len(t, due, 2, "one mark per flight")
		f10 := due[0]
		require.Equal(t, int64(10), f10.FLID, "a flight keeps its place: pending since its oldest undelivered change")
		require.Equal(t, int64(2), f10.StateVersion, "the latest change")
		require.Equal(t, msgs[2].ID, f10.ID, "a newer change, the EVENT_ID of its KAFKA:msg event")
		require.Equal(t, msgs[0].ID, first[0].ID)
		require.JSONEq(t, `{"flid":10,"version":2}`, string(f10.Payload), "the payload of the change's KAFKA:msg event")
		require.Equal(t, store.Event{
			NewEvent: vocab.NewEvent{Target: vocab.TargetSchd, EventType: vocab.EventUpsert, MsgID: 2, FLID: 10, StateVersion: 2,
				IdempotencyKey: "2:10:2:KAFKA:schd", Payload: f10.Payload, CreatedAt: f10.CreatedAt},
			ID: f10.ID, PartitionKey: "10", Status: vocab.EventPending,
		}, f10, "the record of the change as a KAFKA:schd event (rule 8)")
		require.True(t, t0.Add(2*time.Second).Equal(f10.CreatedAt))

		require.NoError(t, s.MarkSchd(ctx(t), []vocab.SchdMark{tomb}))
		due, err = s.DueSchdMarks(ctx(t), store.DueSchdMarksParams{Now: t0, Max: 1})
		require.NoError(t, err)
		require.Len(t, due, 1, "at most Max flights")
		require.Equal(t, vocab.EventTombstone, due[0].EventType)
		require.Nil(t, due[0].Payload, "a TOMBSTONE without a payload")

		lag, err := s.OutboxLag(ctx(t))
		require.NoError(t, err)
		require.Equal(t, vocab.TargetSchd, lag[1].Target)
		require.Equal(t, int64(2), lag[1].Pending, "flights, not changes")
		require.True(t, t0.Equal(lag[1].Oldest), "the oldest undelivered change")
		msgs, err = s.PendingEvents(ctx(t), vocab.TargetMsg, 10)
		require.NoError(t, err)
		require.Len(t, msgs, 4, "marks leave the msg events alone")
	})

	// The relay reads a mark, produces it, then clears it: a change committed
	// in between replaces the mark, and the clear must leave it.
	t.Run("SchdMarkClearKeepsANewerChange", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		require.NoError(t, s.InsertEvents(ctx(t), []vocab.NewEvent{newEvent(1, 10, 1), newEvent(1, 11, 1), newEvent(2, 10, 2)}))
		require.NoError(t, s.MarkSchd(ctx(t), []vocab.SchdMark{newMark(1, 10, 1, t0), newMark(1, 11, 1, t0)}))
		read, err := s.DueSchdMarks(ctx(t), store.DueSchdMarksParams{Now: t0, Max: 10})
		require.NoError(t, err)
		require.Len(t, read, 2)
		require.NoError(t, s.MarkSchd(ctx(t), []vocab.SchdMark{newMark(2, 10, 2, t0.Add(time.Second))}), "flight 10 changes while its v1 is produced")
		n, err := s.ClearSchdMarks(ctx(t), []store.SchdSent{store.SentAs(read[0]), store.SentAs(read[1])})
		require.NoError(t, err)
		require.Equal(t, 1, n, "flight 11 only")
		left, err := s.DueSchdMarks(ctx(t), store.DueSchdMarksParams{Now: t0, Max: 10})
		require.NoError(t, err)
		require.Len(t, left, 1)
		require.Equal(t, int64(10), left[0].FLID)
		require.Equal(t, int64(2), left[0].StateVersion, "the newer change is not lost")
		n, err = s.ClearSchdMarks(ctx(t), []store.SchdSent{store.SentAs(left[0]), store.SentAs(left[0])})
		require.NoError(t, err)
		require.Equal(t, 1, n)
		left, err = s.DueSchdMarks(ctx(t), store.DueSchdMarksParams{Now: t0, Max: 10})
		require.NoError(t, err)
		require.Empty(t, left)
		lag, err := s.OutboxLag(ctx(t))
		require.NoError(t, err)
		require.Len(t, lag, 1, "schd has nothing pending")
	})

	t.Run("SchdMarkBackoffAndDead", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		require.NoError(t, s.InsertEvents(ctx(t), []vocab.NewEvent{newEvent(1, 10, 1), newEvent(2, 10, 2), newEvent(3, 10, 3)}))
		require.NoError(t, s.MarkSchd(ctx(t), []vocab.SchdMark{newMark(1, 10, 1, t0)}))
		v1, err := s.DueSchdMarks(ctx(t), store.DueSchdMarksParams{Now: t0, Max: 10})
		require.NoError(t, err)
		fail := func(e store.Event, at time.Time, reason string) string {
			t.Helper()
			status, err := s.RecordSchdFailure(ctx(t), store.RecordSchdFailureParams{
				SchdSent: store.SentAs(e), Reason: reason, NextAttemptAt: at, MaxAttempts: 2})
			require.NoError(t, err)
			return status
		}
		require.Equal(t, vocab.EventPending, fail(v1[0], t0.Add(time.Minute), "timeout"))
		due, err := s.DueSchdMarks(ctx(t), store.DueSchdMarksParams{Now: t0, Max: 10})
		require.NoError(t, err)
		require.Empty(t, due, "backing off")
		due, err = s.DueSchdMarks(ctx(t), store.DueSchdMarksParams{Now: t0.Add(time.Minute), Max: 10})
		require.NoError(t, err)
		require.Len(t, due, 1)
		require.Equal(t, 1, due[0].Attempts)
		require.Equal(t, "timeout", due[0].LastError)

		// A newer change starts again: due at once, no attempts; the failure
		// of the older one it replaced records nothing.
		require.NoError(t, s.MarkSchd(ctx(t), []vocab.SchdMark{newMark(2, 10, 2, t0.Add(time.Second))}))
		require.Empty(t, fail(v1[0], t0.Add(time.Hour), "late"), "the mark names a newer change")
		v2, err := s.DueSchdMarks(ctx(t), store.DueSchdMarksParams{Now: t0, Max: 10})
		require.NoError(t, err)
		require.Len(t, v2, 1)
		require.Zero(t, v2[0].Attempts)
		require.Equal(t, int64(2), v2[0].StateVersion)

		require.Equal(t, vocab.EventPending, fail(v2[0], t0, "CORRUPT_MESSAGE"))
		require.Equal(t, vocab.EventDead, fail(v2[0], t0, "MESSAGE_TOO_LARGE"), "DEAD at the limit")
		due, err = s.DueSchdMarks(ctx(t), store.DueSchdMarksParams{Now: t0.Add(time.Hour), Max: 10})
		require.NoError(t, err)
		require.Empty(t, due, "a dead mark is no longer pending")
		lag, err := s.OutboxLag(ctx(t))
		require.NoError(t, err)
		require.Len(t, lag, 1, "only msg is pending")

		dead, err := s.DeadEvents(ctx(t), store.DeadEventsParams{Target: vocab.TargetSchd, Limit: 10})
		require.NoError(t, err)
		require.Len(t, dead, 1, "kept as the dead letter")
		d := dead[0]
		require.NotEqual(t, v2[0].ID, d.ID, "an EVENT_ID of its own (its record's was its twin's)")
		require.Equal(t, "2:10:2:KAFKA:schd", d.IdempotencyKey)
		require.Equal(t, "10", d.PartitionKey)
		require.Equal(t, vocab.EventDead, d.Status)
		require.Equal(t, 2, d.Attempts)
		require.Equal(t, "MESSAGE_TOO_LARGE", d.LastError)
		require.JSONEq(t, `{"flid":10,"version":2}`, string(d.Payload), "its KAFKA:msg twin's payload")
		hist, err := s.EventsOfFlight(ctx(t), 10)
		require.NoError(t, err)
		require.Len(t, hist, 4, "the flight's history shows the dead letter")
		require.Equal(t, vocab.TargetSchd, hist[3].Target)

		// The flight's next change is marked afresh; the dead letter stays.
		require.NoError(t, s.MarkSchd(ctx(t), []vocab.SchdMark{newMark(3, 10, 3, t0.Add(time.Hour))}))
		due, err = s.DueSchdMarks(ctx(t), store.DueSchdMarksParams{Now: t0.Add(time.Hour), Max: 10})
		require.NoError(t, err)
		require.Len(t, due, 1)
		dead, err = s.DeadEvents(ctx(t), store.DeadEventsParams{Target: vocab.TargetSchd, Limit: 10})
		require.NoError(t, err)
		require.Len(t, dead, 1)
	})

	t.Run("OnlyMsgPerEvent", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		schd := newEvent(1, 10, 1)
		schd.Target, schd.IdempotencyKey, schd.Payload = vocab.TargetSchd, "1:10:1:KAFKA:schd", nil
		require.ErrorIs(t, s.InsertEvents(ctx(t), []vocab.NewEvent{schd}), store.ErrConflict, "KAFKA:schd is a mark, not an event row")
		_, err := s.PendingEvents(ctx(t), vocab.TargetSchd, 10)
		require.ErrorIs(t, err, store.ErrConflict)
	})
}
