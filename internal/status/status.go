// Package status is the operators' view of msgx: what the queue, the outbox
// and the backfill are doing right now. One Report feeds `msgx status`,
// GET /admin/queue and the scrape-time gauges of /metrics, so the three never
// disagree. Whether the instance is ready (/readyz) is internal/readiness.
package status

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/msgx-aodb/msgx/internal/oneline"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Source is what Collect reads; every store.Store is one.
type Source interface {
	QueueHead(ctx context.Context, max int) ([]vocab.QueueEntry, error)
	QueueCounts(ctx context.Context) ([]store.StatusCount, error)
	PumpPause(ctx context.Context) (*store.Pause, error)
	OutboxLag(ctx context.Context) ([]store.TargetLag, error)
	BackfillStats(ctx context.Context) (store.BackfillStats, error)
	OpenRequests(ctx context.Context) ([]vocab.Request, error)
	JobRuns(ctx context.Context) ([]store.JobRun, error)
	IngressIrregular(ctx context.Context, since time.Time, max int) (store.IngressIrregular, error)
}

// Report is the state of one instance's database at one instant. Its JSON
// (snake_case) is a stable interface: fields are added, never renamed.
type Report struct {
	At time.Time `json:"at"`
	// Role, Instances and Shadow are filled by the caller (Collect leaves
	// them empty): the database does not know who asks. Role is the
	// answering instance's ("leader", "standby", "starting"; GET
	// /admin/queue), null from `msgx status`, which is no instance.
	Role *string `json:"role"`
	// Instances are the service instances on this database, from their lock
	// sessions (`msgx status`); null where they were not read.
	Instances *Instances `json:"instances"`
	Shadow    bool       `json:"shadow"`
	// Dependencies is filled by the caller: whether the answering process's
	// last attempt on each dependency succeeded (rule 20) — the serving
	// instance's (msgx_dependency_up: GET /admin/queue, the console), or
	// `msgx status`'s own checks.
	Dependencies map[string]bool `json:"dependencies"`

	// Paused is set while the leader's pump waits for a dependency that
	// cannot be reached (it counts no attempt meanwhile); nil while it runs.
	Paused *Paused `json:"paused"`
	// Head is the smallest unfinished message; nil when the queue is empty.
	Head *Head `json:"head"`
	// Backlog counts the unfinished messages (PENDING and FAILED).
	Backlog int64 `json:"backlog"`
	// ByStatus counts the live messages that wait on msgx or an operator:
	// PENDING, FAILED and DEAD (archived dead letters excluded), each always
	// present. SUCCEEDED and SKIPPED are not counted: their live rows are
	// the archive.after window's, and counting them read all of PROC_STATE
	// on every scrape (issue #35); msgx_messages_finished_total counts
	// outcomes.
	ByStatus map[string]int64 `json:"by_status"`
	// DeadLetters counts the live DEAD messages by error class.
	DeadLetters map[string]int64 `json:"dead_letters"`
	// Failing counts the FAILED messages (waiting for a retry) by error class.
	Failing map[string]int64 `json:"failing"`
	// Outbox has one entry per target with pending events, in target order.
	Outbox   []TargetLag `json:"outbox"`
	Backfill Backfill    `json:"backfill"`
	// Requests are the open requests to the AODB (REGISTERED or SENT), oldest first.
	Requests []OpenRequest `json:"requests"`
	// Maintenance is the last run of each maintenance job, by name.
	Maintenance []Job `json:"maintenance"`
	// Ingress is what entered the queue out of order in the last 24 h, and
	// the identities reused with other content.
	Ingress Ingress `json:"ingress"`
}

// CountedStatuses are the statuses ByStatus counts: those a message waits
// in, on msgx (PENDING, FAILED) or on an operator (DEAD).
var CountedStatuses = []string{vocab.StatusPending, vocab.StatusFailed, vocab.StatusDead}

// Instances are which instance leads and how many wait as standby.
type Instances struct {
	// Leader is the leading instance's name (host:pid), null when none leads.
	Leader      *string    `json:"leader"`
	LeaderSince *time.Time `json:"leader_since"`
	Standby     int        `json:"standby"`
	// Error says why the sessions could not be read (the rest is then empty).
	Error *string `json:"error"`
}

// text is the instances line of WriteText.
func (i Instances) text(loc *time.Location) string {
	switch {
	case i.Error != nil:
		return "unknown (" + *i.Error + ")"
	case i.Leader == nil && i.Standby == 0:
		return "no instance running"
	case i.Leader == nil:
		return fmt.Sprintf("no leader, %d standby", i.Standby)
	}
	lead := "leader " + *i.Leader
	if i.LeaderSince != nil {
		lead += " (since " + Stamp(*i.LeaderSince, loc) + ")"
	}
	return fmt.Sprintf("%s, %d standby", lead, i.Standby)
}

// IngressWindow is the period Ingress covers.
const IngressWindow = 24 * time.Hour

// Ingress counts the gaps the poller gave up and the late rows enqueued
// since Since (rules 16–17), and the duplicates finished since then whose
// raw message differed from their holder's (rule 2), with the newest few
// of each.
type Ingress struct {
	Since             time.Time          `json:"since"`
	Gaps              int64              `json:"gaps"`
	LateRows          int64              `json:"late_rows"`
	IdentityConflicts int64              `json:"identity_conflicts"`
	LatestGaps        []Gap              `json:"latest_gaps"`
	LatestLate        []LateRow          `json:"latest_late"`
	LatestConflicts   []IdentityConflict `json:"latest_identity_conflicts"`
}

// IdentityConflict is a duplicate whose raw message differs from its
// holder's: the sender reused the identity (SKIPPED
// duplicate-of:<holder>:content-differs).
type IdentityConflict struct {
	MsgID      int64     `json:"msg_id"`
	Holder     int64     `json:"holder"`
	FinishedAt time.Time `json:"finished_at"`
}

// Gap is a hole in the mailbox ids the poller gave up.
type Gap struct {
	FromID    int64     `json:"from_id"`
	ToID      int64     `json:"to_id"`
	SeenAt    time.Time `json:"seen_at"`
	GivenUpAt time.Time `json:"given_up_at"`
}

// LateRow is a row enqueued after a larger id had finished.
type LateRow struct {
	MsgID      int64     `json:"msg_id"`
	LateAfter  int64     `json:"late_after"` // the largest id finished before it
	EnqueuedAt time.Time `json:"enqueued_at"`
}

// OpenRequest is a request to the AODB still waiting for its answer.
type OpenRequest struct {
	ID           int64      `json:"id"`
	Kind         string     `json:"kind"` // RQFD or RQRD:<LIST>
	Status       string     `json:"status"`
	RegisteredAt time.Time  `json:"registered_at"`
	SentAt       *time.Time `json:"sent_at"`
	ExpiresAt    time.Time  `json:"expires_at"`
	CoutmsgsID   *int64     `json:"coutmsgs_id"`
	AgeSeconds   float64    `json:"age_seconds"` // since registered
}

// Paused is the pause the pump published.
type Paused struct {
	Dependency  string    `json:"dependency"` // postgres or mailbox
	Reason      string    `json:"reason"`
	Since       time.Time `json:"since"`
	AgeSeconds  float64   `json:"age_seconds"`
	PublishedAt time.Time `json:"published_at"` // the pump re-publishes while the pause lasts
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
	now = now.UTC() // JSON times are UTC (docs/api.md, "Times")
	r := Report{At: now, ByStatus: map[string]int64{}, DeadLetters: map[string]int64{},
		Failing: map[string]int64{}, Outbox: []TargetLag{}}
	for _, st := range CountedStatuses {
		r.ByStatus[st] = 0
	}

	heads, err := src.QueueHead(ctx, 1)
	if err != nil {
		return Report{}, fmt.Errorf("queue head: %w", err)
	}
	if len(heads) > 0 {
		m := heads[0]
		r.Head = &Head{MsgID: m.ID, Status: m.Status, Kind: opt(m.Kind), FirstSeenAt: m.FirstSeenAt,
			AgeSeconds: age(now, m.FirstSeenAt), Attempts: m.Attempts, ErrorClass: opt(m.ErrorClass),
			Reason: opt(m.Reason), NextAttemptAt: m.NextAttemptAt}
	}

	pause, err := src.PumpPause(ctx)
	if err != nil {
		return Report{}, fmt.Errorf("pump state: %w", err)
	}
	if pause != nil {
		r.Paused = &Paused{Dependency: pause.Dependency, Reason: pause.Reason, Since: pause.Since,
			AgeSeconds: age(now, pause.Since), PublishedAt: pause.Now}
	}

	counts, err := src.QueueCounts(ctx)
	if err != nil {
		return Report{}, fmt.Errorf("queue counts: %w", err)
	}
	for _, c := range counts {
		r.ByStatus[c.Status] += c.Messages
		switch c.Status {
		case vocab.StatusPending:
			r.Backlog += c.Messages
		case vocab.StatusFailed:
			r.Backlog += c.Messages
			r.Failing[c.ErrorClass] += c.Messages
		case vocab.StatusDead:
			r.DeadLetters[c.ErrorClass] += c.Messages
		}
	}

	lags, err := src.OutboxLag(ctx)
	if err != nil {
		return Report{}, fmt.Errorf("outbox lag: %w", err)
	}
	for _, l := range lags {
		r.Outbox = append(r.Outbox, TargetLag{Target: l.Target, Pending: l.Pending, OldestAt: l.Oldest,
			OldestAgeSeconds: age(now, l.Oldest)})
	}

	bf, err := src.BackfillStats(ctx)
	if err != nil {
		return Report{}, fmt.Errorf("backfill: %w", err)
	}
	r.Backfill = Backfill{Todos: bf.Todos, Failing: bf.Failing, OldestAt: bf.Oldest}
	if bf.Oldest != nil {
		r.Backfill.OldestAgeSeconds = age(now, *bf.Oldest)
	}

	open, err := src.OpenRequests(ctx)
	if err != nil {
		return Report{}, fmt.Errorf("requests: %w", err)
	}
	r.Requests = make([]OpenRequest, len(open))
	for i, q := range open {
		r.Requests[i] = OpenRequest{ID: q.ID, Kind: q.Key, Status: q.Status, RegisteredAt: q.RegisteredAt, SentAt: q.SentAt,
			ExpiresAt: q.ExpiresAt, CoutmsgsID: q.OutboundID, AgeSeconds: age(now, q.RegisteredAt)}
	}
	runs, err := src.JobRuns(ctx)
	if err != nil {
		return Report{}, fmt.Errorf("maintenance runs: %w", err)
	}
	r.Maintenance = jobs(runs)
	if r.Ingress, err = ingress(ctx, src, now); err != nil {
		return Report{}, fmt.Errorf("ingress: %w", err)
	}
	return r, nil
}

// ingress reads the gaps and late rows of the last IngressWindow.
func ingress(ctx context.Context, src Source, now time.Time) (Ingress, error) {
	since := now.Add(-IngressWindow)
	irr, err := src.IngressIrregular(ctx, since, 5)
	if err != nil {
		return Ingress{}, err
	}
	in := Ingress{Since: since, Gaps: irr.Gaps, LateRows: irr.LateRows, IdentityConflicts: irr.IdentityConflicts,
		LatestGaps: []Gap{}, LatestLate: []LateRow{}, LatestConflicts: []IdentityConflict{}}
	for _, g := range irr.LatestGaps {
		in.LatestGaps = append(in.LatestGaps, Gap{FromID: g.From, ToID: g.To, SeenAt: g.SeenAt, GivenUpAt: g.GivenUpAt})
	}
	for _, l := range irr.LatestLate {
		in.LatestLate = append(in.LatestLate, LateRow{MsgID: l.ID, LateAfter: l.After, EnqueuedAt: l.At})
	}
	for _, c := range irr.LatestConflicts {
		in.LatestConflicts = append(in.LatestConflicts, IdentityConflict{MsgID: c.ID, Holder: c.Holder, FinishedAt: c.At})
	}
	return in, nil
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

// WriteText writes the report for a human, one section per concern, times
// in loc (Stamp).
func (r Report) WriteText(w io.Writer, loc *time.Location) error {
	var b strings.Builder
	kv := func(key, format string, a ...any) { fmt.Fprintf(&b, "  %-13s %s\n", key, fmt.Sprintf(format, a...)) }

	fmt.Fprintf(&b, "msgx status at %s\n", Stamp(r.At, loc))
	if r.Role != nil {
		kv("role", "%s", *r.Role)
	}
	if r.Instances != nil {
		kv("instances", "%s", r.Instances.text(loc))
	}
	if len(r.Dependencies) > 0 {
		kv("dependencies", "%s", dependenciesText(r.Dependencies))
	}
	if r.Shadow {
		kv("mode", "SHADOW (no mailbox writes, no Kafka)")
	}
	b.WriteString("queue\n")
	if p := r.Paused; p != nil {
		kv("paused", "%s: %s (for %s)", p.Dependency, oneline.Text(p.Reason, 200), seconds(p.AgeSeconds))
	}
	if r.Head == nil {
		kv("head", "none (queue empty)")
	} else {
		h := r.Head
		line := fmt.Sprintf("%d %s, age %s, attempts %d", h.MsgID, h.Status, seconds(h.AgeSeconds), h.Attempts)
		if h.ErrorClass != nil {
			line += ", class " + *h.ErrorClass
		}
		if h.NextAttemptAt != nil {
			line += ", next attempt " + Stamp(*h.NextAttemptAt, loc)
		}
		kv("head", "%s", line)
		if h.Reason != nil {
			kv("reason", "%s", oneline.Text(*h.Reason, 200))
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

	b.WriteString("requests\n")
	if len(r.Requests) == 0 {
		kv("open", "none")
	}
	for _, q := range r.Requests {
		line := fmt.Sprintf("%s %s, age %s, expires %s", q.Kind, q.Status, seconds(q.AgeSeconds), Stamp(q.ExpiresAt, loc))
		if q.CoutmsgsID != nil {
			line += fmt.Sprintf(", coutmsgs %d", *q.CoutmsgsID)
		}
		kv(fmt.Sprintf("request %d", q.ID), "%s", line)
	}
	writeJobs(&b, kv, r.Maintenance, loc)

	b.WriteString("ingress, last 24 h\n")
	if in := r.Ingress; in.Gaps == 0 && in.LateRows == 0 && in.IdentityConflicts == 0 {
		// The usual case in one line: the report stays on one screen.
		kv("irregular", "none (no gaps, late rows or id conflicts)")
		_, err := io.WriteString(w, b.String())
		return err
	}
	line := fmt.Sprintf("%d", r.Ingress.Gaps)
	if len(r.Ingress.LatestGaps) > 0 {
		g := r.Ingress.LatestGaps[0]
		line += fmt.Sprintf(", newest ids %d..%d given up %s", g.FromID, g.ToID, Stamp(g.GivenUpAt, loc))
	}
	kv("gaps", "%s", line)
	line = fmt.Sprintf("%d", r.Ingress.LateRows)
	for i, l := range r.Ingress.LatestLate {
		if i == 0 {
			line += ", newest"
		}
		line += fmt.Sprintf(" %d %s", l.MsgID, vocab.LateMark(l.LateAfter))
	}
	kv("late rows", "%s", line)
	line = fmt.Sprintf("%d", r.Ingress.IdentityConflicts)
	for i, c := range r.Ingress.LatestConflicts {
		if i == 0 {
			line += ", newest"
		}
		line += fmt.Sprintf(" %d duplicate-of:%d", c.MsgID, c.Holder)
	}
	kv("id conflicts", "%s", line)
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

// dependenciesText is the dependencies line: each by name, up or DOWN.
func dependenciesText(deps map[string]bool) string {
	parts := make([]string, 0, len(deps))
	for _, name := range slices.Sorted(maps.Keys(deps)) {
		state := "up"
		if !deps[name] {
			state = "DOWN"
		}
		parts = append(parts, name+" "+state)
	}
	return strings.Join(parts, ", ")
}
