package mailbox_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/db/mailbox"
	"github.com/msgx-aodb/msgx/internal/testdb"
)

// The mailbox statements run against a real MariaDB with the AODB's tables.
func TestMailboxQueries(t *testing.T) {
	t.Parallel()
	db, _ := testdb.Mailbox(t)
	ctx := t.Context()
	q := mailbox.New()
	t0 := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)

	var ids []int64
	for i := 0; i < 5; i++ {
		id, err := q.InboundInsert(ctx, db, mailbox.InboundInsertParams{Body: []byte("<MSG>" + string(rune('a'+i)) + "</MSG>"), ReceivedAt: &t0})
		require.NoError(t, err)
		ids = append(ids, id)
	}
	raw, err := q.InboundGetRaw(ctx, db, ids[0])
	require.NoError(t, err)
	require.Equal(t, "<MSG>a</MSG>", string(raw))
	row, err := q.InboundGet(ctx, db, ids[0])
	require.NoError(t, err)
	require.Equal(t, "VALID", *row.CminmsgsStatus)

	after, err := q.InboundListAfter(ctx, db, mailbox.InboundListAfterParams{AfterID: ids[1], Limit: 2})
	require.NoError(t, err)
	require.Equal(t, ids[2:4], after, "unprocessed rows after the watermark, in order, bounded")

	sndr, styp, typ := "AODB", "GTDT", "FLOP"
	seqn := int32(77)
	backfill := mailbox.InboundBackfillParams{ProcessedAt: &t0, Status: ptr("SUCCEEDED"), Sndr: &sndr, Seqn: &seqn, Dttm: &t0, MsgType: &typ, MsgSubtype: &styp, ID: ids[0]}
	n, err := q.InboundBackfill(ctx, db, backfill)
	require.NoError(t, err)
	require.Equal(t, int64(1), n)
	later := t0.Add(time.Hour)
	backfill.ProcessedAt = &later
	n, err = q.InboundBackfill(ctx, db, backfill)
	require.NoError(t, err)
	require.Zero(t, n, "a row is backfilled once")
	row, err = q.InboundGet(ctx, db, ids[0])
	require.NoError(t, err)
	require.True(t, row.CminmsgsDateProcessed.Equal(t0))
	require.Equal(t, "SUCCEEDED", *row.CminmsgsStatus)
	require.Equal(t, int32(77), *row.CminmsgsSubsystemSequence)

	// Rescan behind the watermark finds unprocessed rows only, within the window.
	cut := t0.Add(-time.Minute)
	found, err := q.InboundRescan(ctx, db, mailbox.InboundRescanParams{FromID: 0, ToID: ids[3], ReceivedAfter: &cut, Limit: 10})
	require.NoError(t, err)
	require.Equal(t, ids[1:4], found, "the processed row is not rescanned")
	late := t0.Add(time.Minute)
	found, err = q.InboundRescan(ctx, db, mailbox.InboundRescanParams{FromID: 0, ToID: ids[3], ReceivedAfter: &late, Limit: 10})
	require.NoError(t, err)
	require.Empty(t, found, "rows older than the age bound are outside the rescan")

	out, err := q.OutboundInsert(ctx, db, mailbox.OutboundInsertParams{Body: ptr("<MSG/>"), InsertedAt: t0, RoutingID: "AODB"})
	require.NoError(t, err)
	o, err := q.OutboundGet(ctx, db, out)
	require.NoError(t, err)
	require.Equal(t, "AODB", o.Routingid)
	require.Nil(t, o.CoutmsgsDateSent)

	var want int64
	require.NoError(t, db.QueryRowContext(ctx, "SELECT @@max_allowed_packet").Scan(&want))
	packet, err := q.MaxAllowedPacket(ctx, db)
	require.NoError(t, err)
	require.Equal(t, want, packet)
}

func ptr[T any](v T) *T { return &v }
