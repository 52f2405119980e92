package storetest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// testRequests: REQ_TRACK's transitions and their guards, and the SEQN source.
func testRequests(t *testing.T, newStore Factory) {
	s := newStore(t)
	for want := int64(1); want <= 3; want++ {
		n, err := s.NextRequestSeqn(ctx(t))
		require.NoError(t, err)
		require.Equal(t, want, n)
	}

	from, to := t0, t0.Add(24*time.Hour-time.Minute)
	nr := store.NewRequest{Type: "RQFD", Key: "RQFD", RangeBegin: &from, RangeEnd: &to, Sender: "MSGX", Seqn: 1, Now: t0, ExpiresAt: t0.Add(10 * time.Minute)}
	a, err := s.InsertRequest(ctx(t), nr)
	require.NoError(t, err)
	require.Equal(t, vocab.RequestRegistered, a.Status)
	require.True(t, a.Open())
	require.Equal(t, vocab.OriginOperator, a.Origin, "no origin: an operator's")
	_, err = s.InsertRequest(ctx(t), nr)
	require.ErrorIs(t, err, store.ErrDuplicate, "one open request per kind")
	ref, err := s.InsertRequest(ctx(t), store.NewRequest{Type: "RQRD", Key: "RQRD:AIRL", List: "AIRL", Sender: "MSGX", Seqn: 2, Now: t0, ExpiresAt: t0.Add(time.Minute)})
	require.NoError(t, err)

	require.ErrorIs(t, s.MarkRequestDone(ctx(t), vocab.MarkRequestDoneParams{ID: a.ID, MsgID: 9, MatchRule: "degraded", Now: t0}), store.ErrNotFound, "not SENT yet")
	require.NoError(t, s.MarkRequestSent(ctx(t), store.MarkRequestSentParams{ID: a.ID, OutboundID: 5, SentAt: t0.Add(time.Second), ExpiresAt: t0.Add(11 * time.Minute)}))
	require.ErrorIs(t, s.MarkRequestSent(ctx(t), store.MarkRequestSentParams{ID: a.ID, OutboundID: 6, SentAt: t0, ExpiresAt: t0}), store.ErrNotFound, "sent once")
	open, err := s.OpenRequestForUpdate(ctx(t), "RQFD")
	require.NoError(t, err)
	require.Equal(t, int64(5), *open.OutboundID)
	require.True(t, open.ExpiresAt.Equal(t0.Add(11*time.Minute)))
	require.True(t, open.RangeBegin.Equal(from))

	due, err := s.ExpireDueRequests(ctx(t), t0.Add(time.Minute), 10)
	require.NoError(t, err)
	require.Equal(t, []int64{ref.ID}, due, "only the one past expires_at")
	got, err := s.Request(ctx(t), ref.ID)
	require.NoError(t, err)
	require.Equal(t, vocab.RequestExpired, got.Status)
	require.Equal(t, "never sent: no outbound row by expires_at", got.Note)

	require.NoError(t, s.MarkRequestDone(ctx(t), vocab.MarkRequestDoneParams{ID: a.ID, MsgID: 9, MatchRule: "degraded", Now: t0.Add(2 * time.Minute)}))
	got, err = s.Request(ctx(t), a.ID)
	require.NoError(t, err)
	require.Equal(t, vocab.RequestDone, got.Status)
	require.Equal(t, int64(9), *got.ResponseMsgID)
	require.Equal(t, "degraded", got.MatchRule)
	last, err := s.LastAnsweredRequest(ctx(t), "RQFD")
	require.NoError(t, err)
	require.Equal(t, a.ID, last.ID)
	require.True(t, last.DoneAt.Equal(t0.Add(2*time.Minute)))
	_, err = s.LastAnsweredRequest(ctx(t), "RQRD:AIRL")
	require.ErrorIs(t, err, store.ErrNotFound, "expired, never answered")
	_, err = s.OpenRequestForUpdate(ctx(t), "RQFD")
	require.ErrorIs(t, err, store.ErrNotFound)

	auto := nr
	auto.Origin = vocab.OriginOnStart
	b, err := s.InsertRequest(ctx(t), auto)
	require.NoError(t, err, "a closed request frees its kind")
	require.Equal(t, vocab.OriginOnStart, b.Origin)
	got, err = s.Request(ctx(t), b.ID)
	require.NoError(t, err)
	require.Equal(t, vocab.OriginOnStart, got.Origin)
	ids, err := s.ExpireRequestKey(ctx(t), store.ExpireRequestKeyParams{Key: "RQFD", Note: "superseded", Now: t0})
	require.NoError(t, err)
	require.Equal(t, []int64{b.ID}, ids)
	all, err := s.Requests(ctx(t), 1<<62, 2)
	require.NoError(t, err)
	require.Equal(t, []int64{b.ID, ref.ID}, []int64{all[0].ID, all[1].ID}, "newest first")
	openAll, err := s.OpenRequests(ctx(t))
	require.NoError(t, err)
	require.Empty(t, openAll)
}
