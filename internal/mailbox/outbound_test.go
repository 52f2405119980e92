package mailbox_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/mailbox"
)

// coutmsgs: a request row is written with the airport wall clock and found
// again by SNDR + SEQN (LIKE wildcards in the sender match literally) or by
// its insert time.
func TestMailboxOutbound(t *testing.T) {
	t.Parallel()
	mb, db, _ := newMailbox(t)
	ctx := t.Context()
	body := func(sndr, seqn string) []byte {
		return []byte("<MSG><META><SNDR>" + sndr + "</SNDR><SEQN>" + seqn + "</SEQN></META></MSG>")
	}
	a, err := mb.InsertOutbound(ctx, mailbox.InsertOutboundParams{Body: body("MSGX", "12"), InsertedAt: t0.Add(300 * time.Millisecond), RoutingID: "AODB"})
	require.NoError(t, err)
	_, err = mb.InsertOutbound(ctx, mailbox.InsertOutboundParams{Body: body("MSGX", "123"), InsertedAt: t0.Add(time.Minute), RoutingID: "AODB"})
	require.NoError(t, err)
	_, err = mb.InsertOutbound(ctx, mailbox.InsertOutboundParams{Body: body("M_GX", "12"), InsertedAt: t0.Add(time.Minute), RoutingID: "AODB"})
	require.NoError(t, err)

	var inserted, routing string
	require.NoError(t, db.QueryRowContext(ctx, "SELECT DATE_FORMAT(COUTMSGS_DATE_INSERTED, '%Y-%m-%d %H:%i:%s'), ROUTINGID FROM coutmsgs WHERE COUTMSGS_ID = ?", a).
		Scan(&inserted, &routing))
	require.Equal(t, "2026-12-02 08:30:15", inserted)
	require.Equal(t, "AODB", routing)

	found, err := mb.FindOutbound(ctx, mailbox.FindOutboundParams{Sender: "MSGX", Seqn: 12, Since: t0, Limit: 10})
	require.NoError(t, err)
	require.Len(t, found, 1, "SEQN 12, not 123")
	require.Equal(t, a, found[0].ID)
	require.True(t, found[0].InsertedAt.Equal(t0))
	found, err = mb.FindOutbound(ctx, mailbox.FindOutboundParams{Sender: "M_GX", Seqn: 12, Since: t0, Limit: 10})
	require.NoError(t, err)
	require.Len(t, found, 1, "_ is not a wildcard")
	found, err = mb.FindOutbound(ctx, mailbox.FindOutboundParams{Sender: "MSGX", Seqn: 12, Since: t0.Add(time.Second), Limit: 10})
	require.NoError(t, err)
	require.Empty(t, found, "inserted before since")

	between, err := mb.OutboundBetween(ctx, mailbox.OutboundBetweenParams{From: t0.Add(time.Second), To: t0.Add(time.Minute), Limit: 10})
	require.NoError(t, err)
	require.Len(t, between, 2)
	require.Greater(t, between[0].ID, between[1].ID, "newest first")

	_, err = mailbox.New(db, mailbox.WithShadow()).InsertOutbound(ctx, mailbox.InsertOutboundParams{Body: body("MSGX", "1"), InsertedAt: t0, RoutingID: "AODB"})
	require.ErrorIs(t, err, mailbox.ErrReadOnly)
}
