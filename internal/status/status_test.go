package status_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/leader"
	"github.com/msgx-aodb/msgx/internal/status"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

var t0 = time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)

var shanghai = time.FixedZone("+08:00", 8*3600)

// seed writes a known queue, outbox and backfill through the store:
//
//	1 SUCCEEDED, 2 DEAD PROTOCOL, 3 DEAD EXHAUSTED, 4 DEAD PROTOCOL,
//	5 FAILED INFRA (head, 2 attempts, first seen at t0), 6 PENDING, 7 PENDING;
//	outbox: KAFKA:msg 2 pending (oldest t0+1m), KAFKA:schd 1 pending (t0+3m), 1 sent;
//	backfill: todos 1, 2 (2 failed once), oldest t0+30s.
func seed(t *testing.T, s store.Store) {
	t.Helper()
	ctx := t.Context()
	_, err := s.Enqueue(ctx, []int64{1, 2, 3, 4, 5}, t0)
	require.NoError(t, err)
	_, err = s.Enqueue(ctx, []int64{6, 7}, t0.Add(time.Minute))
	require.NoError(t, err)
	require.NoError(t, s.FinishMessages(ctx, []vocab.Finish{
		{MsgID: 1, Status: vocab.StatusSucceeded, Now: t0},
		{MsgID: 2, Status: vocab.StatusDead, ErrorClass: "PROTOCOL", Reason: "RECS", Now: t0},
		{MsgID: 3, Status: vocab.StatusDead, ErrorClass: "EXHAUSTED", Reason: "attempts", Now: t0},
		{MsgID: 4, Status: vocab.StatusDead, ErrorClass: "PROTOCOL", Reason: "day", Now: t0},
	}))
	for i := range 2 {
		_, err = s.RecordFailure(ctx, vocab.RecordFailureParams{MsgID: 5, ErrorClass: "INFRA", Reason: "db\ndown",
			NextAttemptAt: t0.Add(time.Duration(i+5) * time.Minute), Now: t0})
		require.NoError(t, err)
	}

	ev := func(msg, flid int64, target string, at time.Duration) vocab.NewEvent {
		e := vocab.NewEvent{Target: target, EventType: vocab.EventUpsert, MsgID: msg, FLID: flid, StateVersion: 1,
			IdempotencyKey: vocab.IdempotencyKey(msg, flid, 1, target), CreatedAt: t0.Add(at)}
		if target == vocab.TargetMsg { // a KAFKA:schd event's payload is its twin's
			e.Payload = []byte(`{}`)
		}
		return e
	}
	require.NoError(t, s.InsertEvents(ctx, []vocab.NewEvent{
		ev(1, 10, vocab.TargetMsg, 0), ev(1, 11, vocab.TargetMsg, time.Minute), ev(1, 12, vocab.TargetMsg, 2*time.Minute),
	}))
	require.NoError(t, s.MarkSchd(ctx, []vocab.SchdMark{{FLID: 10, MsgID: 1, StateVersion: 1, EventType: vocab.EventUpsert, CreatedAt: t0.Add(3 * time.Minute)}}))
	head, err := s.PendingEvents(ctx, vocab.TargetMsg, 1)
	require.NoError(t, err)
	require.NoError(t, s.MarkSent(ctx, store.MarkSentParams{Target: vocab.TargetMsg, IDs: []int64{head[0].ID}, Now: t0}))

	require.NoError(t, s.PassBackfillMark(ctx, 4, t0)) // 1-4 backfilled, then 1 and 2 todos again
	require.NoError(t, s.AddBackfills(ctx, []vocab.Backfill{
		{MsgID: 1, MailboxStatus: vocab.StatusSucceeded, ProcessedAt: t0.Add(30 * time.Second)},
		{MsgID: 2, MailboxStatus: vocab.StatusDead, ProcessedAt: t0.Add(time.Minute)},
	}))
	require.NoError(t, s.RecordBackfillFailure(ctx, store.RecordBackfillFailureParams{Backfill: vocab.Backfill{MsgID: 2, MailboxStatus: vocab.StatusSucceeded, ProcessedAt: t0}, NextAttemptAt: t0.Add(time.Hour), Reason: "mailbox down"}))

	// An open request (registered 3 minutes in, SENT) and a closed one.
	done, err := s.InsertRequest(ctx, store.NewRequest{Type: "RQRD", Key: "RQRD:AIRL", List: "AIRL", Sender: "MSGX", Seqn: 1, Now: t0, ExpiresAt: t0.Add(10 * time.Minute)})
	require.NoError(t, err)
	_, err = s.ExpireRequestKey(ctx, store.ExpireRequestKeyParams{Key: done.Key, Note: "superseded", Now: t0})
	require.NoError(t, err)
	open, err := s.InsertRequest(ctx, store.NewRequest{Type: "RQFD", Key: "RQFD", Sender: "MSGX", Seqn: 2, Now: t0.Add(3 * time.Minute), ExpiresAt: t0.Add(13 * time.Minute)})
	require.NoError(t, err)
	require.NoError(t, s.MarkRequestSent(ctx, store.MarkRequestSentParams{ID: open.ID, OutboundID: 77, SentAt: t0.Add(3 * time.Minute), ExpiresAt: t0.Add(13 * time.Minute)}))
	require.NoError(t, s.SaveJobRun(ctx, store.JobRun{Job: "history", StartedAt: t0, Duration: 1500 * time.Millisecond,
		Swept: store.Swept{Rows: 12, Oldest: &t0, Newest: &t0}}))
	require.NoError(t, s.SaveJobRun(ctx, store.JobRun{Job: "archive", StartedAt: t0, Duration: time.Second, Error: "statement timeout"}))
}

func TestCollectKnownDatabase(t *testing.T) {
	t.Parallel()
	s := pgstore.New(testdb.Postgres(t).Pool)
	seed(t, s)
	now := t0.Add(10 * time.Minute)

	r, err := status.Collect(t.Context(), s, now)
	require.NoError(t, err)
	require.True(t, r.At.Equal(now))
	require.Empty(t, r.Role, "the caller fills the role")

	require.NotNil(t, r.Head)
	require.Equal(t, int64(5), r.Head.MsgID)
	require.Equal(t, vocab.StatusFailed, r.Head.Status)
	require.Equal(t, 2, r.Head.Attempts)
	require.Equal(t, "INFRA", *r.Head.ErrorClass)
	require.Equal(t, 600.0, r.Head.AgeSeconds, "age since first seen, not since the last attempt")
	require.True(t, r.Head.NextAttemptAt.Equal(t0.Add(6*time.Minute)))

	require.Equal(t, int64(3), r.Backlog, "FAILED 5 and PENDING 6, 7")
	require.Equal(t, map[string]int64{"DEAD": 3, "FAILED": 1, "PENDING": 2}, r.ByStatus, "SUCCEEDED 1 is not counted live")
	require.Equal(t, map[string]int64{"PROTOCOL": 2, "EXHAUSTED": 1}, r.DeadLetters)
	require.Equal(t, map[string]int64{"INFRA": 1}, r.Failing)

	require.Len(t, r.Outbox, 2)
	require.Equal(t, status.TargetLag{Target: vocab.TargetMsg, Pending: 2, OldestAt: r.Outbox[0].OldestAt, OldestAgeSeconds: 540}, r.Outbox[0])
	require.True(t, r.Outbox[0].OldestAt.Equal(t0.Add(time.Minute)))
	require.Equal(t, vocab.TargetSchd, r.Outbox[1].Target)
	require.Equal(t, int64(1), r.Outbox[1].Pending)
	require.Equal(t, 420.0, r.Outbox[1].OldestAgeSeconds)

	require.Equal(t, int64(2), r.Backfill.Todos)
	require.Equal(t, int64(1), r.Backfill.Failing)
	require.True(t, r.Backfill.OldestAt.Equal(t0.Add(30*time.Second)))
	require.Equal(t, 570.0, r.Backfill.OldestAgeSeconds)

	// The JSON keys are an interface: snake_case, every field always present.
	b, err := json.Marshal(r)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	require.ElementsMatch(t, []string{"at", "role", "instances", "dependencies", "shadow", "paused", "head", "backlog", "by_status", "dead_letters", "failing", "outbox", "backfill", "requests", "maintenance", "ingress"}, keys(m))
	require.Nil(t, m["paused"], "the pump runs")
	require.ElementsMatch(t, []string{"id", "kind", "status", "registered_at", "sent_at", "expires_at", "coutmsgs_id", "age_seconds"},
		keys(m["requests"].([]any)[0].(map[string]any)))
	require.Len(t, r.Requests, 1, "only the open request")
	require.Equal(t, "RQFD", r.Requests[0].Kind)
	require.Equal(t, 420.0, r.Requests[0].AgeSeconds)
	require.Len(t, r.Maintenance, 2)
	require.Equal(t, "history", r.Maintenance[1].Job)
	require.Equal(t, 12, r.Maintenance[1].Rows)
	require.Equal(t, 1.5, r.Maintenance[1].DurationSeconds)
	require.Nil(t, r.Maintenance[1].Error)
	require.Equal(t, "statement timeout", *r.Maintenance[0].Error)
	require.Nil(t, r.Maintenance[0].LastSuccessAt)
	require.ElementsMatch(t, []string{"msg_id", "status", "kind", "first_seen_at", "age_seconds", "attempts", "error_class", "reason", "next_attempt_at"},
		keys(m["head"].(map[string]any)))
	require.ElementsMatch(t, []string{"target", "pending", "oldest_at", "oldest_age_seconds"}, keys(m["outbox"].([]any)[0].(map[string]any)))
	require.ElementsMatch(t, []string{"todos", "failing", "oldest_at", "oldest_age_seconds"}, keys(m["backfill"].(map[string]any)))
	require.Equal(t, float64(2), m["dead_letters"].(map[string]any)["PROTOCOL"])

	role, lead, since := string(leader.Standby), "host-1:42", time.Date(2026, 12, 2, 7, 0, 0, 0, time.UTC)
	r.Role, r.Shadow = &role, true
	r.Instances = &status.Instances{Leader: &lead, LeaderSince: &since, Standby: 2}
	var text bytes.Buffer
	require.NoError(t, r.WriteText(&text, shanghai))
	out := text.String()
	for _, want := range []string{
		"role          standby",
		"instances     leader host-1:42 (since 2026-12-02 15:00:00 +08:00), 2 standby",
		"SHADOW",
		"head          5 FAILED, age 10m0s, attempts 2, class INFRA, next attempt 2026-12-02 16:06:00 +08:00",
		"reason        db down", // one line
		"backlog       3",
		"dead letters  EXHAUSTED 1, PROTOCOL 2",
		"failing       INFRA 1",
		"KAFKA:msg     2 pending, oldest 9m0s",
		"KAFKA:schd    1 pending, oldest 7m0s",
		"todos         2 (1 failing), oldest 9m30s",
		"RQFD SENT, age 7m0s, expires 2026-12-02 16:13:00 +08:00, coutmsgs 77",
		"history       last run 2026-12-02 16:00:00 +08:00, took 1.5s, 12 rows",
		"archive       last run 2026-12-02 16:00:00 +08:00, took 1s, 0 rows, FAILED: statement timeout",
	} {
		require.Contains(t, out, want, "text:\n%s", out)
	}
	text.Reset()
	require.NoError(t, r.WriteText(&text, time.UTC))
	require.Contains(t, text.String(), "next attempt 2026-12-02 08:06:00Z", "--utc")
}

// The gaps given up and the late rows of the last 24 h (rules 16–17) are in
// the report and its text; older ones are not.
func TestCollectShowsIngressGapsAndLateRows(t *testing.T) {
	t.Parallel()
	s := pgstore.New(testdb.Postgres(t).Pool)
	ctx := t.Context()
	now := t0.Add(48 * time.Hour)
	require.NoError(t, s.RecordGap(ctx, store.Gap{Source: "cminmsgs", From: 3, To: 4, SeenAt: t0, GivenUpAt: t0})) // too old
	require.NoError(t, s.RecordGap(ctx, store.Gap{Source: "cminmsgs", From: 8, To: 8, SeenAt: now.Add(-time.Hour), GivenUpAt: now.Add(-time.Hour)}))
	_, err := s.Enqueue(ctx, []int64{9}, now.Add(-2*time.Hour))
	require.NoError(t, err)
	require.NoError(t, s.FinishMessages(ctx, []vocab.Finish{{MsgID: 9, Status: vocab.StatusSucceeded, Now: now.Add(-2 * time.Hour)}}))
	got, err := s.EnqueueNew(ctx, []int64{7}, now.Add(-time.Hour))
	require.NoError(t, err)
	require.Len(t, got, 1)

	r, err := status.Collect(ctx, s, now)
	require.NoError(t, err)
	require.Equal(t, int64(1), r.Ingress.Gaps)
	require.Equal(t, int64(1), r.Ingress.LateRows)
	require.Equal(t, []status.LateRow{{MsgID: 7, LateAfter: 9, EnqueuedAt: r.Ingress.LatestLate[0].EnqueuedAt}}, r.Ingress.LatestLate)
	require.Equal(t, int64(8), r.Ingress.LatestGaps[0].FromID)
	var text bytes.Buffer
	require.NoError(t, r.WriteText(&text, time.UTC))
	require.Contains(t, text.String(), "gaps          1, newest ids 8..8 given up")
	require.Contains(t, text.String(), "late rows     1, newest 7 late:9")
}

// The identity conflicts (rule 2) of the last 24 h are in the report, its
// JSON and its text; a plain duplicate and older conflicts are not.
func TestCollectShowsIdentityConflicts(t *testing.T) {
	t.Parallel()
	s := pgstore.New(testdb.Postgres(t).Pool)
	ctx := t.Context()
	now := t0.Add(48 * time.Hour)
	_, err := s.Enqueue(ctx, []int64{1, 2, 3, 4}, t0)
	require.NoError(t, err)
	bind := &vocab.Binding{IdentityKey: "AODB|FLOP|STND|2002"}
	holder := int64(1)
	require.NoError(t, s.FinishMessages(ctx, []vocab.Finish{{MsgID: 1, Status: vocab.StatusSucceeded, Bind: bind, Now: t0}}))
	for _, f := range []vocab.Finish{
		{MsgID: 2, Reason: "duplicate-of:1:content-differs", Now: t0},                  // too old
		{MsgID: 3, Reason: "duplicate-of:1", Now: now.Add(-2 * time.Hour)},             // a resend
		{MsgID: 4, Reason: "duplicate-of:1:content-differs", Now: now.Add(-time.Hour)}, // counted
	} {
		f.Status, f.DuplicateOf, f.Bind = vocab.StatusSkipped, &holder, bind
		require.NoError(t, s.FinishMessages(ctx, []vocab.Finish{f}))
	}

	r, err := status.Collect(ctx, s, now)
	require.NoError(t, err)
	require.Equal(t, int64(1), r.Ingress.IdentityConflicts)
	require.Equal(t, []status.IdentityConflict{{MsgID: 4, Holder: 1, FinishedAt: r.Ingress.LatestConflicts[0].FinishedAt}}, r.Ingress.LatestConflicts)
	js, err := json.Marshal(r)
	require.NoError(t, err)
	require.Contains(t, string(js), `"identity_conflicts":1,`)
	var text bytes.Buffer
	require.NoError(t, r.WriteText(&text, time.UTC))
	require.Contains(t, text.String(), "id conflicts  1, newest 4 duplicate-of:1")
}

// A pause the pump published (rule 14) is in the report and its text.
func TestCollectShowsThePause(t *testing.T) {
	t.Parallel()
	s := pgstore.New(testdb.Postgres(t).Pool)
	require.NoError(t, s.PublishPause(t.Context(), store.Pause{Dependency: vocab.DependencyMailbox,
		Reason: "mailbox: read raw: dial tcp 127.0.0.1:3306: connect: connection refused", Since: t0, Now: t0.Add(40 * time.Second)}))
	r, err := status.Collect(t.Context(), s, t0.Add(time.Minute))
	require.NoError(t, err)
	require.NotNil(t, r.Paused)
	require.Equal(t, vocab.DependencyMailbox, r.Paused.Dependency)
	require.Equal(t, 60.0, r.Paused.AgeSeconds)
	var text bytes.Buffer
	require.NoError(t, r.WriteText(&text, shanghai))
	require.Contains(t, text.String(), "paused        mailbox: mailbox: read raw: dial tcp 127.0.0.1:3306: connect: connection refused (for 1m0s)")

	require.NoError(t, s.PublishResume(t.Context(), t0.Add(2*time.Minute)))
	r, err = status.Collect(t.Context(), s, t0.Add(2*time.Minute))
	require.NoError(t, err)
	require.Nil(t, r.Paused)
}

func TestCollectEmptyDatabase(t *testing.T) {
	t.Parallel()
	s := pgstore.New(testdb.Postgres(t).Pool)
	r, err := status.Collect(t.Context(), s, t0)
	require.NoError(t, err)
	require.Nil(t, r.Head)
	require.Zero(t, r.Backlog)
	require.Equal(t, map[string]int64{"DEAD": 0, "FAILED": 0, "PENDING": 0}, r.ByStatus, "the counted statuses, at 0")
	require.Empty(t, r.Outbox)
	require.Equal(t, status.Backfill{}, r.Backfill)

	b, err := json.Marshal(r)
	require.NoError(t, err)
	require.Contains(t, string(b), `"head":null`)
	require.Contains(t, string(b), `"outbox":[]`, "an empty list, not null")
	require.Contains(t, string(b), `"maintenance":[]`)
	require.Contains(t, string(b), `"dead_letters":{}`)

	var text bytes.Buffer
	require.NoError(t, r.WriteText(&text, shanghai))
	require.Contains(t, text.String(), "none (queue empty)")
	require.Contains(t, string(b), `"requests":[]`)
}

func TestCollectReportsStoreFailure(t *testing.T) {
	t.Parallel()
	pg := testdb.Postgres(t)
	s := pgstore.New(pg.Pool)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := status.Collect(ctx, s, t0)
	require.Error(t, err)
	require.ErrorContains(t, err, "queue head")
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
