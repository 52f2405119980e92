package pgstore_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// ProcStateFinishMany and BackfillTodoAdd take their rows as one array per
// column (sql/postgres/arrays) and write what the JSON rows wrote: an empty
// string or digest is NULL, a column set in later rows only is NULL in the
// earlier ones (its array is made at its first value), an unbound finish
// keeps what is bound, times are rounded to the microsecond as PostgreSQL
// rounded their text, and the statement's now is truncated as pgx sends a
// time.Time. The expected rows are what the JSON statements (json_to_recordset,
// before issue #34) wrote; this test passed against them.
func TestFinishAndTodoColumnsWriteWhatTheJSONRowsWrote(t *testing.T) {
	t.Parallel()
	pool := testdb.Postgres(t).Pool
	s := pgstore.New(pool)
	ctx := t.Context()
	now := time.Date(2026, 12, 4, 8, 0, 0, 987654721, time.UTC)
	dttm := time.Date(2026, 12, 4, 7, 59, 58, 123456789, time.UTC)
	seqn, dup := int64(20000001), int64(3)
	_, err := s.Enqueue(ctx, []int64{1, 2, 3, 4}, now)
	require.NoError(t, err)
	_, err = s.RecordFailure(ctx, vocab.RecordFailureParams{MsgID: 2, ErrorClass: "INFRA", Now: now, NextAttemptAt: now,
		Bind: &vocab.Binding{Kind: "FLOP", Meta: vocab.Meta{Sndr: "AODB", Type: "FLOP", Styp: "GTDT"}}})
	require.NoError(t, err)

	full := vocab.Meta{Sndr: "AODB", Seqn: &seqn, DttmRaw: "20261204075958", Dttm: &dttm, Type: "FLOP", Styp: "STND"}
	require.NoError(t, s.FinishMessages(ctx, []vocab.Finish{
		{MsgID: 1, Status: "SUCCEEDED", Now: now, Bind: &vocab.Binding{IdentityKey: "AODB|FLOP|STND|20000001", Kind: "FLOP", Meta: full, Digest: []byte{0xab, 0xcd}}},
		{MsgID: 2, Status: "SKIPPED", Reason: "superseded", Now: now},
		{MsgID: 3, Status: "SUCCEEDED", Now: now, Bind: &vocab.Binding{Kind: "FLOP", Digest: []byte{}}},
		{MsgID: 4, Status: "DEAD", ErrorClass: "PROTOCOL", Reason: "duplicate of 3", DuplicateOf: &dup, Now: now},
	}))
	require.NoError(t, s.AddBackfills(ctx, []vocab.Backfill{
		{MsgID: 1, MailboxStatus: "SUCCEEDED", ProcessedAt: dttm, Meta: vocab.Meta{Sndr: "", Type: "FLOP"}},
		{MsgID: 2, MailboxStatus: "SKIPPED", ProcessedAt: now, Meta: full, Registration: 2},
	}))

	rows := func(sql string) []string { return textRows(t, pool, sql) }
	require.Equal(t, []string{
		`(1,SUCCEEDED,,,,AODB|FLOP|STND|20000001,FLOP,FLOP,STND,AODB,20000001,20261204075958,"2026-12-04 07:59:58.123457+00","\\xabcd",,"2026-12-04 08:00:00.987654+00","2026-12-04 08:00:00.987654+00")`,
		`(2,SKIPPED,,superseded,,,FLOP,FLOP,GTDT,AODB,,,,,,"2026-12-04 08:00:00.987654+00","2026-12-04 08:00:00.987654+00")`,
		`(3,SUCCEEDED,,,,,FLOP,,,,,,,,,"2026-12-04 08:00:00.987654+00","2026-12-04 08:00:00.987654+00")`,
		`(4,DEAD,PROTOCOL,"duplicate of 3",3,,,,,,,,,,,"2026-12-04 08:00:00.987654+00","2026-12-04 08:00:00.987654+00")`,
	}, rows(`SELECT ROW(msg_id, status, error_class, reason, duplicate_of, identity_key, kind, msg_type, msg_subtype,
		meta_sndr, meta_seqn, meta_dttm_raw, meta_dttm, raw_digest, next_attempt_at, finished_at, updated_at)::text
		FROM proc_state ORDER BY msg_id`))
	require.Equal(t, []string{
		`(1,SUCCEEDED,"2026-12-04 07:59:58.123457+00",,,,FLOP,,0,"2026-12-04 07:59:58.123457+00",,"2026-12-04 07:59:58.123457+00",0)`,
		`(2,SKIPPED,"2026-12-04 08:00:00.987655+00",AODB,20000001,"2026-12-04 07:59:58.123457+00",FLOP,STND,0,"2026-12-04 08:00:00.987655+00",,"2026-12-04 08:00:00.987655+00",2)`,
	}, rows(`SELECT ROW(msg_id, mailbox_status, processed_at, meta_sndr, meta_seqn, meta_dttm, meta_type, meta_styp,
		attempts, next_attempt_at, last_error, created_at, registration)::text FROM backfill_todo ORDER BY msg_id`))
}
