package mailbox_test

import (
	"database/sql"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	dbmb "github.com/msgx-aodb/msgx/db/mailbox"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// The set-based backfill costs O(rows it updates) (issue #23): it reads
// those rows and nothing else, each found by its primary key, and picks its
// values by position. It once picked each row's values with ELT(FIELD(id,
// …)), a linear search of the chunk's ids per row and column: few rows read,
// but O(chunk²) work per statement, which only the plan shows; then it joined
// a JSON_TABLE, a multi-table update that read each row twice.
func TestBackfillManyReadsOnlyItsRows(t *testing.T) {
	t.Parallel()
	mb, db, _ := newMailbox(t)
	db.SetMaxOpenConns(1) // the session counters are the mailbox's reads
	ctx := t.Context()
	const rows, batch = 3000, 100
	insertBacklog(t, db, rows)
	_, err := db.ExecContext(ctx, "ANALYZE TABLE cminmsgs")
	require.NoError(t, err)

	todos := make([]vocab.Backfill, batch)
	for i := range todos {
		todos[i] = vocab.Backfill{MsgID: int64(1000 + i), MailboxStatus: vocab.StatusSucceeded, ProcessedAt: t0}
	}
	before := testdb.MailboxReads(t, db)
	done, invalid, err := mb.BackfillMany(ctx, todos)
	require.NoError(t, err)
	read := testdb.MailboxReads(t, db) - before
	require.Len(t, done, batch)
	require.Empty(t, invalid)
	var n int
	require.NoError(t, db.QueryRowContext(ctx, "SELECT COUNT(*) FROM cminmsgs WHERE CMINMSGS_DATE_PROCESSED IS NOT NULL").Scan(&n))
	require.Equal(t, batch, n)
	// Per row: its primary-key lookup; plus the ends of the ranges.
	require.LessOrEqual(t, read, int64(batch+10), "rows read to backfill %d rows", batch)
}

// The set-based backfill finds its rows by a range of the PRIMARY key over
// its ids, without buffering them: on cminmsgs_unprocessed_ix, whose key it
// changes, MariaDB buffers the rows it updates first ("Using buffer"), an
// extra copy and read of each row. The plain test DATE_PROCESSED IS NULL
// makes MariaDB 10.11 take that index.
func TestBackfillManyUsesThePrimaryKey(t *testing.T) {
	t.Parallel()
	_, db, _ := newMailbox(t)
	insertBacklog(t, db, 3000)
	_, err := db.ExecContext(t.Context(), "ANALYZE TABLE cminmsgs")
	require.NoError(t, err)

	// Two rows, ids 2000 and 2002: the value lists cover 2000..2002.
	query := mailboxQuery(t, "InboundBackfillMany")
	var args []any
	query = regexp.MustCompile(`\?|sqlc\.slice\((\w+)\)`).ReplaceAllStringFunc(query, func(m string) string {
		switch m {
		case "?":
			args = append(args, 1999)
			return "?"
		case "sqlc.slice(ids)":
			args = append(args, 2000, 2002)
			return "?, ?"
		default:
			args = append(args, "", "", "")
			return "?, ?, ?"
		}
	})
	plan := explain(t, db, query, args...)
	require.Len(t, plan, 1, "plan: %v", plan)
	require.Equal(t, "range", plan[0]["type"], "plan: %v", plan)
	require.Equal(t, "PRIMARY", plan[0]["key"], "plan: %v", plan)
	require.NotContains(t, plan[0]["Extra"], "buffer", "plan: %v", plan)
}

// The set-based backfill sends a value all its rows share once, not once per
// row (issue #23): every literal of the statement costs the server a parse
// and an item, and STATUS, SNDR, TYPE and DATE_PROCESSED are mostly the same
// for a whole statement. What varies (here SEQN) is still a value per row.
func TestBackfillManySendsSharedValuesOnce(t *testing.T) {
	t.Parallel()
	mb, db, _ := newMailbox(t)
	db.SetMaxOpenConns(1) // the session counters are the mailbox's
	ctx := t.Context()
	const rows = 500
	insertBacklog(t, db, rows)
	dttm := t0.Add(-time.Minute)
	todos := make([]vocab.Backfill, rows)
	for i := range todos {
		seqn := int64(100000 + i)
		todos[i] = vocab.Backfill{MsgID: int64(1 + i), MailboxStatus: vocab.StatusSucceeded, ProcessedAt: t0,
			Meta: vocab.Meta{Sndr: "AODB", Seqn: &seqn, Dttm: &dttm, Type: "FLOP", Styp: "TOBT"}}
	}
	before := sessionStatus(t, db, "Bytes_received")
	done, invalid, err := mb.BackfillMany(ctx, todos)
	require.NoError(t, err)
	sent := sessionStatus(t, db, "Bytes_received") - before
	require.Len(t, done, rows)
	require.Empty(t, invalid)
	// Per row: its id and its SEQN in the statement (≈ 14 bytes); a list of
	// each column was ≈ 95.
	require.LessOrEqual(t, sent/rows, int64(24), "bytes sent per row backfilled")

	var wrong int
	require.NoError(t, db.QueryRowContext(ctx, `SELECT COUNT(*) FROM cminmsgs WHERE NOT (
		CMINMSGS_DATE_PROCESSED = '2026-12-02 08:30:15' AND CMINMSGS_STATUS = 'SUCCEEDED'
		AND CMINMSGS_SUBSYSTEM_NAME = 'AODB' AND CMINMSGS_SUBSYSTEM_SEQUENCE = 99999 + CMINMSGS_ID
		AND CMINMSGS_SUBSYSTEM_DATE_SENT = '2026-12-02 08:29:15' AND CMINMSGS_SUBSYSTEM_TYPE = 'FLOP'
		AND CMINMSGS_SUBSYSTEM_SUBTYPE = 'TOBT') OR CMINMSGS_DATE_PROCESSED IS NULL`).Scan(&wrong))
	require.Zero(t, wrong, "rows without their values")
}

// The AODB keeps inserting rows while msgx backfills the newest ones: the
// backfill must never make those inserts wait. Its rows are found as points
// of the primary key, which lock the rows alone; a range BETWEEN the first and
// the last id (REPEATABLE READ) also locks the gap after the last row, so
// every insert of the AODB would wait for msgx's commit
// (docs/dev/performance-notes.md).
func TestBackfillManyNeverBlocksInserts(t *testing.T) {
	t.Parallel()
	_, db, _ := newMailbox(t)
	ctx := t.Context()
	insertBacklog(t, db, 10)
	tx, err := db.BeginTx(ctx, nil)
	require.NoError(t, err)
	defer tx.Rollback()
	status := vocab.StatusSucceeded
	n, err := dbmb.New().InboundBackfillMany(ctx, tx, dbmb.InboundBackfillManyParams{
		BeforeFirst: 8, Ids: []int64{9, 10}, ProcessedAtAll: &t0, StatusAll: &status,
		SndrAll: "", SeqnAll: "", DttmAll: "", MsgTypeAll: "", MsgSubtypeAll: "",
	})
	require.NoError(t, err)
	require.Equal(t, int64(2), n)

	other, err := db.Conn(ctx)
	require.NoError(t, err)
	defer other.Close()
	_, err = other.ExecContext(ctx, "SET SESSION innodb_lock_wait_timeout = 1")
	require.NoError(t, err)
	_, err = other.ExecContext(ctx, "INSERT INTO cminmsgs (CMINMSGS_CLOB_MSG) VALUES ('<MSG/>')")
	require.NoError(t, err, "an insert of the AODB while msgx backfills the newest rows")
}

// The values set as text (DATE_PROCESSED, SEQN, DTTM) differ from row to
// row, as a run's messages' do: each row gets its own, a NULL stays NULL,
// and a column all rows share is one value.
func TestBackfillManyFormatsEachRowsValues(t *testing.T) {
	t.Parallel()
	mb, db, _ := newMailbox(t)
	ctx := t.Context()
	insertBacklog(t, db, 4)
	var todos []vocab.Backfill
	for i := range 4 {
		seqn, dttm := int64(-5+1000*i), t0.Add(-time.Duration(i)*time.Hour)
		meta := vocab.Meta{Sndr: "AODB", Seqn: &seqn, Dttm: &dttm, Type: "FLOP"}
		if i == 2 {
			meta.Seqn, meta.Dttm = nil, nil
		}
		todos = append(todos, vocab.Backfill{MsgID: int64(4 - i), MailboxStatus: vocab.StatusSucceeded,
			ProcessedAt: t0.Add(time.Duration(i) * time.Second), Meta: meta})
	}
	_, invalid, err := mb.BackfillMany(ctx, todos)
	require.NoError(t, err)
	require.Empty(t, invalid)
	seqn := func(v int64) *int64 { return &v }
	for id, want := range map[int64]struct {
		processed, sent string
		seqn            *int64
	}{
		4: {"2026-12-02 08:30:15", "2026-12-02 08:30:15", seqn(-5)},
		3: {"2026-12-02 08:30:16", "2026-12-02 07:30:15", seqn(995)},
		2: {"2026-12-02 08:30:17", "", nil},
		1: {"2026-12-02 08:30:18", "2026-12-02 05:30:15", seqn(2995)},
	} {
		require.Equal(t, sql.NullString{String: want.processed, Valid: true}, stored(t, db, "CMINMSGS_DATE_PROCESSED", id), "row %d", id)
		require.Equal(t, sql.NullString{String: want.sent, Valid: want.sent != ""}, stored(t, db, "CMINMSGS_SUBSYSTEM_DATE_SENT", id), "row %d", id)
		row, err := mb.Get(ctx, id)
		require.NoError(t, err)
		require.Equal(t, want.seqn, row.Seqn, "row %d", id)
		require.Equal(t, "AODB", row.Sndr)
	}
}
