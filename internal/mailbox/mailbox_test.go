package mailbox_test

import (
	"bytes"
	"database/sql"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // Asia/Tokyo below, also on hosts without zoneinfo

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

var shanghai = time.FixedZone("CST", 8*3600)

// t0 is 00:30 UTC, i.e. 08:30 airport time: a zone mistake shows as 8 hours.
var t0 = time.Date(2026, 12, 2, 0, 30, 15, 0, time.UTC)

func newMailbox(t *testing.T, opts ...mailbox.Option) (*mailbox.Mailbox, *sql.DB, string) {
	t.Helper()
	_, dsn := testdb.Mailbox(t)
	// Opened as msgx serve opens it (interpolateParams among its defaults).
	db, err := mailbox.Open(t.Context(), dsn)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return mailbox.New(db, append([]mailbox.Option{mailbox.WithZone(shanghai)}, opts...)...), db, dsn
}

// stored reads a DATETIME column as the wall-clock text the AODB sees.
func stored(t *testing.T, db *sql.DB, column string, id int64) sql.NullString {
	t.Helper()
	var s sql.NullString
	err := db.QueryRowContext(t.Context(),
		"SELECT DATE_FORMAT("+column+", '%Y-%m-%d %H:%i:%s') FROM cminmsgs WHERE CMINMSGS_ID = ?", id).Scan(&s)
	require.NoError(t, err)
	return s
}

func TestMailboxInsertReadRawAndZone(t *testing.T) {
	t.Parallel()
	mb, db, _ := newMailbox(t)
	ctx := t.Context()

	id, err := mb.Insert(ctx, []byte("<MSG>é</MSG>"), t0.Add(300*time.Millisecond))
	require.NoError(t, err)
	raw, err := mb.ReadRaw(ctx, id)
	require.NoError(t, err)
	require.Equal(t, "<MSG>é</MSG>", string(raw))

	require.Equal(t, "2026-12-02 08:30:15", stored(t, db, "CMINMSGS_DATE_RECEIVED", id).String,
		"DATETIME holds the airport wall clock, whole seconds")
	row, err := mb.Get(ctx, id)
	require.NoError(t, err)
	require.True(t, row.ReceivedAt.Equal(t0), "read back as the same instant: %v", row.ReceivedAt)
	require.Equal(t, shanghai, row.ReceivedAt.Location())
	require.Equal(t, "VALID", row.Status)
	require.Nil(t, row.ProcessedAt)

	// Another airport zone writes another wall clock for the same instant.
	other := mailbox.New(db, mailbox.WithZone(time.FixedZone("X", -3*3600)))
	id2, err := other.Insert(ctx, []byte("<MSG/>"), t0)
	require.NoError(t, err)
	require.Equal(t, "2026-12-01 21:30:15", stored(t, db, "CMINMSGS_DATE_RECEIVED", id2).String)
}

// RawSizes are the bytes a read returns (not characters), without the XML;
// a missing row is absent, an outage an error.
func TestMailboxRawSizes(t *testing.T) {
	t.Parallel()
	mb, _, dsn := newMailbox(t)
	ctx := t.Context()
	a, err := mb.Insert(ctx, []byte("<MSG>é</MSG>"), t0)
	require.NoError(t, err)
	b, err := mb.Insert(ctx, bytes.Repeat([]byte("x"), 70_000), t0)
	require.NoError(t, err)

	sizes, err := mb.RawSizes(ctx, []int64{a, b, 424242})
	require.NoError(t, err)
	raws, err := mb.ReadRaws(ctx, []int64{a, b})
	require.NoError(t, err)
	require.Equal(t, map[int64]int{a: len(raws[a]), b: len(raws[b])}, sizes)
	require.Equal(t, 13, sizes[a], "bytes, not characters")

	db2, err := mailbox.Open(ctx, dsn)
	require.NoError(t, err)
	require.NoError(t, db2.Close())
	_, err = mailbox.New(db2).RawSizes(ctx, []int64{a})
	require.ErrorIs(t, err, mailbox.ErrUnavailable)
}

func TestMailboxReadRawMissingVersusUnavailable(t *testing.T) {
	t.Parallel()
	mb, _, dsn := newMailbox(t)
	ctx := t.Context()

	_, err := mb.ReadRaw(ctx, 424242)
	require.ErrorIs(t, err, mailbox.ErrMissing)
	require.NotErrorIs(t, err, mailbox.ErrUnavailable)
	_, err = mb.Get(ctx, 424242)
	require.ErrorIs(t, err, mailbox.ErrMissing)

	// A broken connection is an outage, never "missing".
	db2, err := mailbox.Open(ctx, dsn)
	require.NoError(t, err)
	require.NoError(t, db2.Close())
	down := mailbox.New(db2)
	_, err = down.ReadRaw(ctx, 1)
	require.ErrorIs(t, err, mailbox.ErrUnavailable)
	require.NotErrorIs(t, err, mailbox.ErrMissing)
	require.ErrorIs(t, down.Ping(ctx), mailbox.ErrUnavailable)
	_, err = down.Insert(ctx, []byte("<MSG/>"), t0)
	require.ErrorIs(t, err, mailbox.ErrUnavailable)
	_, err = down.ListAfter(ctx, 0, 10)
	require.ErrorIs(t, err, mailbox.ErrUnavailable)
}

func TestMailboxInsertTooLarge(t *testing.T) {
	t.Parallel()
	mb, db, _ := newMailbox(t)
	_, err := mb.Insert(t.Context(), bytes.Repeat([]byte("x"), mailbox.MaxBody+1), t0)
	require.ErrorIs(t, err, mailbox.ErrTooLarge)
	var n int
	require.NoError(t, db.QueryRow("SELECT COUNT(*) FROM cminmsgs").Scan(&n))
	require.Zero(t, n, "nothing written, not even a truncated body")
}

func TestMailboxListAfterAndRescan(t *testing.T) {
	t.Parallel()
	mb, _, _ := newMailbox(t)
	ctx := t.Context()
	var ids []int64
	for i := range 5 {
		id, err := mb.Insert(ctx, []byte("<MSG/>"), t0.Add(time.Duration(i)*time.Minute))
		require.NoError(t, err)
		ids = append(ids, id)
	}
	got, err := mb.ListAfter(ctx, ids[0], 3)
	require.NoError(t, err)
	require.Equal(t, ids[1:4], got, "after the mark, ascending, bounded")

	_, err = mb.Backfill(ctx, vocab.Backfill{MsgID: ids[1], MailboxStatus: vocab.StatusSucceeded, ProcessedAt: t0})
	require.NoError(t, err)
	got, err = mb.ListAfter(ctx, 0, 10)
	require.NoError(t, err)
	require.Equal(t, []int64{ids[0], ids[2], ids[3], ids[4]}, got, "processed rows are skipped")

	// Rows received at t0+2m and later are inside the age bound; the cut-off
	// is an instant, compared with the airport wall clock.
	got, err = mb.Rescan(ctx, mailbox.RescanParams{FromID: ids[0], ToID: ids[3], ReceivedAfter: t0.Add(2 * time.Minute), Limit: 10})
	require.NoError(t, err)
	require.Equal(t, ids[2:4], got)
	got, err = mb.Rescan(ctx, mailbox.RescanParams{ToID: ids[4], ReceivedAfter: t0, Limit: 2})
	require.NoError(t, err)
	require.Equal(t, []int64{ids[0], ids[2]}, got, "bounded")
}

func TestMailboxBackfill(t *testing.T) {
	t.Parallel()
	mb, db, _ := newMailbox(t)
	ctx := t.Context()
	id, err := mb.Insert(ctx, []byte("<MSG/>"), t0)
	require.NoError(t, err)

	seqn := int64(8388607) // largest mediumint
	dttm := t0.Add(-time.Minute)
	b := vocab.Backfill{MsgID: id, MailboxStatus: vocab.StatusSucceeded, ProcessedAt: t0.Add(time.Second),
		Meta: vocab.Meta{Sndr: "AODB", Seqn: &seqn, Dttm: &dttm, Type: "FLOP", Styp: "GTDT"}}
	changed, err := mb.Backfill(ctx, b)
	require.NoError(t, err)
	require.True(t, changed)

	row, err := mb.Get(ctx, id)
	require.NoError(t, err)
	require.True(t, row.ProcessedAt.Equal(t0.Add(time.Second)))
	require.Equal(t, "2026-12-02 08:30:16", stored(t, db, "CMINMSGS_DATE_PROCESSED", id).String)
	require.Equal(t, "2026-12-02 08:29:15", stored(t, db, "CMINMSGS_SUBSYSTEM_DATE_SENT", id).String)
	require.Equal(t, mailbox.Row{ID: id, ReceivedAt: row.ReceivedAt, ProcessedAt: row.ProcessedAt, Status: "SUCCEEDED",
		Sndr: "AODB", Seqn: &seqn, DateSent: row.DateSent, Type: "FLOP", Subtype: "GTDT"}, row)
	require.True(t, row.DateSent.Equal(dttm))

	// Once: a second backfill changes nothing and is not an error.
	b.MailboxStatus, b.ProcessedAt = vocab.StatusDead, t0.Add(time.Hour)
	changed, err = mb.Backfill(ctx, b)
	require.NoError(t, err)
	require.False(t, changed)
	again, err := mb.Get(ctx, id)
	require.NoError(t, err)
	require.Equal(t, row, again)

	b.MsgID = 999999
	_, err = mb.Backfill(ctx, b)
	require.ErrorIs(t, err, mailbox.ErrMissing)
}

// Rule 18: a replayed message's outcome overwrites msgx's own DEAD backfill
// (the same META, or none: it died before decoding), nothing else.
func TestMailboxBackfillOverwritesOwnDead(t *testing.T) {
	t.Parallel()
	mb, _, _ := newMailbox(t)
	ctx := t.Context()
	seqn := int64(7)
	meta := vocab.Meta{Sndr: "AODB", Seqn: &seqn, Type: "FLOP", Styp: "GTDT"}
	backfilled := func(status string, meta vocab.Meta) int64 {
		id, err := mb.Insert(ctx, []byte("<MSG/>"), t0)
		require.NoError(t, err)
		changed, err := mb.Backfill(ctx, vocab.Backfill{MsgID: id, MailboxStatus: status, ProcessedAt: t0, Meta: meta})
		require.NoError(t, err)
		require.True(t, changed)
		return id
	}
	again := func(id int64) bool {
		changed, err := mb.Backfill(ctx, vocab.Backfill{MsgID: id, MailboxStatus: vocab.StatusSucceeded,
			ProcessedAt: t0.Add(time.Hour), Meta: meta, OverwritesStatus: vocab.StatusDead})
		require.NoError(t, err)
		return changed
	}
	same := backfilled(vocab.StatusDead, meta)
	require.True(t, again(same), "its own DEAD, same META")
	row, err := mb.Get(ctx, same)
	require.NoError(t, err)
	require.Equal(t, "SUCCEEDED", row.Status)
	require.True(t, row.ProcessedAt.Equal(t0.Add(time.Hour)))
	require.True(t, again(backfilled(vocab.StatusDead, vocab.Meta{})), "its own DEAD before any META decoded")

	other := meta
	other.Sndr = "XXXX"
	require.False(t, again(backfilled(vocab.StatusDead, other)), "another META: not msgx's backfill of this message")
	require.False(t, again(backfilled("DONE", meta)), "another status: someone else's")
	require.False(t, again(backfilled(vocab.StatusSkipped, meta)), "only DEAD is overwritten")
	id := backfilled(vocab.StatusDead, meta)
	done, _, err := mb.BackfillMany(ctx, []vocab.Backfill{{MsgID: id, MailboxStatus: vocab.StatusSucceeded,
		ProcessedAt: t0.Add(time.Hour), Meta: meta, OverwritesStatus: vocab.StatusDead}})
	require.NoError(t, err)
	require.Equal(t, []int64{id}, done)
	row, err = mb.Get(ctx, id)
	require.NoError(t, err)
	require.Equal(t, "SUCCEEDED", row.Status, "BackfillMany too")
}

func TestMailboxBackfillNeverTruncates(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	mb, _, _ := newMailbox(t, mailbox.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	ctx := t.Context()
	id, err := mb.Insert(ctx, []byte("<MSG/>"), t0)
	require.NoError(t, err)

	seqn := int64(8388608) // one past mediumint
	far := time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	changed, err := mb.Backfill(ctx, vocab.Backfill{MsgID: id, MailboxStatus: vocab.StatusSkipped, ProcessedAt: t0,
		Meta: vocab.Meta{Sndr: "AODBX", Seqn: &seqn, Dttm: &far, Type: "FLOP", Styp: "ÉÉÉÉÉ"}})
	require.NoError(t, err)
	require.True(t, changed)

	row, err := mb.Get(ctx, id)
	require.NoError(t, err)
	require.Equal(t, "SKIPPED", row.Status)
	require.NotNil(t, row.ProcessedAt, "the row is still marked processed")
	require.Equal(t, "FLOP", row.Type, "values that fit are written")
	require.Empty(t, row.Sndr, "too long: NULL, not AODB")
	require.Empty(t, row.Subtype, "5 characters: NULL")
	require.Nil(t, row.Seqn, "out of mediumint: NULL, not clamped")
	require.Nil(t, row.DateSent, "outside DATETIME: NULL")
	for _, want := range []string{`SNDR=\"AODBX\"`, "SEQN=8388608", "DTTM=", "STYP="} {
		require.Contains(t, logs.String(), want)
	}
}

func TestMailboxBackfillRefusesBadStatus(t *testing.T) {
	t.Parallel()
	mb, _, _ := newMailbox(t)
	ctx := t.Context()
	id, err := mb.Insert(ctx, []byte("<MSG/>"), t0)
	require.NoError(t, err)
	for _, b := range []vocab.Backfill{
		{MsgID: id, MailboxStatus: "", ProcessedAt: t0},
		{MsgID: id, MailboxStatus: strings.Repeat("X", 21), ProcessedAt: t0},
		{MsgID: id, MailboxStatus: vocab.StatusSucceeded},
	} {
		_, err := mb.Backfill(ctx, b)
		require.ErrorIs(t, err, mailbox.ErrInvalid)
		require.False(t, errors.Is(err, mailbox.ErrUnavailable))
	}
	row, err := mb.Get(ctx, id)
	require.NoError(t, err)
	require.Nil(t, row.ProcessedAt)
}

// Open forces parseTime and loc=UTC, so a loc= in the DSN cannot shift the
// explicit airport-zone conversion.
func TestMailboxOpenForcesTimeHandling(t *testing.T) {
	t.Parallel()
	_, _, dsn := newMailbox(t)
	ctx := t.Context()
	tokyo := time.FixedZone("JST", 9*3600)
	db, err := mailbox.Open(ctx, dsn+"&loc=Asia%2FTokyo&parseTime=false")
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	mb := mailbox.New(db, mailbox.WithZone(shanghai))
	require.NoError(t, mb.Ping(ctx))
	id, err := mb.Insert(ctx, []byte("<MSG/>"), t0.In(tokyo))
	require.NoError(t, err)
	require.Equal(t, "2026-12-02 08:30:15", stored(t, db, "CMINMSGS_DATE_RECEIVED", id).String)
	row, err := mb.Get(ctx, id)
	require.NoError(t, err)
	require.True(t, row.ReceivedAt.Equal(t0))

	_, err = mailbox.Open(ctx, "not a dsn")
	require.Error(t, err)
}

// Shadow mode lists rows whether another system processed them or not, and
// refuses every write.
func TestMailboxShadow(t *testing.T) {
	t.Parallel()
	mb, db, _ := newMailbox(t)
	ctx := t.Context()
	var ids []int64
	for i := range 3 {
		id, err := mb.Insert(ctx, []byte("<MSG/>"), t0.Add(time.Duration(i)*time.Minute))
		require.NoError(t, err)
		ids = append(ids, id)
	}
	_, err := mb.Backfill(ctx, vocab.Backfill{MsgID: ids[1], MailboxStatus: vocab.StatusSucceeded, ProcessedAt: t0})
	require.NoError(t, err)

	shadow := mailbox.New(db, mailbox.WithZone(shanghai), mailbox.WithShadow())
	got, err := shadow.ListAfter(ctx, 0, 10)
	require.NoError(t, err)
	require.Equal(t, ids, got, "the row the other system processed is listed too")
	got, err = shadow.Rescan(ctx, mailbox.RescanParams{ToID: ids[2], ReceivedAfter: t0, Limit: 10})
	require.NoError(t, err)
	require.Equal(t, ids, got)

	_, err = shadow.Insert(ctx, []byte("<MSG/>"), t0)
	require.ErrorIs(t, err, mailbox.ErrReadOnly)
	_, err = shadow.Backfill(ctx, vocab.Backfill{MsgID: ids[0], MailboxStatus: vocab.StatusSucceeded, ProcessedAt: t0})
	require.ErrorIs(t, err, mailbox.ErrReadOnly)
	_, _, err = shadow.BackfillMany(ctx, []vocab.Backfill{{MsgID: ids[2], MailboxStatus: vocab.StatusSucceeded, ProcessedAt: t0}})
	require.ErrorIs(t, err, mailbox.ErrReadOnly)
	require.False(t, stored(t, db, "CMINMSGS_DATE_PROCESSED", ids[0]).Valid, "nothing written")
}

// BackfillMany writes many rows with one set-based statement and keeps the
// rules of Backfill per row: a processed row is never overwritten, a row gone
// from the mailbox counts as done, a bad status is refused alone, META that
// does not fit is NULL (and logged), absent META is NULL, never an empty string.
func TestMailboxBackfillManyEdgeCases(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	mb, db, _ := newMailbox(t, mailbox.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	ctx := t.Context()
	var ids []int64
	for range 5 {
		id, err := mb.Insert(ctx, []byte("<MSG/>"), t0)
		require.NoError(t, err)
		ids = append(ids, id)
	}
	// ids[1] was backfilled before: it keeps its first outcome.
	_, err := mb.Backfill(ctx, vocab.Backfill{MsgID: ids[1], MailboxStatus: vocab.StatusDead, ProcessedAt: t0})
	require.NoError(t, err)
	before, err := mb.Get(ctx, ids[1])
	require.NoError(t, err)

	seqn, big := int64(-8388608), int64(1<<23)
	dttm := t0.Add(-time.Minute)
	done, invalid, err := mb.BackfillMany(ctx, []vocab.Backfill{
		{MsgID: ids[0], MailboxStatus: vocab.StatusSucceeded, ProcessedAt: t0.Add(time.Second),
			Meta: vocab.Meta{Sndr: "AODB", Seqn: &seqn, Dttm: &dttm, Type: "FLOP", Styp: "ÉÉÉÉ"}},
		{MsgID: ids[1], MailboxStatus: vocab.StatusSucceeded, ProcessedAt: t0.Add(time.Hour), Meta: vocab.Meta{Type: "FLOP"}},
		{MsgID: ids[2], MailboxStatus: "", ProcessedAt: t0},
		{MsgID: 999999, MailboxStatus: vocab.StatusSucceeded, ProcessedAt: t0},
		{MsgID: ids[3], MailboxStatus: vocab.StatusSkipped, ProcessedAt: t0, Meta: vocab.Meta{Type: "FLOP"}},
		{MsgID: ids[4], MailboxStatus: vocab.StatusSucceeded, ProcessedAt: t0, Meta: vocab.Meta{Sndr: "AODBX", Seqn: &big, Type: "FLOP"}},
	})
	require.NoError(t, err)
	require.Equal(t, []int64{ids[0], ids[1], 999999, ids[3], ids[4]}, done, "gone rows count as done")
	require.Len(t, invalid, 1)
	require.ErrorIs(t, invalid[ids[2]], mailbox.ErrInvalid)

	row, err := mb.Get(ctx, ids[0])
	require.NoError(t, err)
	require.Equal(t, mailbox.Row{ID: ids[0], ReceivedAt: row.ReceivedAt, ProcessedAt: row.ProcessedAt, Status: "SUCCEEDED",
		Sndr: "AODB", Seqn: &seqn, DateSent: row.DateSent, Type: "FLOP", Subtype: "ÉÉÉÉ"}, row)
	require.Equal(t, "2026-12-02 08:30:16", stored(t, db, "CMINMSGS_DATE_PROCESSED", ids[0]).String)
	require.Equal(t, "2026-12-02 08:29:15", stored(t, db, "CMINMSGS_SUBSYSTEM_DATE_SENT", ids[0]).String)

	again, err := mb.Get(ctx, ids[1])
	require.NoError(t, err)
	require.Equal(t, before, again, "a processed row is never overwritten")
	require.False(t, stored(t, db, "CMINMSGS_DATE_PROCESSED", ids[2]).Valid, "an invalid todo writes nothing")

	for _, col := range []string{"CMINMSGS_SUBSYSTEM_NAME", "CMINMSGS_SUBSYSTEM_SEQUENCE", "CMINMSGS_SUBSYSTEM_DATE_SENT", "CMINMSGS_SUBSYSTEM_SUBTYPE"} {
		require.True(t, isNull(t, db, col, ids[3]), "absent META is NULL: %s", col)
	}
	row, err = mb.Get(ctx, ids[4])
	require.NoError(t, err)
	require.Equal(t, "SUCCEEDED", row.Status)
	require.True(t, isNull(t, db, "CMINMSGS_SUBSYSTEM_NAME", ids[4]))
	require.True(t, isNull(t, db, "CMINMSGS_SUBSYSTEM_SEQUENCE", ids[4]))
	require.Contains(t, logs.String(), `SNDR=\"AODBX\"`)
	require.Contains(t, logs.String(), "SEQN=8388608")

	// Repeating the lot changes nothing and logs nothing new.
	logged := logs.Len()
	done, _, err = mb.BackfillMany(ctx, []vocab.Backfill{
		{MsgID: ids[0], MailboxStatus: vocab.StatusDead, ProcessedAt: t0.Add(time.Hour), Meta: vocab.Meta{Type: "XXXX"}},
		{MsgID: ids[4], MailboxStatus: vocab.StatusDead, ProcessedAt: t0, Meta: vocab.Meta{Sndr: "AODBX", Type: "FLOP"}},
	})
	require.NoError(t, err)
	require.Len(t, done, 2)
	require.Equal(t, logged, logs.Len())
	row, err = mb.Get(ctx, ids[0])
	require.NoError(t, err)
	require.Equal(t, "SUCCEEDED", row.Status)
}

// More rows than one statement takes are split, all in one transaction:
// chunks are bounded by rows and by the span of their ids; ids skipped
// between a chunk's rows are left as they are, whatever the order of the
// todos, and an id twice is written once.
func TestMailboxBackfillManyChunks(t *testing.T) {
	t.Parallel()
	mb, db, _ := newMailbox(t)
	ctx := t.Context()
	const n = 4345
	var sb strings.Builder
	sb.WriteString("INSERT INTO cminmsgs (CMINMSGS_CLOB_MSG, CMINMSGS_STATUS) VALUES ")
	for i := range n {
		if i > 0 {
			sb.WriteString(",")
		}
		sb.WriteString("('<MSG/>', 'VALID')")
	}
	_, err := db.ExecContext(ctx, sb.String())
	require.NoError(t, err)
	// Ids 1..2345 all, in order; then every third id of the rest is
	// skipped, the ids descending; id 7 twice.
	var todos []vocab.Backfill
	todo := func(id int64) vocab.Backfill {
		seqn := id - 1
		return vocab.Backfill{MsgID: id, MailboxStatus: vocab.StatusSucceeded, ProcessedAt: t0,
			Meta: vocab.Meta{Sndr: "AODB", Seqn: &seqn, Type: "FLOP"}}
	}
	for id := int64(1); id <= 2345; id++ {
		todos = append(todos, todo(id))
	}
	want := 2345
	for id := int64(n); id > 2345; id-- {
		if id%3 != 0 {
			todos = append(todos, todo(id))
			want++
		}
	}
	todos = append(todos, todo(7))
	done, invalid, err := mb.BackfillMany(ctx, todos)
	require.NoError(t, err)
	require.Empty(t, invalid)
	require.Len(t, done, len(todos))
	var processed, wrong, skipped int
	require.NoError(t, db.QueryRowContext(ctx, `SELECT COUNT(CMINMSGS_DATE_PROCESSED),
		SUM(CMINMSGS_SUBSYSTEM_SEQUENCE <> CMINMSGS_ID - 1 OR CMINMSGS_SUBSYSTEM_NAME <> 'AODB'
			OR CMINMSGS_SUBSYSTEM_SUBTYPE IS NOT NULL OR CMINMSGS_SUBSYSTEM_DATE_SENT IS NOT NULL),
		SUM(CMINMSGS_ID > 2345 AND CMINMSGS_ID % 3 = 0 AND CMINMSGS_DATE_PROCESSED IS NULL AND CMINMSGS_STATUS = 'VALID')
		FROM cminmsgs`).Scan(&processed, &wrong, &skipped))
	require.Equal(t, want, processed)
	require.Zero(t, wrong, "each row got its own values (and NULL for the META it has not)")
	require.Equal(t, n-want, skipped, "ids skipped are left as they are")
}

func isNull(t *testing.T, db *sql.DB, column string, id int64) bool {
	t.Helper()
	var null bool
	require.NoError(t, db.QueryRowContext(t.Context(), "SELECT "+column+" IS NULL FROM cminmsgs WHERE CMINMSGS_ID = ?", id).Scan(&null))
	return null
}
