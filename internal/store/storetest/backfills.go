package storetest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

func testBackfill(t *testing.T, newStore Factory) {
	s := newStore(t)
	b := vocab.Backfill{MsgID: 5, MailboxStatus: vocab.StatusSucceeded, ProcessedAt: t0,
		Meta: vocab.Meta{Sndr: "AODB", Seqn: ptr(int64(9)), Dttm: ptr(t0), Type: "FLOP", Styp: "STND"}}
	require.NoError(t, s.AddBackfills(ctx(t), []vocab.Backfill{b}))
	due, err := s.DueBackfills(ctx(t), t0, 10)
	require.NoError(t, err)
	require.Len(t, due, 1)
	require.Equal(t, "STND", due[0].Meta.Styp)
	require.Equal(t, int64(9), *due[0].Meta.Seqn)

	require.NoError(t, s.RecordBackfillFailure(ctx(t), store.RecordBackfillFailureParams{Backfill: vocab.Backfill{MsgID: 5, MailboxStatus: vocab.StatusSucceeded, ProcessedAt: t0}, NextAttemptAt: t0.Add(30 * time.Second), Reason: "mailbox down"}))
	due, err = s.DueBackfills(ctx(t), t0.Add(29*time.Second), 10)
	require.NoError(t, err)
	require.Empty(t, due, "not due during its backoff")
	due, err = s.DueBackfills(ctx(t), t0.Add(30*time.Second), 10)
	require.NoError(t, err)
	require.Equal(t, 1, due[0].Attempts)
	require.Equal(t, "mailbox down", due[0].LastError)

	require.Empty(t, due[0].OverwritesStatus, "a first backfill overwrites nothing")

	// Rule 18: the todo of a replayed message may overwrite msgx's own DEAD
	// backfill of its row.
	_, err = s.Enqueue(ctx(t), []int64{6}, t0)
	require.NoError(t, err)
	_, err = s.RecordFailure(ctx(t), vocab.RecordFailureParams{MsgID: 6, ErrorClass: "UNSUPPORTED", Reason: "x", NextAttemptAt: t0, Now: t0})
	require.NoError(t, err)
	replayed, err := s.ReplayIDs(ctx(t), []int64{6}, t0)
	require.NoError(t, err)
	require.Equal(t, []int64{6}, replayed)
	require.NoError(t, s.AddBackfills(ctx(t), []vocab.Backfill{{MsgID: 6, MailboxStatus: vocab.StatusSucceeded, ProcessedAt: t0}}))
	due, err = s.DueBackfills(ctx(t), t0.Add(time.Hour), 10)
	require.NoError(t, err)
	require.Len(t, due, 2)
	require.Empty(t, due[0].OverwritesStatus)
	require.Equal(t, vocab.StatusDead, due[1].OverwritesStatus)

	require.NoError(t, s.DeleteBackfills(ctx(t), []vocab.BackfillKey{due[0].Key(), due[1].Key()}))
	due, err = s.DueBackfills(ctx(t), t0.Add(time.Hour), 10)
	require.NoError(t, err)
	require.Empty(t, due)
}

// Rule 18's race: a todo is deleted and deferred only under the
// registration that was read. A replay that re-registers the todo while the
// backfill of the one before is under way keeps the new todo.
func testBackfillRegistration(t *testing.T, newStore Factory) {
	s := newStore(t)
	dead := vocab.Backfill{MsgID: 7, MailboxStatus: vocab.StatusDead, ProcessedAt: t0}
	require.NoError(t, s.AddBackfills(ctx(t), []vocab.Backfill{dead}))
	due, err := s.DueBackfills(ctx(t), t0, 10)
	require.NoError(t, err)
	require.Len(t, due, 1)
	read := due[0]
	require.Equal(t, int64(0), read.Registration)

	// Meanwhile a replay finishes the message again: its todo, registered
	// under replay count 1, replaces the one read.
	replayed := vocab.Backfill{MsgID: 7, MailboxStatus: vocab.StatusSucceeded, ProcessedAt: t0.Add(time.Second), Registration: 1}
	require.NoError(t, s.AddBackfills(ctx(t), []vocab.Backfill{replayed}))

	// The backfill of the DEAD todo fails, then succeeds: neither touches the new todo.
	require.NoError(t, s.RecordBackfillFailure(ctx(t), store.RecordBackfillFailureParams{
		Backfill: read, NextAttemptAt: t0.Add(time.Hour), Reason: "mailbox down"}))
	require.NoError(t, s.DeleteBackfills(ctx(t), []vocab.BackfillKey{read.Key()}))
	due, err = s.DueBackfills(ctx(t), t0.Add(time.Second), 10)
	require.NoError(t, err)
	require.Len(t, due, 1, "the re-registered todo survives the delete of the one before, and is not deferred")
	require.Equal(t, vocab.StatusSucceeded, due[0].MailboxStatus)
	require.Equal(t, int64(1), due[0].Registration)
	require.Zero(t, due[0].Attempts)

	require.NoError(t, s.DeleteBackfills(ctx(t), []vocab.BackfillKey{due[0].Key()}))
	due, err = s.DueBackfills(ctx(t), t0.Add(time.Hour), 10)
	require.NoError(t, err)
	require.Empty(t, due, "deleted under its own registration")
}

// The backfill mark (docs/design.md §1.4): the messages above it, up to the
// first unfinished one that is no replay; an advance that counts every
// message between the mark and its target; the shadow pass; a failure of a
// backfill the mark covered, which becomes a todo; the status and the
// archive, which see the mark.
func testBackfillMark(t *testing.T, newStore Factory) {
	s := newStore(t)
	mark := func() int64 {
		m, err := s.BackfillMark(ctx(t))
		require.NoError(t, err)
		return m
	}
	advance := func(through int64, covered ...int64) bool {
		moved, err := s.AdvanceBackfillMark(ctx(t), store.AdvanceBackfillMarkParams{Through: through, Covered: covered, Now: t0})
		require.NoError(t, err)
		return moved
	}
	ids := func(us []store.UnmarkedBackfill) (got []int64) {
		for _, u := range us {
			got = append(got, u.MsgID)
		}
		return got
	}
	require.Zero(t, mark(), "no mark yet reads as 0")
	none, err := s.UnmarkedBackfills(ctx(t), 0, 10)
	require.NoError(t, err)
	require.Empty(t, none)

	_, err = s.Enqueue(ctx(t), []int64{1, 2, 3, 4, 5, 7, 9}, t0)
	require.NoError(t, err)
	meta := vocab.Meta{Sndr: "AODB", Seqn: ptr(int64(9)), Dttm: ptr(t0), Type: "FLOP", Styp: "STND"}
	require.NoError(t, s.FinishMessages(ctx(t), []vocab.Finish{
		{MsgID: 1, Status: vocab.StatusSucceeded, Bind: &vocab.Binding{IdentityKey: "K1", Kind: "FLOP", Meta: meta}, Now: t0},
		{MsgID: 2, Status: vocab.StatusSkipped, Reason: "ignored", Now: t0},
		{MsgID: 3, Status: vocab.StatusDead, ErrorClass: "PROTOCOL", Reason: "x", Now: t0.Add(time.Second)},
	}))
	up, err := s.UnmarkedBackfills(ctx(t), 0, 10)
	require.NoError(t, err)
	require.Equal(t, []int64{1, 2, 3}, ids(up), "up to the first unfinished message")
	require.Equal(t, vocab.StatusSucceeded, up[0].MailboxStatus)
	require.True(t, up[0].ProcessedAt.Equal(t0))
	require.Equal(t, "STND", up[0].Meta.Styp)
	require.Equal(t, "AODB", up[0].Meta.Sndr)
	require.Equal(t, int64(9), *up[0].Meta.Seqn)
	require.True(t, up[0].Meta.Dttm.Equal(t0))
	require.Equal(t, vocab.StatusDead, up[2].MailboxStatus)
	require.False(t, up[2].Replay)
	up, err = s.UnmarkedBackfills(ctx(t), 1, 1)
	require.NoError(t, err)
	require.Equal(t, []int64{2}, ids(up), "after, and at most max")

	// A replayed message does not hold the mark: its finish registers a todo.
	_, err = s.RecordFailure(ctx(t), vocab.RecordFailureParams{MsgID: 4, ErrorClass: "UNSUPPORTED", Reason: "x", NextAttemptAt: t0, Now: t0})
	require.NoError(t, err)
	_, err = s.ReplayIDs(ctx(t), []int64{4}, t0)
	require.NoError(t, err)
	up, err = s.UnmarkedBackfills(ctx(t), 0, 10)
	require.NoError(t, err)
	require.Equal(t, []int64{1, 2, 3, 4}, ids(up), "the replayed message is passed, the next unfinished one stops it")
	require.True(t, up[3].Replay)

	st, err := s.BackfillStats(ctx(t))
	require.NoError(t, err)
	require.Equal(t, int64(3), st.Todos, "the terminal messages above the mark are outstanding")
	require.True(t, st.Oldest.Equal(t0))

	require.False(t, advance(4, 1, 2, 3), "message 4 is not covered")
	require.Zero(t, mark())
	require.True(t, advance(4, 1, 2, 3, 4))
	require.Equal(t, int64(4), mark())
	require.False(t, advance(4, 1, 2, 3, 4), "never in place or back")
	require.False(t, advance(3, 3))
	st, err = s.BackfillStats(ctx(t))
	require.NoError(t, err)
	require.Equal(t, store.BackfillStats{}, st, "nothing outstanding at or below the mark")

	// The archive moves only messages at or below the mark.
	require.NoError(t, s.FinishMessages(ctx(t), []vocab.Finish{{MsgID: 5, Status: vocab.StatusSucceeded, Now: t0}}))
	swept, err := s.ArchiveMessages(ctx(t), store.ArchiveMessagesParams{Before: t0.Add(time.Hour), Max: 10, Now: t0})
	require.NoError(t, err)
	require.Equal(t, 3, swept.Rows, "1, 2 and 3; not 5, above the mark")

	// A late row (8) between the mark and the target keeps the mark.
	require.NoError(t, s.FinishMessages(ctx(t), []vocab.Finish{
		{MsgID: 7, Status: vocab.StatusSucceeded, Now: t0}, {MsgID: 9, Status: vocab.StatusSucceeded, Now: t0}}))
	_, err = s.Enqueue(ctx(t), []int64{8}, t0)
	require.NoError(t, err)
	require.False(t, advance(9, 5, 7, 9), "8 entered the range")
	require.Equal(t, int64(4), mark())
	require.True(t, advance(7, 5, 7), "up to the late row")

	// A failed backfill the mark covered becomes a todo, with the failure counted.
	five := vocab.Backfill{MsgID: 5, MailboxStatus: vocab.StatusSucceeded, ProcessedAt: t0, Meta: meta}
	require.NoError(t, s.RecordBackfillFailure(ctx(t), store.RecordBackfillFailureParams{Backfill: five, NextAttemptAt: t0.Add(time.Minute), Reason: "mailbox down"}))
	due, err := s.DueBackfills(ctx(t), t0.Add(time.Minute), 10)
	require.NoError(t, err)
	require.Len(t, due, 1)
	require.Equal(t, 1, due[0].Attempts)
	require.Equal(t, "mailbox down", due[0].LastError)
	require.Equal(t, int64(9), *due[0].Meta.Seqn)
	st, err = s.BackfillStats(ctx(t))
	require.NoError(t, err)
	require.Equal(t, int64(1), st.Failing)

	// Shadow mode: the mark follows the messages finished, never back.
	require.NoError(t, s.PassBackfillMark(ctx(t), 12, t0))
	require.Equal(t, int64(12), mark())
	require.NoError(t, s.PassBackfillMark(ctx(t), 3, t0))
	require.Equal(t, int64(12), mark())
}

// backfilledAll moves the backfill mark past every message, as if each
// terminal one were backfilled: the archive moves only messages at or below
// it.
func backfilledAll(t *testing.T, s store.Store) {
	t.Helper()
	require.NoError(t, s.PassBackfillMark(ctx(t), 1<<40, t0))
}
