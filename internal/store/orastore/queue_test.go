package orastore

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

const procStateCols = "MSG_ID STATUS IDENTITY_KEY KIND MSG_TYPE MSG_SUBTYPE META_SNDR META_SEQN META_DTTM_RAW META_DTTM " +
	"ATTEMPTS NEXT_ATTEMPT_AT FIRST_SEEN_AT FAILING_SINCE ERROR_CLASS REASON DUPLICATE_OF REPLAY_COUNT " +
	"PREV_ERROR_CLASS PREV_REASON FINISHED_AT CREATED_AT UPDATED_AT LATE_AFTER RAW_DIGEST"

const procStateHstCols = "MSG_ID STATUS IDENTITY_KEY KIND MSG_TYPE MSG_SUBTYPE META_SNDR META_SEQN META_DTTM_RAW META_DTTM " +
	"ATTEMPTS FIRST_SEEN_AT ERROR_CLASS REASON DUPLICATE_OF REPLAY_COUNT PREV_ERROR_CLASS PREV_REASON FINISHED_AT CREATED_AT ARCHIVED_AT LATE_AFTER RAW_DIGEST"

// TestMessage: a live row with NULLs reads as absent ("" / nil); a missing
// live row falls back to the archive.
func TestMessage(t *testing.T) {
	at := time.Date(2026, 12, 3, 10, 0, 0, 0, time.FixedZone("+08:00", 8*3600))
	f, s := newFake(t,
		rows(procStateCols, []driver.Value{number("5"), "PENDING", nil, nil, nil, nil, nil, nil, nil, nil,
			number("0"), nil, at, nil, nil, nil, nil, number("0"), nil, nil, nil, at, at, nil, nil}),
		rows(procStateCols),
		rows(procStateHstCols, []driver.Value{number("6"), "SUCCEEDED", "AODB|FLUP|U|1", "flight ops", "FLUP", "U", "AODB", number("1"), "20261203100000", at,
			number("1"), at, nil, nil, nil, number("0"), nil, nil, at, at, at, number("9"), []byte{0xab, 0xcd}}),
	)
	m, err := s.Message(ctx, 5)
	if err != nil || m.ID != 5 || m.IdentityKey != "" || m.Meta.Seqn != nil || m.ErrorClass != "" || m.FinishedAt != nil || m.Archived {
		t.Fatalf("live %+v, %v", m, err)
	}
	m, err = s.Message(ctx, 6)
	if err != nil || !m.Archived || m.IdentityKey != "AODB|FLUP|U|1" || *m.Meta.Seqn != 1 || !m.FinishedAt.Equal(at) || *m.LateAfter != 9 || string(m.Digest) != "\xab\xcd" {
		t.Fatalf("archived %+v, %v", m, err)
	}
	if f.calls[2].SQL != mustQuery("ProcStateHstGet").SQL {
		t.Errorf("fallback sent %q", f.calls[2].SQL)
	}
}

// TestRecordFailure: the attempts come back through RETURNING INTO; no row
// updated is ErrStale; kind/META without a Bind are NULL (kept); the
// replay count read is bound for the check.
func TestRecordFailure(t *testing.T) {
	now := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	f, s := newFake(t, answer{affected: 1}, answer{affected: 0})
	f.outs = []any{int64(3), int64(9)}
	n, err := s.RecordFailure(ctx, vocab.RecordFailureParams{MsgID: 5, ReplayCount: 2, ErrorClass: "INFRA", Reason: "x", NextAttemptAt: now, Now: now})
	if err != nil || n != 3 {
		t.Fatalf("attempts %d, %v", n, err)
	}
	if v := f.calls[0].Args["read_replay_count"]; v != int64(2) {
		t.Errorf("read_replay_count bound as %#v, want 2", v)
	}
	if v := f.calls[0].Args["kind"]; v != nil {
		t.Errorf("kind without a Bind bound as %#v, want NULL", v)
	}
	if _, err := s.RecordFailure(ctx, vocab.RecordFailureParams{MsgID: 6, Now: now, NextAttemptAt: now}); !errors.Is(err, store.ErrStale) {
		t.Errorf("no row: %v", err)
	}
}

// TestFinishMessages: one array-bound UPDATE, a slice per bind, with what
// each row must still be; fewer rows than messages is ErrStale.
func TestFinishMessages(t *testing.T) {
	now := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	f, s := newFake(t, answer{affected: 2}, answer{affected: 1})
	fin := []vocab.Finish{
		{MsgID: 1, Status: "SUCCEEDED", Now: now, Bind: &vocab.Binding{IdentityKey: "K1", Kind: "flight ops", Digest: []byte{0xab, 0x01}}},
		{MsgID: 2, Status: "DEAD", ErrorClass: "MALFORMED", Reason: "bad", Now: now,
			Read: vocab.RowRead{Status: "FAILED", ReplayCount: 2, IdentityKey: "K0"}},
	}
	if err := s.FinishMessages(ctx, fin); err != nil {
		t.Fatal(err)
	}
	a := f.calls[0].Args
	if !slices.Equal(a["bind_meta"].([]int64), []int64{1, 0}) || !slices.Equal(a["msg_id"].([]int64), []int64{1, 2}) {
		t.Errorf("bind_meta %v msg_id %v", a["bind_meta"], a["msg_id"])
	}
	if k := a["identity_key"].([]sql.NullString); k[0].String != "K1" || k[1].Valid {
		t.Errorf("identity_key %v", k)
	}
	if d := a["raw_digest"].([]sql.NullString); d[0].String != "ab01" || d[1].Valid {
		t.Errorf("raw_digest %v, want hex and NULL", d)
	}
	if st := a["read_status"].([]sql.NullString); st[0].Valid || st[1].String != "FAILED" {
		t.Errorf("read_status %v, want NULL (no check) and FAILED", st)
	}
	if k := a["read_identity"].([]sql.NullString); k[0].Valid || k[1].String != "K0" {
		t.Errorf("read_identity %v", k)
	}
	if !slices.Equal(a["read_replay_count"].([]int64), []int64{0, 2}) {
		t.Errorf("read_replay_count %v", a["read_replay_count"])
	}
	if err := s.FinishMessages(ctx, fin); !errors.Is(err, store.ErrStale) {
		t.Errorf("one row not as read: %v", err)
	}
}

// TestQueueCounts: a NULL class reads as "".
func TestQueueCounts(t *testing.T) {
	_, s := newFake(t, rows("STATUS ERROR_CLASS MESSAGES",
		[]driver.Value{"DEAD", "MALFORMED", number("2")}, []driver.Value{"PENDING", nil, number("7")}))
	c, err := s.QueueCounts(ctx)
	if err != nil || len(c) != 2 || c[1] != (store.StatusCount{Status: "PENDING", Messages: 7}) {
		t.Fatalf("counts %+v, %v", c, err)
	}
}
