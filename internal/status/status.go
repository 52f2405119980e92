// Package status is the operators' view of msgx: what the queue, the outbox
// and the backfill are doing right now. One Report feeds `msgx status`,
// GET /admin/queue and the scrape-time gauges of /metrics, so the three never
// disagree. Readiness (readiness.go) is the /readyz side.
package status

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/msgx-aodb/msgx/internal/store"
)

// Roles of an instance (the leader lock, processing.md §4 rule 10).
const (
	RoleLeader   = "leader"   // holds the lock and runs the pipeline
	RoleStandby  = "standby"  // waits for the lock (hot standby)
	RoleStarting = "starting" // not yet either
)

// Source is what Collect reads; every store.Store is one.
type Source interface {
	QueueHead(ctx context.Context, max int) ([]store.Message, error)
	QueueCounts(ctx context.Context) ([]store.StatusCount, error)
	OutboxLag(ctx context.Context) ([]store.TargetLag, error)
	BackfillStats(ctx context.Context) (store.BackfillStats, error)
	JobRuns(ctx context.Context) ([]store.JobRun, error)
}

// Report is the state of one instance's database at one instant. Its JSON
// (snake_case) is a stable interface: fields are added, never renamed.
type Report struct {
	At time.Time `json:"at"`
	// Role and Shadow are filled by the caller (Collect leaves them empty):
	// the database does not know which instance asks.
	Role   string `json:"role,omitempty"`
	Shadow bool   `json:"shadow"`

	// Head is the smallest unfinished message; nil when the queue is empty.
	Head *Head `json:"head"`
	// Backlog counts the unfinished messages (PENDING and FAILED).
	Backlog int64 `json:"backlog"`
	// ByStatus counts the live messages by status (archived rows excluded).
	ByStatus map[string]int64 `json:"by_status"`
	// DeadLetters counts the live DEAD messages by error class.
	DeadLetters map[string]int64 `json:"dead_letters"`
	// Failing counts the FAILED messages (waiting for a retry) by error class.
	Failing map[string]int64 `json:"failing"`
	// Outbox has one entry per target with pending events, in target order.
	Outbox   []TargetLag `json:"outbox"`
	Backfill Backfill    `json:"backfill"`
	// Maintenance is the last run of each maintenance job, by name.
	Maintenance []Job `json:"maintenance"`
}

// Head is the queue head: every message behind it waits for it.
type Head struct {
	MsgID         int64      `json:"msg_id"`
	Status        string     `json:"status"`
	Kind          *string    `json:"kind"`
	FirstSeenAt   time.Time  `json:"first_seen_at"`
	AgeSeconds    float64    `json:"age_seconds"` // since first seen
	Attempts      int        `json:"attempts"`
	ErrorClass    *string    `json:"error_class"`
	Reason        *string    `json:"reason"`
	NextAttemptAt *time.Time `json:"next_attempt_at"`
}

// TargetLag is the outbox lag of one delivery target.
type TargetLag struct {
	Target           string    `json:"target"`
	Pending          int64     `json:"pending"`
	OldestAt         time.Time `json:"oldest_at"`
	OldestAgeSeconds float64   `json:"oldest_age_seconds"`
}

// Backfill summarises the mailbox backfills still to do.
type Backfill struct {
	Todos            int64      `json:"todos"`
	Failing          int64      `json:"failing"` // failed at least once
	OldestAt         *time.Time `json:"oldest_at"`
	OldestAgeSeconds float64    `json:"oldest_age_seconds"`
}

// Collect reads the report from the database; ages are measured at now.
func Collect(ctx context.Context, src Source, now time.Time) (Report, error) {
	r := Report{At: now, ByStatus: map[string]int64{}, DeadLetters: map[string]int64{},
		Failing: map[string]int64{}, Outbox: []TargetLag{}}

	heads, err := src.QueueHead(ctx, 1)
	if err != nil {
		return Report{}, fmt.Errorf("status: queue head: %w", err)
	}
	if len(heads) > 0 {
		m := heads[0]
		r.Head = &Head{MsgID: m.ID, Status: m.Status, Kind: opt(m.Kind), FirstSeenAt: m.FirstSeenAt,
			AgeSeconds: age(now, m.FirstSeenAt), Attempts: m.Attempts, ErrorClass: opt(m.ErrorClass),
			Reason: opt(m.Reason), NextAttemptAt: m.NextAttemptAt}
	}

	counts, err := src.QueueCounts(ctx)
	if err != nil {
		return Report{}, fmt.Errorf("status: queue counts: %w", err)
	}
	for _, c := range counts {
		r.ByStatus[c.Status] += c.Messages
		switch c.Status {
		case store.StatusPending:
			r.Backlog += c.Messages
		case store.StatusFailed:
			r.Backlog += c.Messages
			r.Failing[c.ErrorClass] += c.Messages
		case store.StatusDead:
			r.DeadLetters[c.ErrorClass] += c.Messages
		}
	}

	lags, err := src.OutboxLag(ctx)
	if err != nil {
		return Report{}, fmt.Errorf("status: outbox lag: %w", err)
	}
	for _, l := range lags {
		r.Outbox = append(r.Outbox, TargetLag{Target: l.Target, Pending: l.Pending, OldestAt: l.Oldest,
			OldestAgeSeconds: age(now, l.Oldest)})
	}

	bf, err := src.BackfillStats(ctx)
	if err != nil {
		return Report{}, fmt.Errorf("status: backfill: %w", err)
	}
	r.Backfill = Backfill{Todos: bf.Todos, Failing: bf.Failing, OldestAt: bf.Oldest}
	if bf.Oldest != nil {
		r.Backfill.OldestAgeSeconds = age(now, *bf.Oldest)
	}

	runs, err := src.JobRuns(ctx)
	if err != nil {
		return Report{}, fmt.Errorf("status: maintenance runs: %w", err)
	}
	r.Maintenance = jobs(runs)
	return r, nil
}

// age is now − t in seconds, never negative (clocks of two hosts may differ).
func age(now, t time.Time) float64 {
	if d := now.Sub(t); d > 0 {
		return d.Seconds()
	}
	return 0
}

func opt(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// WriteText writes the report for a human, one section per concern.
func (r Report) WriteText(w io.Writer) error {
	var b strings.Builder
	kv := func(key, format string, a ...any) { fmt.Fprintf(&b, "  %-13s %s\n", key, fmt.Sprintf(format, a...)) }

	fmt.Fprintf(&b, "msgx status at %s\n", r.At.Format(time.RFC3339))
	if r.Role != "" {
		kv("role", "%s", r.Role)
	}
	if r.Shadow {
		kv("mode", "SHADOW (no mailbox writes, no Kafka)")
	}
	b.WriteString("queue\n")
	if r.Head == nil {
		kv("head", "none (queue empty)")
	} else {
		h := r.Head
		line := fmt.Sprintf("%d %s, age %s, attempts %d", h.MsgID, h.Status, seconds(h.AgeSeconds), h.Attempts)
		if h.ErrorClass != nil {
			line += ", class " + *h.ErrorClass
		}
		if h.NextAttemptAt != nil {
			line += ", next attempt " + h.NextAttemptAt.Format(time.RFC3339)
		}
		kv("head", "%s", line)
		if h.Reason != nil {
			kv("reason", "%s", oneLine(*h.Reason))
		}
	}
	kv("backlog", "%d", r.Backlog)
	kv("by status", "%s", counts(r.ByStatus))
	kv("failing", "%s", counts(r.Failing))
	kv("dead letters", "%s", counts(r.DeadLetters))

	b.WriteString("outbox\n")
	if len(r.Outbox) == 0 {
		kv("pending", "none")
	}
	for _, l := range r.Outbox {
		kv(l.Target, "%d pending, oldest %s", l.Pending, seconds(l.OldestAgeSeconds))
	}

	b.WriteString("backfill\n")
	if r.Backfill.Todos == 0 {
		kv("todos", "none")
	} else {
		kv("todos", "%d (%d failing), oldest %s", r.Backfill.Todos, r.Backfill.Failing, seconds(r.Backfill.OldestAgeSeconds))
	}
	writeJobs(&b, kv, r.Maintenance)
	_, err := io.WriteString(w, b.String())
	return err
}

// counts renders a map as "A 1, B 2" in key order ("-" when empty; an empty
// key, a message without class, as "none").
func counts(m map[string]int64) string {
	if len(m) == 0 {
		return "-"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		name := k
		if name == "" {
			name = "none"
		}
		parts[i] = fmt.Sprintf("%s %d", name, m[k])
	}
	return strings.Join(parts, ", ")
}

func seconds(s float64) string {
	return (time.Duration(s * float64(time.Second))).Round(time.Second).String()
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 200 {
		s = string(r[:200]) + "…"
	}
	return s
}
