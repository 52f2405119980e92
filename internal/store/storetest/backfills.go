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

	require.NoError(t, s.RecordBackfillFailure(ctx(t), store.RecordBackfillFailureParams{MsgID: 5, NextAttemptAt: t0.Add(30 * time.Second), Reason: "mailbox down"}))
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
		MsgID: 7, Registration: read.Registration, NextAttemptAt: t0.Add(time.Hour), Reason: "mailbox down"}))
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
