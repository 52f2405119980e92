package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

func testMaintenance(t *testing.T, newStore Factory) {
	t.Run("PurgeCandidatesDeletedAndQuiet", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		day := func(d int) time.Time { return time.Date(2026, 11, d, 0, 0, 0, 0, time.UTC) }
		mk := func(flid int64, opDay time.Time, lifecycle string, deletedAt *time.Time) *flight.State {
			f := RichFlight(flid)
			f.OperationDay, f.Lifecycle, f.DeletedAt = opDay, lifecycle, deletedAt
			return f
		}
		old, recent := t0.Add(-30*24*time.Hour), t0.Add(-time.Hour)
		write(t, s, old, mk(1, day(1), flight.Active, nil), mk(2, day(2), flight.Deleted, &old), mk(3, day(20), flight.Active, nil))
		write(t, s, recent, mk(4, day(3), flight.Active, nil), mk(5, day(4), flight.Deleted, &recent))
		write(t, s, old, mk(6, day(20), flight.Deleted, &old)) // deleted long ago, its day is not over
		p := store.PurgeParams{DeletedBefore: t0, DayBefore: day(10), QuietBefore: t0.Add(-7 * 24 * time.Hour), Max: 10}
		got, err := s.PurgeCandidates(ctx(t), p)
		require.NoError(t, err)
		// 1: quiet, old day; 2, 5: deleted; 3, 6: day too recent; 4: changed lately.
		require.Equal(t, []int64{2, 5, 1}, flids(got), "DELETED first, then ACTIVE by operation day")
		require.Equal(t, business(t, mk(1, day(1), flight.Active, nil)), business(t, got[2]), "returned in full, details included")

		p.Max = 2
		got, err = s.PurgeCandidates(ctx(t), p)
		require.NoError(t, err)
		require.Len(t, got, 2, "bounded by Max")
		pre, err := s.PreviewPurge(ctx(t), p)
		require.NoError(t, err)
		require.Equal(t, 2, pre.Rows)
		p.Max = 10
		pre, err = s.PreviewPurge(ctx(t), p)
		require.NoError(t, err)
		require.Equal(t, 3, pre.Rows)
		require.True(t, day(1).Equal(*pre.Oldest), "oldest operation day")
		require.True(t, day(4).Equal(*pre.Newest), "newest operation day")
	})

	t.Run("HistoryThenDelete", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		write(t, s, t0, RichFlight(1), RichFlight(2))
		require.NoError(t, s.AdvanceSnapshotGen(ctx(t), vocab.AdvanceSnapshotGenParams{FDay: day2, MessageID: 1, Now: t0}))
		require.NoError(t, s.ReplaceSnapshotMembers(ctx(t), day2, []int64{1, 2}))
		_, err := s.LatestFlightHistory(ctx(t), 1)
		require.ErrorIs(t, err, store.ErrNotFound)

		f := read(t, s, 1)
		state, err := flight.EventPayload(f)
		require.NoError(t, err)
		h := store.FlightHistory{FLID: 1, OperationDay: f.OperationDay, Lifecycle: f.Lifecycle, StateVersion: f.StateVersion,
			LastMessageID: f.LastMessageID, State: state, CreatedAt: f.CreatedAt, PurgedAt: t0.Add(time.Hour)}
		require.NoError(t, s.WriteFlightHistory(ctx(t), []store.FlightHistory{h}))
		n, err := s.DeleteFlights(ctx(t), store.DeleteFlightsParams{FLIDs: []int64{1, 2, 99}, Max: 1})
		require.NoError(t, err)
		require.Equal(t, 1, n, "bounded by Max")
		got, err := s.Flights(ctx(t), []int64{1, 2})
		require.NoError(t, err)
		require.NotContains(t, got, int64(1))
		require.Contains(t, got, int64(2), "beyond Max: kept")
		// Its membership went with it (no foreign key to cascade: the
		// delete does it), the other flight's stays.
		members, err := s.SnapshotMembers(ctx(t), day2)
		require.NoError(t, err)
		require.Equal(t, []int64{2}, members)

		back, err := s.LatestFlightHistory(ctx(t), 1)
		require.NoError(t, err)
		require.JSONEq(t, string(state), string(back.State), "details and all")
		require.Equal(t, f.StateVersion, back.StateVersion)
		require.True(t, h.PurgedAt.Equal(back.PurgedAt))

		// The details went with the flight: writing it again as new works.
		write(t, s, t0, RichFlight(1))
		require.Equal(t, business(t, RichFlight(1)), business(t, read(t, s, 1)))
	})

	t.Run("ArchiveMessagesDryRunAndBound", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		_, err := s.Enqueue(ctx(t), []int64{1, 2, 3, 4}, t0)
		require.NoError(t, err)
		for i, id := range []int64{1, 2, 3} {
			require.NoError(t, s.FinishMessages(ctx(t), []vocab.Finish{{MsgID: id, Status: vocab.StatusSucceeded, Now: t0.Add(time.Duration(i) * time.Minute)}}))
		}
		p := store.ArchiveMessagesParams{Before: t0.Add(time.Hour), Max: 2, Now: t0.Add(2 * time.Hour), DryRun: true}
		backfilledAll(t, s)
		dry, err := s.ArchiveMessages(ctx(t), p)
		require.NoError(t, err)
		require.Equal(t, 2, dry.Rows)
		require.True(t, t0.Equal(*dry.Oldest))
		require.True(t, t0.Add(time.Minute).Equal(*dry.Newest))
		m, err := s.Message(ctx(t), 1)
		require.NoError(t, err)
		require.False(t, m.Archived, "a dry run moves nothing")

		p.DryRun = false
		backfilledAll(t, s)
		moved, err := s.ArchiveMessages(ctx(t), p)
		require.NoError(t, err)
		require.Equal(t, dry, moved)
		backfilledAll(t, s)
		moved, err = s.ArchiveMessages(ctx(t), p)
		require.NoError(t, err)
		require.Equal(t, 1, moved.Rows, "PENDING 4 never")
		backfilledAll(t, s)
		moved, err = s.ArchiveMessages(ctx(t), p)
		require.NoError(t, err)
		require.Equal(t, store.Swept{}, moved)
	})

	t.Run("SnapshotLogRetention", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		before := t0.Add(-90 * 24 * time.Hour)
		old, older := before.Add(-time.Hour), before.Add(-2*time.Hour)
		late := before.Add(time.Hour) // a scope reaching past the cut-off keeps an old row
		for i, l := range []struct{ recv, end time.Time }{{older, older}, {old, old}, {old, late}, {t0, t0}} {
			require.NoError(t, s.LogSnapshot(ctx(t), vocab.SnapshotLog{MsgID: int64(i + 1), Subtype: "DNLD", FDay: day2,
				Outcome: vocab.SnapApplied, GenVersion: 1, ScopeEnd: &l.end, RecvAt: l.recv}))
		}
		requireRetention(t, s.PurgeSnapshotLogs, before, older, old)
		for id, kept := range map[int64]bool{1: false, 2: false, 3: true, 4: true} {
			logs, err := s.SnapshotLogs(ctx(t), id)
			require.NoError(t, err)
			require.Equal(t, kept, len(logs) == 1, "log of message %d", id)
		}
	})

	t.Run("IngressGapRetention", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		before := t0.Add(-90 * 24 * time.Hour)
		old, older := before.Add(-time.Hour), before.Add(-2*time.Hour)
		for i, at := range []time.Time{older, old, before, t0} {
			require.NoError(t, s.RecordGap(ctx(t), store.Gap{Source: "cminmsgs", From: int64(10 * (i + 1)), To: int64(10*(i+1) + 2), SeenAt: at.Add(-time.Minute), GivenUpAt: at}))
		}
		requireRetention(t, s.PurgeIngressGaps, before, older, old)
		left, err := s.IngressIrregular(ctx(t), time.Time{}, 10)
		require.NoError(t, err)
		require.Equal(t, int64(2), left.Gaps, "the gaps given up at and after the cut-off stay")
		require.Equal(t, []int64{40, 30}, []int64{left.LatestGaps[0].From, left.LatestGaps[1].From})
	})

	t.Run("OutboxRetentionTwinRule", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		// Flight 10 v1: delivered on both topics. Flight 11 v1: msg delivered,
		// schd marked. Flight 12 v1: msg DEAD. Flight 13 v1: msg not yet
		// delivered. Flight 14 v1: msg delivered, schd DEAD (its dead letter).
		require.NoError(t, s.InsertEvents(ctx(t), []vocab.NewEvent{
			newEvent(1, 10, 1), newEvent(2, 11, 1), newEvent(3, 12, 1), newEvent(5, 14, 1), newEvent(4, 13, 1),
		}))
		require.NoError(t, s.MarkSchd(ctx(t), []vocab.SchdMark{newMark(2, 11, 1, t0), newMark(5, 14, 1, t0)}))
		msgs, err := s.PendingEvents(ctx(t), vocab.TargetMsg, 10)
		require.NoError(t, err)
		require.Len(t, msgs, 5)
		_, err = s.RecordDeliveryFailure(ctx(t), store.RecordDeliveryFailureParams{EventID: msgs[2].ID, Reason: "too large", NextAttemptAt: t0, MaxAttempts: 1})
		require.NoError(t, err)
		require.NoError(t, s.MarkSent(ctx(t), store.MarkSentParams{Target: vocab.TargetMsg, IDs: []int64{msgs[0].ID, msgs[1].ID, msgs[3].ID}, Now: t0}))
		marks, err := s.DueSchdMarks(ctx(t), store.DueSchdMarksParams{Now: t0, Max: 10})
		require.NoError(t, err)
		require.Len(t, marks, 2)
		f11, f14 := marks[0], marks[1]
		if f11.FLID != 11 {
			f11, f14 = f14, f11
		}
		status, err := s.RecordSchdFailure(ctx(t), store.RecordSchdFailureParams{SchdSent: store.SentAs(f14), Reason: "too large", NextAttemptAt: t0, MaxAttempts: 1})
		require.NoError(t, err)
		require.Equal(t, vocab.EventDead, status)

		p := store.RetentionParams{Before: t0.Add(time.Second), Max: 100}
		notYet, err := s.PurgeEvents(ctx(t), store.RetentionParams{Before: t0, Max: 100})
		require.NoError(t, err)
		require.Zero(t, notYet.Rows, "younger than the cut-off")
		gone, err := s.PurgeEvents(ctx(t), p)
		require.NoError(t, err)
		require.Equal(t, 1, gone.Rows, "flight 10's msg row only")
		left := map[string]bool{}
		for msg := int64(1); msg <= 5; msg++ {
			evs, err := s.EventsOfMessage(ctx(t), msg)
			require.NoError(t, err)
			for _, e := range evs {
				left[e.IdempotencyKey] = true
			}
		}
		require.Equal(t, map[string]bool{
			"2:11:1:KAFKA:msg": true,                            // a mark still needs the payload
			"3:12:1:KAFKA:msg": true,                            // DEAD: the dead letter
			"4:13:1:KAFKA:msg": true,                            // not delivered
			"5:14:1:KAFKA:msg": true, "5:14:1:KAFKA:schd": true, // the schd dead letter and the payload it shows
		}, left)
		due, err := s.DueSchdMarks(ctx(t), store.DueSchdMarksParams{Now: t0, Max: 10})
		require.NoError(t, err)
		require.Len(t, due, 1)
		require.NotEmpty(t, due[0].Payload, "the mark still reads its twin's payload")

		// Once the mark is delivered, its msg row goes too.
		n, err := s.ClearSchdMarks(ctx(t), []store.SchdSent{store.SentAs(f11)})
		require.NoError(t, err)
		require.Equal(t, 1, n)
		gone, err = s.PurgeEvents(ctx(t), p)
		require.NoError(t, err)
		require.Equal(t, 1, gone.Rows)
	})

	t.Run("JobRuns", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		runs, err := s.JobRuns(ctx(t))
		require.NoError(t, err)
		require.Empty(t, runs)
		ok := store.JobRun{Job: "history", StartedAt: t0, Duration: 1500 * time.Millisecond,
			Swept: store.Swept{Rows: 3, Oldest: &t0, Newest: &t0}}
		require.NoError(t, s.SaveJobRun(ctx(t), ok))
		failed := store.JobRun{Job: "history", StartedAt: t0.Add(24 * time.Hour), Duration: time.Second, Error: "boom"}
		require.NoError(t, s.SaveJobRun(ctx(t), failed))
		require.NoError(t, s.SaveJobRun(ctx(t), store.JobRun{Job: "archive", StartedAt: t0}))
		runs, err = s.JobRuns(ctx(t))
		require.NoError(t, err)
		require.Len(t, runs, 2)
		require.Equal(t, "archive", runs[0].Job)
		h := runs[1]
		require.Equal(t, "boom", h.Error)
		require.True(t, failed.StartedAt.Equal(h.StartedAt))
		require.Equal(t, time.Second, h.Duration)
		require.Zero(t, h.Rows)
		require.NotNil(t, h.LastOKAt)
		require.True(t, t0.Equal(*h.LastOKAt), "a failed run keeps the last success")
	})
}

// requireRetention checks a retention purge over two rows older than before
// (at older and old) and rows at and after it: a dry run counts the two and
// deletes nothing; a real run deletes at most Max, oldest first, until none
// is left.
func requireRetention(t *testing.T, purge func(context.Context, store.RetentionParams) (store.Swept, error), before, older, old time.Time) {
	t.Helper()
	p := store.RetentionParams{Before: before, Max: 10, DryRun: true}
	dry, err := purge(ctx(t), p)
	require.NoError(t, err)
	require.Equal(t, 2, dry.Rows)
	require.True(t, older.Equal(*dry.Oldest))
	require.True(t, old.Equal(*dry.Newest))
	p.DryRun, p.Max = false, 1
	gone, err := purge(ctx(t), p)
	require.NoError(t, err)
	require.Equal(t, 1, gone.Rows, "bounded by Max, oldest first")
	require.True(t, older.Equal(*gone.Oldest))
	gone, err = purge(ctx(t), p)
	require.NoError(t, err)
	require.Equal(t, 1, gone.Rows)
	gone, err = purge(ctx(t), p)
	require.NoError(t, err)
	require.Equal(t, store.Swept{}, gone)
}
