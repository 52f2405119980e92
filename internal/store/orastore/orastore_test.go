package orastore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

var ctx = context.Background()

// TestQueriesLoad: every PostgreSQL query has its Oracle twin under the same
// name and kind in the embedded files, and binds are read outside literals.
func TestQueriesLoad(t *testing.T) {
	pgFiles, err := filepath.Glob("../../../sql/postgres/queries/*.sql")
	if err != nil || len(pgFiles) == 0 {
		t.Fatalf("postgres queries: %v", err)
	}
	arrayFiles, _ := filepath.Glob("../../../sql/postgres/arrays/*.sql")
	re := regexp.MustCompile(`(?m)^--\s*name:\s*(\w+)\s+(:\w+)\n(--\s*postgres only:)?`)
	for _, f := range append(pgFiles, arrayFiles...) {
		data, _ := os.ReadFile(f)
		for _, m := range re.FindAllStringSubmatch(string(data), -1) {
			if m[3] != "" {
				continue
			}
			q, ok := queries[m[1]]
			if !ok {
				t.Errorf("%s: %s has no Oracle twin", filepath.Base(f), m[1])
			} else if q.Kind != m[2] {
				t.Errorf("%s: kind %s, PostgreSQL %s", m[1], q.Kind, m[2])
			}
		}
	}
	if got := queries["EventListMsgPendingAfter"].Binds; !slices.Equal(got, []string{"after_event_id", "max_rows"}) {
		t.Errorf("EventListMsgPendingAfter binds %v (':KAFKA:msg' in a literal is no bind)", got)
	}
	if got := queries["FlightDelete"]; !got.PLSQL || !slices.Equal(got.Binds, []string{"flid", "deleted"}) {
		t.Errorf("FlightDelete: PL/SQL %v binds %v", got.PLSQL, got.Binds)
	}
	for name, q := range queries {
		if !q.PLSQL && regexp.MustCompile(`;\s*$`).MatchString(q.SQL) {
			t.Errorf("%s ends with ';' (ORA-00911)", name)
		}
		if regexp.MustCompile(`(?m)^\s*--`).MatchString(q.SQL) {
			t.Errorf("%s: comment lines are sent", name)
		}
	}
}

// TestArgsExact: a call must pass exactly the binds of its query file.
func TestArgsExact(t *testing.T) {
	q := mustQuery("RefDelete")
	if _, err := q.args(map[string]any{"rtype": "AL"}); err == nil {
		t.Error("a missing bind was accepted")
	}
	if _, err := q.args(map[string]any{"rtype": "AL", "rkey": "K", "now": 1}); err == nil {
		t.Error("an extra bind was accepted")
	}
	args, err := q.args(map[string]any{"rtype": "AL", "rkey": "K"})
	if err != nil || len(args) != 2 {
		t.Fatalf("args %v, %v", args, err)
	}
}

func TestInterpret(t *testing.T) {
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	cases := []struct {
		ctx  context.Context
		err  error
		want error
	}{
		{ctx, &oraError{1, "unique constraint (MSGX.REQ_TRACK_OPEN_UQ) violated"}, store.ErrDuplicate},
		{ctx, &oraError{2290, "check constraint violated"}, store.ErrConflict},
		{ctx, &oraError{2291, "parent key not found"}, store.ErrConflict},
		{ctx, &oraError{8177, "can't serialize access"}, store.ErrConflict},
		{ctx, &oraError{60, "deadlock detected"}, store.ErrConflict},
		{ctx, &oraError{3113, "end-of-file on communication channel"}, store.ErrUnavailable},
		{ctx, &oraError{3114, "not connected to ORACLE"}, store.ErrUnavailable},
		{ctx, &oraError{12541, "TNS:no listener"}, store.ErrUnavailable},
		{ctx, &oraError{12170, "TNS:Connect timeout occurred"}, store.ErrUnavailable},
		{ctx, &oraError{28, "your session has been killed"}, store.ErrUnavailable},
		{ctx, errors.New("DPI-1080: connection was closed by ORA-3113"), store.ErrUnavailable},
		{cancelled, &oraError{1013, "user requested cancel"}, context.Canceled},
		{ctx, context.DeadlineExceeded, store.ErrUnavailable},
		{ctx, &oraError{942, "table or view does not exist"}, store.ErrSchema},
		{ctx, &oraError{904, `"STAMPS": invalid identifier`}, store.ErrSchema},
	}
	for _, c := range cases {
		got := interpret(c.ctx, c.err)
		if !errors.Is(got, c.want) || !errors.Is(got, c.err) {
			t.Errorf("%v: got %v, want %v wrapping the original", c.err, got, c.want)
		}
	}
	for _, err := range []error{&oraError{1400, "cannot insert NULL"}, &oraError{12899, "value too large"}} {
		if got := interpret(ctx, err); got != err {
			t.Errorf("%v must pass through (a bug, not a kind), got %v", err, got)
		}
	}
	if got := interpret(ctx, errors.New("sql: no rows in result set")); errors.Is(got, store.ErrNotFound) {
		t.Error("only sql.ErrNoRows is not found")
	}
}

// TestMissingSchema: a store read on a schema without msgx's table (ORA-00942)
// or column (ORA-00904) is store.ErrSchema, which msgx serve's start check
// turns into "run msgx schema migrate", as on PostgreSQL.
func TestMissingSchema(t *testing.T) {
	for _, code := range []int{942, 904} {
		_, s := newFake(t, answer{err: &oraError{code, "missing"}})
		_, err := s.QueueHead(ctx, 1)
		if !errors.Is(err, store.ErrSchema) {
			t.Errorf("ORA-%05d: got %v, want store.ErrSchema", code, err)
		}
	}
}

// TestLockPipeline: the exact statement of the file, now truncated to the
// microsecond; a concurrent first insert (ORA-00001) is retried once; then
// the count of enqueues below the largest known id is read under the lock.
func TestLockPipeline(t *testing.T) {
	now := time.Date(2026, 12, 3, 10, 0, 0, 123456789, time.UTC)
	f, s := newFake(t, answer{err: &oraError{1, "unique constraint (MSGX.PIPELINE_LOCK_PKEY) violated"}},
		answer{affected: 1}, rows("ENQUEUED_BELOW", []driver.Value{number("7")}))
	below, err := s.LockPipeline(ctx, now)
	if err != nil {
		t.Fatal(err)
	}
	if below != 7 {
		t.Errorf("enqueued below %d, want 7", below)
	}
	if len(f.calls) != 3 {
		t.Fatalf("%d calls, want the retry and the read", len(f.calls))
	}
	if want := "SELECT enqueued_below FROM pipeline_lock WHERE id = 1"; f.calls[2].SQL != want {
		t.Errorf("read sent:\n%s\nwant:\n%s", f.calls[2].SQL, want)
	}
	want := "MERGE INTO pipeline_lock t\nUSING (SELECT 1 AS id, :now AS locked_at FROM DUAL) s\nON (t.id = s.id)\n" +
		"WHEN MATCHED THEN UPDATE SET t.locked_at = s.locked_at\nWHEN NOT MATCHED THEN INSERT (id, locked_at) VALUES (s.id, s.locked_at)"
	if f.calls[1].SQL != want {
		t.Errorf("SQL sent:\n%s\nwant:\n%s", f.calls[1].SQL, want)
	}
	if got := f.calls[1].Args["now"]; got != now.Truncate(time.Microsecond) {
		t.Errorf("now bound as %v", got)
	}
}

// TestPumpPauseNulls: ” = NULL. An empty reason is bound NULL; a NULL read
// back is ""; no row and a row without a pause are both "running".
func TestPumpPauseNulls(t *testing.T) {
	now := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	cols := "ID PAUSED_DEPENDENCY PAUSED_REASON PAUSED_SINCE UPDATED_AT"
	f, s := newFake(t,
		answer{affected: 1},
		rows(cols, []driver.Value{number("1"), "postgres", nil, now, now}),
		rows(cols, []driver.Value{number("1"), nil, nil, nil, now}),
		rows(cols),
	)
	if err := s.PublishPause(ctx, store.Pause{Dependency: vocab.DependencyDatabase, Since: now, Now: now}); err != nil {
		t.Fatal(err)
	}
	if v, ok := f.calls[0].Args["reason"]; !ok || v != nil {
		t.Errorf("empty reason bound as %#v, want NULL", v)
	}
	p, err := s.PumpPause(ctx)
	if err != nil || p == nil || p.Dependency != "postgres" || p.Reason != "" || !p.Since.Equal(now) {
		t.Fatalf("pause %+v, %v", p, err)
	}
	for i := 0; i < 2; i++ {
		if p, err := s.PumpPause(ctx); err != nil || p != nil {
			t.Errorf("running: %+v, %v", p, err)
		}
	}
}

// TestRef: the record travels as a CLOB; NUMBER comes back as a decimal
// string and TIMESTAMP WITH TIME ZONE with its own offset.
func TestRef(t *testing.T) {
	cet := time.FixedZone("+01:00", 3600)
	at := time.Date(2026, 12, 3, 11, 0, 0, 5000, cet)
	f, s := newFake(t,
		answer{affected: 0},
		rows("RTYPE RKEY RECORD VERSION LAST_MESSAGE_ID CREATED_AT UPDATED_AT",
			[]driver.Value{"AL", "LH", "<AL>...</AL>", number("3"), number("9007199254740993"), at, at}),
		answer{err: errors.New("unused")},
	)
	changed, err := s.UpsertRef(ctx, vocab.RefRecord{RType: "AL", RKey: "LH", Record: "<AL>...</AL>", LastMessageID: 7, Now: at})
	if err != nil || changed {
		t.Fatalf("an identical record: changed %v, %v", changed, err)
	}
	if got := f.calls[0].Args["record"]; got != clob("<AL>...</AL>") {
		t.Errorf("record bound as %#v, want a CLOB", got)
	}
	r, err := s.Ref(ctx, "AL", "LH")
	if err != nil {
		t.Fatal(err)
	}
	if r.Record != "<AL>...</AL>" || r.Version != 3 || r.LastMessageID != 9007199254740993 || !r.Now.Equal(at) {
		t.Errorf("scanned %+v", r)
	}
	if f.calls[1].SQL != mustQuery("RefGet").SQL {
		t.Errorf("SQL %q", f.calls[1].SQL)
	}
	f2, s2 := newFake(t, rows("RTYPE"))
	if _, err := s2.Ref(ctx, "AL", "XX"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("missing record: %v", err)
	}
	_ = f2
}

// TestSnapshotGen: days are bound as YYYY-MM-DD text for TO_DATE and read
// back as the calendar day; a concurrent first create (ORA-00001) is the
// same conflict as 0 rows.
func TestSnapshotGen(t *testing.T) {
	fday := time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)
	now := fday.Add(8 * time.Hour)
	f, s := newFake(t,
		rows("FDAY VERSION LAST_MESSAGE_ID CONTENT_DIGEST UPDATED_AT MSG_DTTM_RAW MSG_DTTM",
			[]driver.Value{time.Date(2026, 12, 3, 0, 0, 0, 0, time.Local), number("2"), number("41"), nil, now, nil, nil}),
		answer{err: &oraError{1, "unique constraint (MSGX.SCHD_GEN_PKEY) violated"}},
		answer{affected: 0},
		answer{affected: 1},
	)
	g, err := s.SnapshotGen(ctx, fday)
	if err != nil || !g.FDay.Equal(fday) || g.Version != 2 || g.ContentDigest != "" || g.Dttm != nil {
		t.Fatalf("gen %+v, %v", g, err)
	}
	if f.calls[0].Args["fday"] != "2026-12-03" {
		t.Errorf("fday bound as %#v", f.calls[0].Args["fday"])
	}
	p := vocab.AdvanceSnapshotGenParams{FDay: fday, MessageID: 42, Now: now}
	if err := s.AdvanceSnapshotGen(ctx, p); !errors.Is(err, store.ErrConflict) {
		t.Errorf("create raced: %v, want ErrConflict", err)
	}
	p.ExpectedVersion = 2
	if err := s.AdvanceSnapshotGen(ctx, p); !errors.Is(err, store.ErrConflict) {
		t.Errorf("advance lost: %v, want ErrConflict", err)
	}
	if err := s.AdvanceSnapshotGen(ctx, p); err != nil {
		t.Errorf("advance: %v", err)
	}
	if got := f.calls[2].Args["expected_version"]; got != int64(2) {
		t.Errorf("expected_version %#v", got)
	}
}

// TestAddBackfills: one array-bound MERGE, a slice per bind, absent META as NULL.
func TestAddBackfills(t *testing.T) {
	now := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	seqn := int64(7)
	f, s := newFake(t)
	err := s.AddBackfills(ctx, []vocab.Backfill{
		{MsgID: 1, MailboxStatus: "SUCCEEDED", ProcessedAt: now, Meta: vocab.Meta{Sndr: "AODB", Seqn: &seqn}},
		{MsgID: 2, MailboxStatus: "DEAD", ProcessedAt: now},
	})
	if err != nil || len(f.calls) != 1 {
		t.Fatalf("%v, %d calls", err, len(f.calls))
	}
	a := f.calls[0].Args
	if ids, ok := a["msg_id"].([]int64); !ok || !slices.Equal(ids, []int64{1, 2}) {
		t.Errorf("msg_id %#v", a["msg_id"])
	}
	sndr, ok := a["meta_sndr"].([]sql.NullString)
	if !ok || !sndr[0].Valid || sndr[0].String != "AODB" || sndr[1].Valid {
		t.Errorf("meta_sndr %#v: want AODB, then NULL", a["meta_sndr"])
	}
	if seq, ok := a["meta_seqn"].([]sql.NullInt64); !ok || seq[0].Int64 != 7 || seq[1].Valid {
		t.Errorf("meta_seqn %#v", a["meta_seqn"])
	}
}

// TestLeaderLock: the lock session is named, then DBMS_LOCK.REQUEST's
// return codes are read from the out bind: 0 and 4 hold, 1 does not; a
// standby's wait is REQUEST with its timeout in whole seconds, rounded up.
func TestLeaderLock(t *testing.T) {
	f, s := newFake(t)
	dial := LeaderDialer(s.db, 42, 6*time.Second)
	sess, err := dial(ctx, "msgx-lock host:1")
	if err != nil {
		t.Fatal(err)
	}
	if f.calls[0].Args["module_name"] != "msgx-lock host:1" || f.calls[1].Args["timeout"] != "6000" {
		t.Errorf("session setup binds %v %v", f.calls[0].Args, f.calls[1].Args)
	}
	for _, c := range []struct {
		rc   int64
		held bool
		err  bool
	}{{0, true, false}, {4, true, false}, {1, false, false}, {2, false, true}} {
		f.outs = append(f.outs, c.rc)
		held, err := sess.Lock(ctx, 0)
		if held != c.held || (err != nil) != c.err {
			t.Errorf("rc %d: held %v, err %v", c.rc, held, err)
		}
	}
	last := f.calls[len(f.calls)-1]
	if last.SQL != mustQuery("LeaderTryLock").SQL || last.Args["lock_id"] != int64(42) {
		t.Errorf("Lock(0) sent %q %v", last.SQL, last.Args)
	}
	for _, c := range []struct {
		rc   int64
		held bool
	}{{0, true}, {1, false}} {
		f.outs = append(f.outs, c.rc)
		held, err := sess.Lock(ctx, 1500*time.Millisecond)
		if held != c.held || err != nil {
			t.Errorf("wait, rc %d: held %v, err %v", c.rc, held, err)
		}
	}
	last = f.calls[len(f.calls)-1]
	if last.SQL != mustQuery("LeaderWaitLock").SQL || last.Args["lock_id"] != int64(42) || last.Args["timeout"] != int64(2) {
		t.Errorf("Lock(1.5s) sent %q %v", last.SQL, last.Args)
	}
	if err := sess.Close(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestSessions: the lock sessions with the leader flag from V$LOCK.
func TestSessions(t *testing.T) {
	at := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	f, s := newFake(t, rows("PID APPLICATION_NAME CLIENT_ADDR BACKEND_START LEADER",
		[]driver.Value{number("77"), "msgx-lock a:1", "hostA", at, number("1")},
		[]driver.Value{number("78"), "msgx-lock b:2", nil, at, number("0")}))
	got, err := Sessions(ctx, s, 42)
	if err != nil || len(got) != 2 || !got[0].Leading || got[1].Leading || got[0].PID != 77 || got[1].Client != "" {
		t.Fatalf("sessions %+v, %v", got, err)
	}
	if f.calls[0].Args["lock_id"] != int64(42) {
		t.Errorf("lock_id %v", f.calls[0].Args)
	}
}
