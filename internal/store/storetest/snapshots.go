package storetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

var day2 = time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)

func testSnapshots(t *testing.T, newStore Factory) {
	t.Run("GenerationIsACompareAndSet", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		_, err := s.SnapshotGen(ctx(t), day2)
		require.ErrorIs(t, err, store.ErrNotFound)

		sent := func(msg int64) time.Time { return t0.Add(time.Duration(msg) * time.Minute) }
		adv := func(expected, msg int64) error {
			dttm := sent(msg)
			return s.AdvanceSnapshotGen(ctx(t), vocab.AdvanceSnapshotGenParams{FDay: day2, ExpectedVersion: expected, MessageID: msg, ContentDigest: "d",
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
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		dttm, newer := t0.Add(-time.Hour), int64(7)
		applied := vocab.SnapshotLog{MsgID: 9, Subtype: "DNLD", FDay: day2, Outcome: vocab.SnapApplied, GenVersion: 3, Dttm: &dttm,
			ScopeBegin: &t0, ScopeEnd: &t0, Records: 2, Changed: 1, Unchanged: 1, Pruned: 1, KeptNewer: 2, RecvAt: t0}
		stale := vocab.SnapshotLog{MsgID: 9, Subtype: "DNLD", FDay: day2.AddDate(0, 0, 1), Outcome: vocab.SnapStale, GenVersion: 4, StaleOf: &newer,
			Dttm: &dttm, Records: 1, RecvAt: t0}
		require.NoError(t, s.LogSnapshot(ctx(t), stale))
		require.NoError(t, s.LogSnapshot(ctx(t), applied))
		bad := stale
		bad.StaleOf = nil
		require.Error(t, s.LogSnapshot(ctx(t), bad), "a STALE row names the generation it kept")

		logs, err := s.SnapshotLogs(ctx(t), 9)
		require.NoError(t, err)
		require.Len(t, logs, 2)
		for i, want := range []vocab.SnapshotLog{applied, stale} {
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
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		a, b, c := RichFlight(1), RichFlight(2), RichFlight(3)
		other := RichFlight(4)
		other.OperationDay = day2.AddDate(0, 0, 1) // moved to another day: never pruned from this one
		deleted := RichFlight(5)
		deleted.Lifecycle = flight.Deleted
		write(t, s, t0, a, b, c, other, deleted, RichFlight(6))
		require.NoError(t, s.AdvanceSnapshotGen(ctx(t), vocab.AdvanceSnapshotGenParams{FDay: day2, MessageID: 1, Now: t0}))
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
		require.NoError(t, s.LogSnapshot(ctx(t), vocab.SnapshotLog{MsgID: 1, Subtype: "DNLD", FDay: day2, Outcome: vocab.SnapApplied, GenVersion: 1, Records: 2, Changed: 2, Pruned: 1, RecvAt: t0}))
	})
}
