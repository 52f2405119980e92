package mailbox_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/mailbox"
)

func TestBodyLimit(t *testing.T) {
	t.Parallel()
	require.Equal(t, int64(16<<20-1024), mailbox.BodyLimit(16<<20), "the packet less room for the statement")
	require.Equal(t, int64(4<<20-1024), mailbox.BodyLimit(4<<20))
	require.Equal(t, int64(mailbox.MaxBody), mailbox.BodyLimit(64<<20), "never more than the column holds")
	require.Zero(t, mailbox.BodyLimit(100))
}

// The largest body MaxInsertBody names is stored whole by the real server;
// a body the server refuses as over its max_allowed_packet is ErrTooLarge
// (a 413 to a sender), not ErrUnavailable (a 503: "retry later" would never
// help).
func TestMailboxMaxInsertBody(t *testing.T) {
	t.Parallel()
	mb, db, _ := newMailbox(t)
	ctx := t.Context()
	var packet int64
	require.NoError(t, db.QueryRowContext(ctx, "SELECT @@max_allowed_packet").Scan(&packet))
	limit, err := mb.MaxInsertBody(ctx)
	require.NoError(t, err)
	require.Equal(t, mailbox.BodyLimit(packet), limit)

	id, err := mb.Insert(ctx, bytes.Repeat([]byte("x"), int(limit)), t0)
	require.NoError(t, err, "a body of the limit fits the server's packet")
	var n int64
	require.NoError(t, db.QueryRowContext(ctx, "SELECT LENGTH(CMINMSGS_CLOB_MSG) FROM cminmsgs WHERE CMINMSGS_ID = ?", id).Scan(&n))
	require.Equal(t, limit, n)

	over := min(packet, mailbox.MaxBody) - 8 // under the column, over the packet with its statement
	if over <= limit {
		t.Skipf("max_allowed_packet %d leaves no body between the packet and the column", packet)
	}
	_, err = mb.Insert(ctx, bytes.Repeat([]byte("x"), int(over)), t0)
	require.ErrorIs(t, err, mailbox.ErrTooLarge)
	require.NotErrorIs(t, err, mailbox.ErrUnavailable)
	// The server hung up on that connection; the pool must not hand it out.
	for range 3 {
		ids, err := mb.ListAfter(ctx, 0, 10)
		require.NoError(t, err, "the pool works after the refusal")
		require.Equal(t, []int64{id}, ids, "nothing more written")
	}
}
