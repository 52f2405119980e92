package storetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store"
)

var day2 = time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)

func testSnapshots(t *testing.T, newStore Factory) {
	t.Run("GenerationIsACompareAndSet", func(t *testing.T) {
		s := newStore(t)
		_, err := s.SnapshotGen(ctx(t), day2)
		require.ErrorIs(t, err, store.ErrNotFound)

		sent := func(msg int64) time.Time { return t0.Add(time.Duration(msg) * time.Minute) }
		adv := func(expected, msg int64) error {
			dttm := sent(msg)
			return s.AdvanceSnapshotGen(ctx(t), store.AdvanceGen{FDay: day2, ExpectedVersion: expected, MessageID: msg, ContentDigest: "d",
				Dttm: &dttm, DttmRaw: fmt.Sprintf("raw%d", msg), Now: t0})
		}
		require.NoError(t, adv(0, 10))
		g, err := s.SnapshotGen(ctx(t), day2)
		require.NoError(t, err)
		require.True(t, sent(10).Equal(*g.Dttm), "the first generation keeps its message's DTTM")
		require.Equal(t, "raw10", g.DttmRaw)
		require.ErrorIs(t, adv(0, 11), store.ErrConflict, "a second first generation loses")
		require.NoError(t, adv(1, 12))
		require.ErrorIs(t, adv(1, 13), store.ErrConflict, "a stale version loses")
		g, err = s.SnapshotGen(ctx(t), day2)
		require.NoError(t, err)
		require.Equal(t, int64(2), g.Version)
		require.Equal(t, int64(12), g.LastMessageID)
		require.True(t, sent(12).Equal(*g.Dttm), "an advance replaces the DTTM with its message's")
		require.Equal(t, "raw12", g.DttmRaw)
	})

	t.Run("LogAppliedAndStale", func(t *testing.T) {
		s := newStore(t)
		dttm, newer := t0.Add(-time.Hour), int64(7)
		applied := store.SnapshotLog{MsgID: 9, Subtype: "DNLD", FDay: day2, Outcome: store.SnapApplied, GenVersion: 3, Dttm: &dttm,
			ScopeBegin: &t0, ScopeEnd: &t0, Records: 2, Changed: 1, Unchanged: 1, Pruned: 1, RecvAt: t0}
		stale := store.SnapshotLog{MsgID: 9, Subtype: "DNLD", FDay: day2.AddDate(0, 0, 1), Outcome: store.SnapStale, GenVersion: 4, StaleOf: &newer,
			Dttm: &dttm, Records: 1, RecvAt: t0}
		require.NoError(t, s.LogSnapshot(ctx(t), stale))
		require.NoError(t, s.LogSnapshot(ctx(t), applied))
		bad := stale
		bad.StaleOf = nil
		require.Error(t, s.LogSnapshot(ctx(t), bad), "a STALE row names the generation it kept")

		logs, err := s.SnapshotLogs(ctx(t), 9)
		require.NoError(t, err)
		require.Len(t, logs, 2)
		for i, want := range []store.SnapshotLog{applied, stale} {
			got := logs[i]
			require.True(t, want.Dttm.Equal(*got.Dttm))
			require.True(t, want.RecvAt.Equal(got.RecvAt))
			got.Dttm, got.RecvAt, got.ScopeBegin, got.ScopeEnd = want.Dttm, want.RecvAt, want.ScopeBegin, want.ScopeEnd
			require.Equal(t, want, got, "in flight-day order")
		}
		none, err := s.SnapshotLogs(ctx(t), 10)
		require.NoError(t, err)
		require.Empty(t, none)
	})

	t.Run("MembersAndPruneCandidates", func(t *testing.T) {
		s := newStore(t)
		a, b, c := richFlight(1), richFlight(2), richFlight(3)
		other := richFlight(4)
		other.OperationDay = day2.AddDate(0, 0, 1) // moved to another day: never pruned from this one
		deleted := richFlight(5)
		deleted.Lifecycle = flight.Deleted
		write(t, s, t0, a, b, c, other, deleted, richFlight(6))
		require.NoError(t, s.AdvanceSnapshotGen(ctx(t), store.AdvanceGen{FDay: day2, MessageID: 1, Now: t0}))
		require.NoError(t, s.ReplaceSnapshotMembers(ctx(t), day2, []int64{1, 2, 3, 4, 5}))
		members, err := s.SnapshotMembers(ctx(t), day2)
		require.NoError(t, err)
		require.Equal(t, []int64{1, 2, 3, 4, 5}, members)

		prune, err := s.PruneCandidates(ctx(t), day2, []int64{1, 3})
		require.NoError(t, err)
		require.Equal(t, []int64{2}, flids(prune), "only ACTIVE previous members of that day absent from the snapshot; flight 6 never was a member")
		require.Len(t, prune[0].Groups[flight.GroupGates], 3, "candidates come with their full state")

		require.NoError(t, s.ReplaceSnapshotMembers(ctx(t), day2, []int64{1, 3}))
		members, err = s.SnapshotMembers(ctx(t), day2)
		require.NoError(t, err)
		require.Equal(t, []int64{1, 3}, members)
		require.NoError(t, s.LogSnapshot(ctx(t), store.SnapshotLog{MsgID: 1, Subtype: "DNLD", FDay: day2, Outcome: store.SnapApplied, GenVersion: 1, Records: 2, Changed: 2, Pruned: 1, RecvAt: t0}))
	})
}

// newEvent is an UPSERT event; only a KAFKA:msg event carries the payload
// (a KAFKA:schd event's is its KAFKA:msg twin's).
func newEvent(msg, flid, version int64, target string) store.NewEvent {
	ev := store.NewEvent{
		Target: target, EventType: store.EventUpsert, MsgID: msg, FLID: flid, StateVersion: version,
		IdempotencyKey: store.IdempotencyKey(msg, flid, version, target), CreatedAt: t0,
	}
	if target == store.TargetMsg {
		ev.Payload = []byte(fmt.Sprintf(`{"flid":%d,"version":%d}`, flid, version))
	}
	return ev
}

func testOutbox(t *testing.T, newStore Factory) {
	t.Run("IdempotencyKeyIsUnique", func(t *testing.T) {
		s := newStore(t)
		require.NoError(t, s.InsertEvents(ctx(t), []store.NewEvent{newEvent(1, 10, 1, store.TargetMsg), newEvent(1, 10, 1, store.TargetSchd)}))
		err := s.InsertEvents(ctx(t), []store.NewEvent{newEvent(1, 10, 1, store.TargetMsg)})
		require.ErrorIs(t, err, store.ErrDuplicate)
		require.Equal(t, "1:10:1:KAFKA:msg", store.IdempotencyKey(1, 10, 1, store.TargetMsg))
	})

	t.Run("HeadOrderSentAndDead", func(t *testing.T) {
		s := newStore(t)
		tomb := newEvent(3, 11, 2, store.TargetMsg)
		tomb.EventType, tomb.Payload = store.EventTombstone, nil
		require.NoError(t, s.InsertEvents(ctx(t), []store.NewEvent{
			newEvent(1, 10, 1, store.TargetMsg), newEvent(1, 10, 1, store.TargetSchd),
			newEvent(2, 11, 1, store.TargetMsg), tomb,
		}))
		head, err := s.PendingEvents(ctx(t), store.TargetMsg, 10)
		require.NoError(t, err)
		require.Len(t, head, 3)
		require.Equal(t, "10", head[0].PartitionKey)
		require.Less(t, head[0].ID, head[1].ID)
		require.Nil(t, head[2].Payload, "a tombstone may carry no payload")

		after, err := s.PendingEventsAfter(ctx(t), store.TargetMsg, head[0].ID, 10)
		require.NoError(t, err)
		require.Equal(t, []int64{head[1].ID, head[2].ID}, []int64{after[0].ID, after[1].ID}, "the head after a cursor")
		after, err = s.PendingEventsAfter(ctx(t), store.TargetMsg, head[0].ID, 1)
		require.NoError(t, err)
		require.Len(t, after, 1)

		require.NoError(t, s.MarkSent(ctx(t), store.TargetMsg, []int64{head[0].ID, head[0].ID + 1000}, t0), "unknown ids are ignored")
		status, err := s.RecordDeliveryFailure(ctx(t), store.DeliveryFailure{EventID: head[1].ID, Reason: "NOT_LEADER", NextAttemptAt: t0.Add(time.Second), MaxAttempts: 2})
		require.NoError(t, err)
		require.Equal(t, store.EventPending, status)
		status, err = s.RecordDeliveryFailure(ctx(t), store.DeliveryFailure{EventID: head[1].ID, Reason: "too large", NextAttemptAt: t0.Add(2 * time.Second), MaxAttempts: 2})
		require.NoError(t, err)
		require.Equal(t, store.EventDead, status, "DEAD at the limit, kept as the dead letter")

		head, err = s.PendingEvents(ctx(t), store.TargetMsg, 10)
		require.NoError(t, err)
		require.Len(t, head, 1)
		require.Equal(t, int64(3), head[0].MsgID)

		all, err := s.EventsOfMessage(ctx(t), 2)
		require.NoError(t, err)
		require.Equal(t, store.EventDead, all[0].Status)
		require.Equal(t, "too large", all[0].LastError)
		require.Equal(t, 2, all[0].Attempts)
	})

	t.Run("EventsOfFlightAndDeadEvents", func(t *testing.T) {
		s := newStore(t)
		require.NoError(t, s.InsertEvents(ctx(t), []store.NewEvent{
			newEvent(1, 10, 1, store.TargetMsg), newEvent(1, 10, 1, store.TargetSchd),
			newEvent(2, 11, 1, store.TargetMsg), newEvent(3, 10, 2, store.TargetMsg),
		}))
		evs, err := s.EventsOfFlight(ctx(t), 10)
		require.NoError(t, err)
		require.Len(t, evs, 3, "only flight 10's events")
		require.Equal(t, []int64{1, 1, 3}, []int64{evs[0].MsgID, evs[1].MsgID, evs[2].MsgID}, "in EVENT_ID order")
		require.Equal(t, []int64{1, 1, 2}, []int64{evs[0].StateVersion, evs[1].StateVersion, evs[2].StateVersion})
		require.Equal(t, evs[0].Payload, evs[1].Payload, "a schd event carries its msg twin's payload")
		require.Equal(t, store.EventPending, evs[2].Status)
		none, err := s.EventsOfFlight(ctx(t), 99)
		require.NoError(t, err)
		require.Empty(t, none)

		dead, err := s.DeadEvents(ctx(t), store.TargetMsg, 0, 10)
		require.NoError(t, err)
		require.Empty(t, dead)
		for _, id := range []int64{evs[0].ID, evs[2].ID} {
			status, err := s.RecordDeliveryFailure(ctx(t), store.DeliveryFailure{EventID: id, Reason: "too large", NextAttemptAt: t0, MaxAttempts: 1})
			require.NoError(t, err)
			require.Equal(t, store.EventDead, status)
		}
		dead, err = s.DeadEvents(ctx(t), store.TargetMsg, 0, 10)
		require.NoError(t, err)
		require.Equal(t, []int64{evs[0].ID, evs[2].ID}, []int64{dead[0].ID, dead[1].ID})
		require.Equal(t, "too large", dead[0].LastError)
		page, err := s.DeadEvents(ctx(t), store.TargetMsg, evs[0].ID, 1)
		require.NoError(t, err)
		require.Len(t, page, 1)
		require.Equal(t, evs[2].ID, page[0].ID, "keyset paging after a cursor")
		schd, err := s.DeadEvents(ctx(t), store.TargetSchd, 0, 10)
		require.NoError(t, err)
		require.Empty(t, schd, "per target")
	})

	t.Run("MsgDeliveredPrefixOnly", func(t *testing.T) {
		s := newStore(t)
		require.NoError(t, s.InsertEvents(ctx(t), []store.NewEvent{
			newEvent(1, 10, 1, store.TargetMsg), newEvent(2, 11, 1, store.TargetMsg), newEvent(2, 11, 1, store.TargetSchd),
			newEvent(3, 12, 1, store.TargetMsg), newEvent(4, 13, 1, store.TargetMsg),
		}))
		head, err := s.PendingEvents(ctx(t), store.TargetMsg, 10)
		require.NoError(t, err)
		require.Len(t, head, 4)
		for _, e := range head {
			require.Equal(t, store.EventPending, e.Status)
		}
		e1, e2, e3, e4 := head[0].ID, head[1].ID, head[2].ID, head[3].ID

		err = s.MarkSent(ctx(t), store.TargetMsg, []int64{e1, e3}, t0)
		require.ErrorIs(t, err, store.ErrConflict, "a gap in the acknowledged prefix is refused")
		head, err = s.PendingEvents(ctx(t), store.TargetMsg, 10)
		require.NoError(t, err)
		require.Len(t, head, 4, "nothing marked on a refused prefix")

		require.NoError(t, s.MarkSent(ctx(t), store.TargetMsg, []int64{e1, e2}, t0))
		require.NoError(t, s.MarkSent(ctx(t), store.TargetMsg, []int64{e1, e2}, t0), "a repeated mark is a no-op")
		head, err = s.PendingEvents(ctx(t), store.TargetMsg, 10)
		require.NoError(t, err)
		require.Equal(t, []int64{e3, e4}, []int64{head[0].ID, head[1].ID}, "the head moved past the prefix")
		after, err := s.PendingEventsAfter(ctx(t), store.TargetMsg, e3, 10)
		require.NoError(t, err)
		require.Len(t, after, 1)
		evs, err := s.EventsOfMessage(ctx(t), 2)
		require.NoError(t, err)
		require.Len(t, evs, 2)
		require.Equal(t, store.EventSent, evs[0].Status, "msg: SENT below the watermark")
		require.Equal(t, store.EventPending, evs[1].Status, "schd: its own state")
		_, err = s.RecordDeliveryFailure(ctx(t), store.DeliveryFailure{EventID: e1, Reason: "late", NextAttemptAt: t0, MaxAttempts: 5})
		require.ErrorIs(t, err, store.ErrNotFound, "a delivered event cannot fail")

		// e3 fails, then dies: the head goes on to e4, which is delivered past the dead letter.
		status, err := s.RecordDeliveryFailure(ctx(t), store.DeliveryFailure{EventID: e3, Reason: "timeout", NextAttemptAt: t0.Add(time.Second), MaxAttempts: 2})
		require.NoError(t, err)
		require.Equal(t, store.EventPending, status)
		head, err = s.PendingEvents(ctx(t), store.TargetMsg, 10)
		require.NoError(t, err)
		require.Equal(t, e3, head[0].ID)
		require.Equal(t, 1, head[0].Attempts)
		require.Equal(t, "timeout", head[0].LastError)
		status, err = s.RecordDeliveryFailure(ctx(t), store.DeliveryFailure{EventID: e3, Reason: "too large", NextAttemptAt: t0.Add(2 * time.Second), MaxAttempts: 2})
		require.NoError(t, err)
		require.Equal(t, store.EventDead, status)
		require.NoError(t, s.MarkSent(ctx(t), store.TargetMsg, []int64{e4}, t0), "a DEAD event is no gap")
		head, err = s.PendingEvents(ctx(t), store.TargetMsg, 10)
		require.NoError(t, err)
		require.Empty(t, head)
		for msg, want := range map[int64]string{3: store.EventDead, 4: store.EventSent} {
			evs, err := s.EventsOfMessage(ctx(t), msg)
			require.NoError(t, err)
			require.Equal(t, want, evs[0].Status, "message %d", msg)
		}
		evs, err = s.EventsOfMessage(ctx(t), 3)
		require.NoError(t, err)
		require.Equal(t, "too large", evs[0].LastError, "the dead letter keeps its reason")

		// A head that failed and then went through keeps its history.
		require.NoError(t, s.InsertEvents(ctx(t), []store.NewEvent{newEvent(5, 14, 1, store.TargetMsg)}))
		head, err = s.PendingEvents(ctx(t), store.TargetMsg, 10)
		require.NoError(t, err)
		require.Len(t, head, 1)
		_, err = s.RecordDeliveryFailure(ctx(t), store.DeliveryFailure{EventID: head[0].ID, Reason: "NOT_LEADER", NextAttemptAt: t0, MaxAttempts: 5})
		require.NoError(t, err)
		require.NoError(t, s.MarkSent(ctx(t), store.TargetMsg, []int64{head[0].ID}, t0))
		evs, err = s.EventsOfMessage(ctx(t), 5)
		require.NoError(t, err)
		require.Equal(t, store.EventSent, evs[0].Status)
		require.Equal(t, 1, evs[0].Attempts)

		lag, err := s.OutboxLag(ctx(t))
		require.NoError(t, err)
		require.Len(t, lag, 1, "msg has nothing pending")
		require.Equal(t, store.TargetSchd, lag[0].Target)
	})

	t.Run("SchdMarkSentPerEvent", func(t *testing.T) {
		s := newStore(t)
		require.NoError(t, s.InsertEvents(ctx(t), []store.NewEvent{
			newEvent(1, 10, 1, store.TargetSchd), newEvent(2, 11, 1, store.TargetSchd), newEvent(3, 12, 1, store.TargetMsg),
		}))
		schd, err := s.PendingEvents(ctx(t), store.TargetSchd, 10)
		require.NoError(t, err)
		require.Len(t, schd, 2)
		msg, err := s.PendingEvents(ctx(t), store.TargetMsg, 10)
		require.NoError(t, err)
		require.NoError(t, s.MarkSent(ctx(t), store.TargetSchd, []int64{schd[1].ID, msg[0].ID}, t0), "no prefix rule; other targets' ids ignored")
		for m, want := range map[int64]string{1: store.EventPending, 2: store.EventSent, 3: store.EventPending} {
			evs, err := s.EventsOfMessage(ctx(t), m)
			require.NoError(t, err)
			require.Equal(t, want, evs[0].Status, "message %d", m)
			if want == store.EventSent {
				require.NotNil(t, evs[0].SentAt)
			}
		}
	})

	t.Run("SchdLatestPerFlight", func(t *testing.T) {
		s := newStore(t)
		tomb := newEvent(4, 10, 3, store.TargetSchd)
		tomb.EventType, tomb.Payload = store.EventTombstone, nil
		require.NoError(t, s.InsertEvents(ctx(t), []store.NewEvent{
			newEvent(1, 10, 1, store.TargetSchd), newEvent(1, 11, 1, store.TargetSchd),
			newEvent(2, 10, 2, store.TargetSchd), newEvent(2, 10, 2, store.TargetMsg),
			newEvent(3, 12, 1, store.TargetSchd), tomb,
		}))
		latest, err := s.LatestPendingPerFlight(ctx(t), store.TargetSchd, t0, 10)
		require.NoError(t, err)
		require.Len(t, latest, 3, "one event per flight, the msg target apart")
		byKey := map[string]store.Event{}
		for _, e := range latest {
			byKey[e.PartitionKey] = e
		}
		require.Equal(t, int64(3), byKey["10"].StateVersion, "the latest version of flight 10")
		require.Equal(t, store.EventTombstone, byKey["10"].EventType)
		require.Equal(t, int64(1), byKey["11"].StateVersion)
		require.Less(t, latest[0].ID, latest[1].ID, "oldest first")

		limited, err := s.LatestPendingPerFlight(ctx(t), store.TargetSchd, t0, 2)
		require.NoError(t, err)
		require.Len(t, limited, 2)

		// Flight 11 backs off: skipped until due; flight 10 delivered up to its tombstone.
		_, err = s.RecordDeliveryFailure(ctx(t), store.DeliveryFailure{EventID: byKey["11"].ID, Reason: "timeout", NextAttemptAt: t0.Add(time.Minute), MaxAttempts: 5})
		require.NoError(t, err)
		n, err := s.MarkSentUpTo(ctx(t), store.TargetSchd, []store.UpTo{{PartitionKey: "10", EventID: byKey["10"].ID}}, t0)
		require.NoError(t, err)
		require.Equal(t, 3, n, "the delivered event and the two it superseded")
		latest, err = s.LatestPendingPerFlight(ctx(t), store.TargetSchd, t0, 10)
		require.NoError(t, err)
		require.Len(t, latest, 1)
		require.Equal(t, "12", latest[0].PartitionKey)
		latest, err = s.LatestPendingPerFlight(ctx(t), store.TargetSchd, t0.Add(time.Minute), 10)
		require.NoError(t, err)
		require.Len(t, latest, 2, "flight 11 is due again")

		msgs, err := s.PendingEvents(ctx(t), store.TargetMsg, 10)
		require.NoError(t, err)
		require.Len(t, msgs, 1, "the msg event of flight 10 is not touched")
	})

	t.Run("SchdPayloadIsItsMsgTwins", func(t *testing.T) {
		s := newStore(t)
		schd := newEvent(1, 10, 1, store.TargetSchd)
		schd.Payload = []byte(`{"flid":10}`)
		require.ErrorIs(t, s.InsertEvents(ctx(t), []store.NewEvent{schd}), store.ErrConflict, "a KAFKA:schd row stores no payload")
		require.NoError(t, s.InsertEvents(ctx(t), []store.NewEvent{
			newEvent(1, 10, 1, store.TargetMsg), newEvent(1, 10, 1, store.TargetSchd),
			newEvent(2, 10, 2, store.TargetMsg), newEvent(2, 10, 2, store.TargetSchd),
			newEvent(3, 11, 1, store.TargetSchd), // written without its twin: no payload to find
		}))
		latest, err := s.LatestPendingPerFlight(ctx(t), store.TargetSchd, t0, 10)
		require.NoError(t, err)
		require.Len(t, latest, 2)
		require.JSONEq(t, `{"flid":10,"version":2}`, string(latest[0].Payload), "the latest version's twin's payload")
		require.Nil(t, latest[1].Payload)
		pending, err := s.PendingEvents(ctx(t), store.TargetSchd, 10)
		require.NoError(t, err)
		require.JSONEq(t, `{"flid":10,"version":1}`, string(pending[0].Payload))
		evs, err := s.EventsOfMessage(ctx(t), 2)
		require.NoError(t, err)
		require.Len(t, evs, 2)
		require.Equal(t, evs[0].Payload, evs[1].Payload, "both targets read the same payload")
	})

	t.Run("SchdDeadTakesSuperseded", func(t *testing.T) {
		s := newStore(t)
		require.NoError(t, s.InsertEvents(ctx(t), []store.NewEvent{
			newEvent(1, 10, 1, store.TargetSchd), newEvent(2, 10, 2, store.TargetSchd), newEvent(3, 10, 3, store.TargetSchd),
		}))
		latest, err := s.LatestPendingPerFlight(ctx(t), store.TargetSchd, t0, 10)
		require.NoError(t, err)
		require.Len(t, latest, 1)
		n, err := s.MarkDeadBelow(ctx(t), store.TargetSchd, store.UpTo{PartitionKey: "10", EventID: latest[0].ID}, "superseded")
		require.NoError(t, err)
		require.Equal(t, 2, n, "the older events only")
		for msg, want := range map[int64]string{1: store.EventDead, 2: store.EventDead, 3: store.EventPending} {
			evs, err := s.EventsOfMessage(ctx(t), msg)
			require.NoError(t, err)
			require.Equal(t, want, evs[0].Status, "message %d", msg)
			if want == store.EventDead {
				require.Equal(t, "superseded", evs[0].LastError)
			}
		}
	})
}

func testBackfill(t *testing.T, newStore Factory) {
	s := newStore(t)
	b := store.Backfill{MsgID: 5, MailboxStatus: store.StatusSucceeded, ProcessedAt: t0,
		Meta: store.Meta{Sndr: "AODB", Seqn: ptr(int64(9)), Dttm: ptr(t0), Type: "FLOP", Styp: "STND"}}
	require.NoError(t, s.AddBackfills(ctx(t), []store.Backfill{b}))
	due, err := s.DueBackfills(ctx(t), t0, 10)
	require.NoError(t, err)
	require.Len(t, due, 1)
	require.Equal(t, "STND", due[0].Meta.Styp)
	require.Equal(t, int64(9), *due[0].Meta.Seqn)

	require.NoError(t, s.RecordBackfillFailure(ctx(t), 5, t0.Add(30*time.Second), "mailbox down"))
	due, err = s.DueBackfills(ctx(t), t0.Add(29*time.Second), 10)
	require.NoError(t, err)
	require.Empty(t, due, "not due during its backoff")
	due, err = s.DueBackfills(ctx(t), t0.Add(30*time.Second), 10)
	require.NoError(t, err)
	require.Equal(t, 1, due[0].Attempts)
	require.Equal(t, "mailbox down", due[0].LastError)

	require.NoError(t, s.DeleteBackfills(ctx(t), []int64{5}))
	due, err = s.DueBackfills(ctx(t), t0.Add(time.Hour), 10)
	require.NoError(t, err)
	require.Empty(t, due)
}

func testReference(t *testing.T, newStore Factory) {
	s := newStore(t)
	rec := store.RefRecord{RType: "AIRL", RKey: "CA", Record: "<AIRL><ALCD>CA</ALCD></AIRL>", LastMessageID: 1, Now: t0}
	changed, err := s.UpsertRef(ctx(t), rec)
	require.NoError(t, err)
	require.True(t, changed)
	changed, err = s.UpsertRef(ctx(t), rec)
	require.NoError(t, err)
	require.False(t, changed, "an identical record changes nothing")
	rec.Record = "<AIRL><ALCD>CA</ALCD><ALNM>Air China</ALNM></AIRL>"
	changed, err = s.UpsertRef(ctx(t), rec)
	require.NoError(t, err)
	require.True(t, changed)
	got, err := s.Ref(ctx(t), "AIRL", "CA")
	require.NoError(t, err)
	require.Equal(t, int64(2), got.Version)
	require.Equal(t, rec.Record, got.Record)

	existed, err := s.DeleteRef(ctx(t), "AIRL", "CA")
	require.NoError(t, err)
	require.True(t, existed)
	_, err = s.Ref(ctx(t), "AIRL", "CA")
	require.ErrorIs(t, err, store.ErrNotFound)
}

func testTransactions(t *testing.T, newStore Factory) {
	s := newStore(t)
	tx, err := s.Begin(ctx(t))
	require.NoError(t, err)
	require.NoError(t, tx.LockPipeline(ctx(t), t0))
	write(t, tx, t0, richFlight(1))

	// A savepoint keeps one message all-or-nothing inside a larger commit.
	sp, err := tx.Begin(ctx(t))
	require.NoError(t, err)
	write(t, sp, t0, richFlight(2))
	require.NoError(t, sp.Rollback(ctx(t)))

	sp, err = tx.Begin(ctx(t))
	require.NoError(t, err)
	write(t, sp, t0, richFlight(3))
	require.NoError(t, sp.Commit(ctx(t)))
	require.NoError(t, tx.Commit(ctx(t)))
	require.NoError(t, tx.Rollback(ctx(t)), "rollback after commit is a no-op, so it can be deferred")

	got, err := s.Flights(ctx(t), []int64{1, 2, 3})
	require.NoError(t, err)
	require.Len(t, got, 2)
	require.Contains(t, got, int64(1))
	require.Contains(t, got, int64(3))

	tx, err = s.Begin(ctx(t))
	require.NoError(t, err)
	write(t, tx, t0, richFlight(4))
	require.NoError(t, tx.Rollback(ctx(t)))
	got, err = s.Flights(ctx(t), []int64{4})
	require.NoError(t, err)
	require.Empty(t, got, "a rolled-back transaction leaves nothing")
}

func testErrors(t *testing.T, newStore Factory) {
	s := newStore(t)
	_, err := s.Message(ctx(t), 404)
	require.ErrorIs(t, err, store.ErrNotFound)

	bad := richFlight(1)
	bad.Lifecycle = "GONE"
	err = s.WriteFlights(ctx(t), []store.FlightWrite{{State: bad}}, t0)
	require.ErrorIs(t, err, store.ErrConflict, "a CHECK violation is a conflict")

	err = s.ReplaceSnapshotMembers(ctx(t), day2, []int64{1})
	require.ErrorIs(t, err, store.ErrConflict, "a foreign key violation is a conflict")
}
