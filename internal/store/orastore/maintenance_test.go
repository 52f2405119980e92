package orastore

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// TestSweeps: the archive and the purges send their block with the
// batch bound, the dry run as the NUMBER 1 (0 otherwise), and read the
// count and oldest/newest from the OUT binds; no row gives nil bounds.
func TestSweeps(t *testing.T) {
	now := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	old, young := now.Add(-48*time.Hour), now.Add(-25*time.Hour)
	f, s := newFake(t)
	runs := []struct {
		name, before string
		run          func(dry bool) (store.Swept, error)
	}{
		{"ProcStateArchive", "finished_before", func(dry bool) (store.Swept, error) {
			return s.ArchiveMessages(ctx, store.ArchiveMessagesParams{Before: now, Max: 100, Now: now, DryRun: dry})
		}},
		{"SchdSnapLogPurge", "before", func(dry bool) (store.Swept, error) {
			return s.PurgeSnapshotLogs(ctx, store.RetentionParams{Before: now, Max: 100, DryRun: dry})
		}},
		{"IngressGapPurge", "before", func(dry bool) (store.Swept, error) {
			return s.PurgeIngressGaps(ctx, store.RetentionParams{Before: now, Max: 100, DryRun: dry})
		}},
		{"EventPurgeDelivered", "created_before", func(dry bool) (store.Swept, error) {
			return s.PurgeEvents(ctx, store.RetentionParams{Before: now, Max: 100, DryRun: dry})
		}},
	}
	for _, r := range runs {
		for _, dry := range []bool{false, true} {
			f.calls = nil
			f.outs = []any{int64(2), sql.NullTime{Time: old, Valid: true}, sql.NullTime{Time: young, Valid: true}}
			sw, err := r.run(dry)
			if err != nil || sw.Rows != 2 || !sw.Oldest.Equal(old) || !sw.Newest.Equal(young) {
				t.Fatalf("%s dry=%v: %+v, %v", r.name, dry, sw, err)
			}
			c := f.calls[0]
			want := 0
			if dry {
				want = 1
			}
			if c.SQL != mustQuery(r.name).SQL || c.Args["dry_run"] != want || c.Args["max_rows"] != 100 || c.Args[r.before] != now {
				t.Errorf("%s dry=%v sent %v", r.name, dry, c.Args)
			}
		}
		f.outs = []any{int64(0), sql.NullTime{}, sql.NullTime{}}
		if sw, err := r.run(false); err != nil || sw.Rows != 0 || sw.Oldest != nil || sw.Newest != nil {
			t.Errorf("%s empty: %+v, %v", r.name, sw, err)
		}
	}
	if q := mustQuery("ProcStateArchive"); q.Kind != ":one" || !q.PLSQL || !strings.Contains(q.SQL, "IF :dry_run = 0 THEN") {
		t.Errorf("ProcStateArchive %s %q", q.Kind, q.SQL)
	}
}

// TestPurgeCandidates: the day bound is TO_DATE text, the instants are
// TIMESTAMP WITH TIME ZONE; the preview's DATE bounds read back as UTC days.
func TestPurgeCandidates(t *testing.T) {
	at := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	p := store.PurgeParams{DeletedBefore: at.Add(-time.Hour), DayBefore: at.AddDate(0, 0, -30), QuietBefore: at.Add(-2 * time.Hour), Max: 50}
	local := time.FixedZone("site", 3600)
	f, s := newFake(t, rows("AFFECTED OLDEST NEWEST", []driver.Value{number("3"),
		time.Date(2026, 10, 1, 0, 0, 0, 0, local), time.Date(2026, 11, 2, 0, 0, 0, 0, local)}))
	sw, err := s.PreviewPurge(ctx, p)
	if err != nil || sw.Rows != 3 || !sw.Oldest.Equal(time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)) || !sw.Newest.Equal(time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("preview %+v, %v", sw, err)
	}
	c := f.calls[0]
	if c.SQL != mustQuery("FlightPurgePreview").SQL || c.Args["day_before"] != "2026-11-03" || c.Args["deleted_before"] != p.DeletedBefore ||
		c.Args["quiet_before"] != p.QuietBefore || c.Args["max_rows"] != 50 {
		t.Errorf("preview sent %v", c.Args)
	}
	f.calls = nil
	states, err := s.PurgeCandidates(ctx, p)
	if err != nil || len(states) != 0 || f.calls[0].SQL != mustQuery("FlightListPurgeCandidates").SQL || f.calls[0].Args["day_before"] != "2026-11-03" {
		t.Fatalf("candidates %v, %v, %v", states, err, f.calls)
	}
	f.answers = []answer{rows("AFFECTED OLDEST NEWEST", []driver.Value{number("0"), nil, nil})}
	if sw, err := s.PreviewPurge(ctx, p); err != nil || sw.Rows != 0 || sw.Oldest != nil || sw.Newest != nil {
		t.Errorf("empty preview %+v, %v", sw, err)
	}
}

// TestFlightHistory: one INSERT per flight with the state as a CLOB and the
// day as text; the latest row scans NUMBER, DATE, CLOB and timestamps;
// DeleteFlights binds the ids as a collection and reads :deleted.
func TestFlightHistory(t *testing.T) {
	at := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	d := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	h := store.FlightHistory{FLID: 7, OperationDay: d, Lifecycle: "DELETED", StateVersion: 4, LastMessageID: 41,
		State: []byte(`{"flid":7}`), CreatedAt: at.Add(-time.Hour), PurgedAt: at}
	f, s := newFake(t)
	if err := s.WriteFlightHistory(ctx, []store.FlightHistory{h, h}); err != nil || len(f.calls) != 2 {
		t.Fatalf("write %v, %d calls", err, len(f.calls))
	}
	c := f.calls[0]
	if c.SQL != mustQuery("FlightHstInsert").SQL || c.Args["state"] != clob(`{"flid":7}`) || c.Args["operation_day"] != "2026-11-01" || c.Args["purged_at"] != at {
		t.Errorf("insert sent %v", c.Args)
	}

	f.calls = nil
	f.answers = []answer{rows("HST_ID FLID OPERATION_DAY LIFECYCLE STATE_VERSION LAST_MESSAGE_ID STATE FLIGHT_CREATED_AT PURGED_AT",
		[]driver.Value{number("12"), number("7"), time.Date(2026, 11, 1, 0, 0, 0, 0, time.FixedZone("site", 3600)), "DELETED",
			number("4"), number("41"), `{"flid":7}`, h.CreatedAt, at})}
	got, err := s.LatestFlightHistory(ctx, 7)
	if err != nil || got.FLID != 7 || !got.OperationDay.Equal(d) || got.StateVersion != 4 || string(got.State) != `{"flid":7}` || !got.PurgedAt.Equal(at) {
		t.Fatalf("latest %+v, %v", got, err)
	}
	if f.calls[0].Args["flid"] != int64(7) {
		t.Errorf("latest sent %v", f.calls[0].Args)
	}
	if _, err := s.LatestFlightHistory(ctx, 8); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("never purged: %v", err)
	}

	f.calls = nil
	if n, err := s.DeleteFlights(ctx, store.DeleteFlightsParams{Max: 5}); n != 0 || err != nil || len(f.calls) != 0 {
		t.Errorf("no flids: %d, %v, %d calls", n, err, len(f.calls))
	}
	f.outs = []any{int64(2)}
	n, err := s.DeleteFlights(ctx, store.DeleteFlightsParams{FLIDs: []int64{7, 9, 11}, Max: 2})
	if err != nil || n != 2 {
		t.Fatalf("deleted %d, %v", n, err)
	}
	if c := f.calls[0]; c.SQL != mustQuery("FlightDeleteMany").SQL || !slices.Equal(c.Args["flids"].([]int64), []int64{7, 9, 11}) || c.Args["max_rows"] != 2 {
		t.Errorf("delete sent %v", c.Args)
	}
}

// TestJobRuns: a success binds LAST_ERROR as NULL (which moves LAST_OK_AT in
// the MERGE), an error is cut to 1000 characters; NULL bounds read as nil.
func TestJobRuns(t *testing.T) {
	at := time.Date(2026, 12, 3, 3, 0, 0, 0, time.UTC)
	f, s := newFake(t)
	if err := s.SaveJobRun(ctx, store.JobRun{Job: "archive", StartedAt: at, Duration: 1500 * time.Millisecond,
		Swept: store.Swept{Rows: 3, Oldest: &at}}); err != nil {
		t.Fatal(err)
	}
	c := f.calls[0]
	if c.SQL != mustQuery("MaintenanceRunSave").SQL || c.Args["last_error"] != nil || c.Args["duration_ms"] != int64(1500) ||
		c.Args["affected"] != int64(3) || c.Args["oldest"] != at || c.Args["newest"] != nil {
		t.Errorf("save sent %v", c.Args)
	}
	if err := s.SaveJobRun(ctx, store.JobRun{Job: "outbox", StartedAt: at, Error: strings.Repeat("é", 1200)}); err != nil {
		t.Fatal(err)
	}
	if e := f.calls[1].Args["last_error"].(string); len([]rune(e)) != 1000 {
		t.Errorf("error of %d characters bound", len([]rune(e)))
	}

	f.answers = []answer{rows("JOB STARTED_AT DURATION_MS AFFECTED OLDEST NEWEST LAST_ERROR LAST_OK_AT",
		[]driver.Value{"archive", at, number("1500"), number("3"), at, nil, nil, at},
		[]driver.Value{"outbox", at, number("20"), number("0"), nil, nil, "ORA-00060: deadlock", nil})}
	runs, err := s.JobRuns(ctx)
	if err != nil || len(runs) != 2 {
		t.Fatalf("runs %+v, %v", runs, err)
	}
	a, o := runs[0], runs[1]
	if a.Duration != 1500*time.Millisecond || a.Rows != 3 || !a.Oldest.Equal(at) || a.Newest != nil || a.Error != "" || !a.LastOKAt.Equal(at) {
		t.Errorf("archive %+v", a)
	}
	if o.Error != "ORA-00060: deadlock" || o.LastOKAt != nil || o.Oldest != nil {
		t.Errorf("outbox %+v", o)
	}
}

// TestEventListsAndDueRequests: a flight's events and the dead letters
// send their binds and read the effective status; DueRequests leaves the
// bounds nil when nothing is due.
func TestEventListsAndDueRequests(t *testing.T) {
	at := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	ev := func(id, status any) []driver.Value {
		return []driver.Value{id, "KAFKA:msg", "7", "FLIGHT_UPDATED", number("41"), number("7"), number("3"),
			"41:7:3:KAFKA:msg", "{}", status, number("0"), nil, nil, at, nil}
	}
	cols := "EVENT_ID TARGET PARTITION_KEY EVENT_TYPE CMINMSGS_ID FLID STATE_VERSION IDEMPOTENCY_KEY PAYLOAD STATUS ATTEMPTS NEXT_ATTEMPT_AT LAST_ERROR CREATED_AT SENT_AT"
	f, s := newFake(t, rows(cols, ev(number("5"), "SENT"), ev(number("6"), "PENDING")), rows(cols, ev(number("9"), "DEAD")),
		rows("DUE OLDEST NEWEST", []driver.Value{number("2"), at.Add(-time.Hour), at}),
		rows("DUE OLDEST NEWEST", []driver.Value{number("0"), at, at}))
	evs, err := s.EventsOfFlight(ctx, 7)
	if err != nil || len(evs) != 2 || evs[0].ID != 5 || evs[1].Status != vocab.EventPending || f.calls[0].Args["flid"] != int64(7) {
		t.Fatalf("flight events %+v, %v", evs, err)
	}
	dead, err := s.DeadEvents(ctx, store.DeadEventsParams{Target: vocab.TargetMsg, AfterID: 8, Limit: 10})
	if err != nil || len(dead) != 1 || dead[0].Status != "DEAD" {
		t.Fatalf("dead %+v, %v", dead, err)
	}
	if c := f.calls[1]; c.SQL != mustQuery("EventListDead").SQL || c.Args["target"] != vocab.TargetMsg || c.Args["after_event_id"] != int64(8) || c.Args["page_size"] != 10 {
		t.Errorf("dead sent %v", c.Args)
	}
	sw, err := s.DueRequests(ctx, at)
	if err != nil || sw.Rows != 2 || !sw.Oldest.Equal(at.Add(-time.Hour)) || !sw.Newest.Equal(at) || f.calls[2].Args["now"] != at {
		t.Fatalf("due %+v, %v", sw, err)
	}
	if sw, err := s.DueRequests(ctx, at); err != nil || sw.Rows != 0 || sw.Oldest != nil {
		t.Errorf("none due %+v, %v", sw, err)
	}
}
