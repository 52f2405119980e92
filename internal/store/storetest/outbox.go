package storetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// newEvent is an UPSERT event; only a KAFKA:msg event carries the payload
// (a KAFKA:schd event's is its KAFKA:msg twin's).
func newEvent(msg, flid, version int64, target string) vocab.NewEvent {
	ev := vocab.NewEvent{
		Target: target, EventType: vocab.EventUpsert, MsgID: msg, FLID: flid, StateVersion: version,
		IdempotencyKey: vocab.IdempotencyKey(msg, flid, version, target), CreatedAt: t0,
	}
	if target == vocab.TargetMsg {
		ev.Payload = []byte(fmt.Sprintf(`{"flid":%d,"version":%d}`, flid, version))
	}
	return ev
}

func testOutbox(t *testing.T, newStore Factory) {
	t.Run("IdempotencyKeyIsUnique", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		require.NoError(t, s.InsertEvents(ctx(t), []vocab.NewEvent{newEvent(1, 10, 1, vocab.TargetMsg), newEvent(1, 10, 1, vocab.TargetSchd)}))
		err := s.InsertEvents(ctx(t), []vocab.NewEvent{newEvent(1, 10, 1, vocab.TargetMsg)})
		require.ErrorIs(t, err, store.ErrDuplicate)
		require.Equal(t, "1:10:1:KAFKA:msg", vocab.IdempotencyKey(1, 10, 1, vocab.TargetMsg))
	})

	t.Run("HeadOrderSentAndDead", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		tomb := newEvent(3, 11, 2, vocab.TargetMsg)
		tomb.EventType, tomb.Payload = vocab.EventTombstone, nil
		require.NoError(t, s.InsertEvents(ctx(t), []vocab.NewEvent{
			newEvent(1, 10, 1, vocab.TargetMsg), newEvent(1, 10, 1, vocab.TargetSchd),
			newEvent(2, 11, 1, vocab.TargetMsg), tomb,
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
			newEvent(1, 10, 1, vocab.TargetMsg), newEvent(1, 10, 1, vocab.TargetSchd),
			newEvent(2, 11, 1, vocab.TargetMsg), newEvent(3, 10, 2, vocab.TargetMsg),
		}))
		evs, err := s.EventsOfFlight(ctx(t), 10)
		require.NoError(t, err)
		require.Len(t, evs, 3, "only flight 10's events")
		require.Equal(t, []int64{1, 1, 3}, []int64{evs[0].MsgID, evs[1].MsgID, evs[2].MsgID}, "in EVENT_ID order")
		require.Equal(t, []int64{1, 1, 2}, []int64{evs[0].StateVersion, evs[1].StateVersion, evs[2].StateVersion})
		require.Equal(t, evs[0].Payload, evs[1].Payload, "a schd event carries its msg twin's payload")
		require.Equal(t, vocab.EventPending, evs[2].Status)
		none, err := s.EventsOfFlight(ctx(t), 99)
		require.NoError(t, err)
		require.Empty(t, none)

		dead, err := s.DeadEvents(ctx(t), store.DeadEventsParams{Target: vocab.TargetMsg, Limit: 10})
		require.NoError(t, err)
		require.Empty(t, dead)
		for _, id := range []int64{evs[0].ID, evs[2].ID} {
			status, err := s.RecordDeliveryFailure(ctx(t), store.RecordDeliveryFailureParams{EventID: id, Reason: "too large", NextAttemptAt: t0, MaxAttempts: 1})
			require.NoError(t, err)
			require.Equal(t, vocab.EventDead, status)
		}
		dead, err = s.DeadEvents(ctx(t), store.DeadEventsParams{Target: vocab.TargetMsg, Limit: 10})
		require.NoError(t, err)
		require.Equal(t, []int64{evs[0].ID, evs[2].ID}, []int64{dead[0].ID, dead[1].ID})
		require.Equal(t, "too large", dead[0].LastError)
		page, err := s.DeadEvents(ctx(t), store.DeadEventsParams{Target: vocab.TargetMsg, AfterID: evs[0].ID, Limit: 1})
		require.NoError(t, err)
		require.Len(t, page, 1)
		require.Equal(t, evs[2].ID, page[0].ID, "keyset paging after a cursor")
		schd, err := s.DeadEvents(ctx(t), store.DeadEventsParams{Target: vocab.TargetSchd, Limit: 10})
		require.NoError(t, err)
		require.Empty(t, schd, "per target")
	})

	t.Run("MsgDeliveredPrefixOnly", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		require.NoError(t, s.InsertEvents(ctx(t), []vocab.NewEvent{
			newEvent(1, 10, 1, vocab.TargetMsg), newEvent(2, 11, 1, vocab.TargetMsg), newEvent(2, 11, 1, vocab.TargetSchd),
			newEvent(3, 12, 1, vocab.TargetMsg), newEvent(4, 13, 1, vocab.TargetMsg),
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
		require.Len(t, evs, 2)
		require.Equal(t, vocab.EventSent, evs[0].Status, "msg: SENT below the watermark")
		require.Equal(t, vocab.EventPending, evs[1].Status, "schd: its own state")
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
		require.NoError(t, s.InsertEvents(ctx(t), []vocab.NewEvent{newEvent(5, 14, 1, vocab.TargetMsg)}))
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
		require.Len(t, lag, 1, "msg has nothing pending")
		require.Equal(t, vocab.TargetSchd, lag[0].Target)
	})

	t.Run("SchdMarkSentPerEvent", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		require.NoError(t, s.InsertEvents(ctx(t), []vocab.NewEvent{
			newEvent(1, 10, 1, vocab.TargetSchd), newEvent(2, 11, 1, vocab.TargetSchd), newEvent(3, 12, 1, vocab.TargetMsg),
		}))
		schd, err := s.PendingEvents(ctx(t), vocab.TargetSchd, 10)
		require.NoError(t, err)
		require.Len(t, schd, 2)
		msg, err := s.PendingEvents(ctx(t), vocab.TargetMsg, 10)
		require.NoError(t, err)
		require.NoError(t, s.MarkSent(ctx(t), store.MarkSentParams{Target: vocab.TargetSchd, IDs: []int64{schd[1].ID, msg[0].ID}, Now: t0}), "no prefix rule; other targets' ids ignored")
		for m, want := range map[int64]string{1: vocab.EventPending, 2: vocab.EventSent, 3: vocab.EventPending} {
			evs, err := s.EventsOfMessage(ctx(t), m)
			require.NoError(t, err)
			require.Equal(t, want, evs[0].Status, "message %d", m)
			if want == vocab.EventSent {
				require.NotNil(t, evs[0].SentAt)
			}
		}
	})

	t.Run("SchdLatestPerFlight", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		tomb := newEvent(4, 10, 3, vocab.TargetSchd)
		tomb.EventType, tomb.Payload = vocab.EventTombstone, nil
		require.NoError(t, s.InsertEvents(ctx(t), []vocab.NewEvent{
			newEvent(1, 10, 1, vocab.TargetSchd), newEvent(1, 11, 1, vocab.TargetSchd),
			newEvent(2, 10, 2, vocab.TargetSchd), newEvent(2, 10, 2, vocab.TargetMsg),
			newEvent(3, 12, 1, vocab.TargetSchd), tomb,
		}))
		latest, err := s.LatestPendingPerFlight(ctx(t), store.LatestPendingPerFlightParams{Target: vocab.TargetSchd, Now: t0, Max: 10})
		require.NoError(t, err)
		require.Len(t, latest, 3, "one event per flight, the msg target apart")
		byKey := map[string]store.Event{}
		for _, e := range latest {
			byKey[e.PartitionKey] = e
		}
		require.Equal(t, int64(3), byKey["10"].StateVersion, "the latest version of flight 10")
		require.Equal(t, vocab.EventTombstone, byKey["10"].EventType)
		require.Equal(t, int64(1), byKey["11"].StateVersion)
		require.Less(t, latest[0].ID, latest[1].ID, "oldest first")

		limited, err := s.LatestPendingPerFlight(ctx(t), store.LatestPendingPerFlightParams{Target: vocab.TargetSchd, Now: t0, Max: 2})
		require.NoError(t, err)
		require.Len(t, limited, 2)

		// Flight 11 backs off: skipped until due; flight 10 delivered up to its tombstone.
		_, err = s.RecordDeliveryFailure(ctx(t), store.RecordDeliveryFailureParams{EventID: byKey["11"].ID, Reason: "timeout", NextAttemptAt: t0.Add(time.Minute), MaxAttempts: 5})
		require.NoError(t, err)
		n, err := s.MarkSentUpTo(ctx(t), store.MarkSentUpToParams{Target: vocab.TargetSchd, Delivered: []store.UpTo{{PartitionKey: "10", EventID: byKey["10"].ID}}, Now: t0})
		require.NoError(t, err)
		require.Equal(t, 3, n, "the delivered event and the two it superseded")
		latest, err = s.LatestPendingPerFlight(ctx(t), store.LatestPendingPerFlightParams{Target: vocab.TargetSchd, Now: t0, Max: 10})
		require.NoError(t, err)
		require.Len(t, latest, 1)
		require.Equal(t, "12", latest[0].PartitionKey)
		latest, err = s.LatestPendingPerFlight(ctx(t), store.LatestPendingPerFlightParams{Target: vocab.TargetSchd, Now: t0.Add(time.Minute), Max: 10})
		require.NoError(t, err)
		require.Len(t, latest, 2, "flight 11 is due again")

		msgs, err := s.PendingEvents(ctx(t), vocab.TargetMsg, 10)
		require.NoError(t, err)
		require.Len(t, msgs, 1, "the msg event of flight 10 is not touched")
	})

	t.Run("SchdPayloadIsItsMsgTwins", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		schd := newEvent(1, 10, 1, vocab.TargetSchd)
		schd.Payload = []byte(`{"flid":10}`)
		require.ErrorIs(t, s.InsertEvents(ctx(t), []vocab.NewEvent{schd}), store.ErrConflict, "a KAFKA:schd row stores no payload")
		require.NoError(t, s.InsertEvents(ctx(t), []vocab.NewEvent{
			newEvent(1, 10, 1, vocab.TargetMsg), newEvent(1, 10, 1, vocab.TargetSchd),
			newEvent(2, 10, 2, vocab.TargetMsg), newEvent(2, 10, 2, vocab.TargetSchd),
			newEvent(3, 11, 1, vocab.TargetSchd), // written without its twin: no payload to find
		}))
		latest, err := s.LatestPendingPerFlight(ctx(t), store.LatestPendingPerFlightParams{Target: vocab.TargetSchd, Now: t0, Max: 10})
		require.NoError(t, err)
		require.Len(t, latest, 2)
		require.JSONEq(t, `{"flid":10,"version":2}`, string(latest[0].Payload), "the latest version's twin's payload")
		require.Nil(t, latest[1].Payload)
		pending, err := s.PendingEvents(ctx(t), vocab.TargetSchd, 10)
		require.NoError(t, err)
		require.JSONEq(t, `{"flid":10,"version":1}`, string(pending[0].Payload))
		evs, err := s.EventsOfMessage(ctx(t), 2)
		require.NoError(t, err)
		require.Len(t, evs, 2)
		require.Equal(t, evs[0].Payload, evs[1].Payload, "both targets read the same payload")
	})

	t.Run("SchdDeadTakesSuperseded", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		require.NoError(t, s.InsertEvents(ctx(t), []vocab.NewEvent{
			newEvent(1, 10, 1, vocab.TargetSchd), newEvent(2, 10, 2, vocab.TargetSchd), newEvent(3, 10, 3, vocab.TargetSchd),
		}))
		latest, err := s.LatestPendingPerFlight(ctx(t), store.LatestPendingPerFlightParams{Target: vocab.TargetSchd, Now: t0, Max: 10})
		require.NoError(t, err)
		require.Len(t, latest, 1)
		n, err := s.MarkDeadBelow(ctx(t), store.MarkDeadBelowParams{Target: vocab.TargetSchd, Below: store.UpTo{PartitionKey: "10", EventID: latest[0].ID}, Reason: "superseded"})
		require.NoError(t, err)
		require.Equal(t, 2, n, "the older events only")
		for msg, want := range map[int64]string{1: vocab.EventDead, 2: vocab.EventDead, 3: vocab.EventPending} {
			evs, err := s.EventsOfMessage(ctx(t), msg)
			require.NoError(t, err)
			require.Equal(t, want, evs[0].Status, "message %d", msg)
			if want == vocab.EventDead {
				require.Equal(t, "superseded", evs[0].LastError)
			}
		}
	})
}
