package metrics

import (
	"context"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/status"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Known label values exported even when their count is zero, so an alert on
// "dead letters of class X" or "outbox lag of target Y" has a series to watch
// from the first scrape.
var (
	knownClasses = vocab.ClassNames()
	knownTargets = []string{vocab.TargetMsg, vocab.TargetSchd}
	knownKinds   = []string{string(sis.KindSchedule), string(sis.KindFlightOps), string(sis.KindFlightDelete),
		string(sis.KindReference), string(sis.KindRequest), string(sis.KindIgnored), string(sis.KindUnsupported),
		string(sis.KindUnknown)}
)

// statusCollector reads status.Collect at every scrape. A failing read does
// not fail the scrape: it exposes msgx_status_up 0 and nothing else of its own.
type statusCollector struct {
	src     status.Source
	clk     clock.Clock
	timeout time.Duration
	log     *slog.Logger

	up, headAge, headAttempts, backlog, messages, dead, failing *prometheus.Desc
	outboxPending, outboxAge                                    *prometheus.Desc
	backfillTodos, backfillFailing, backfillAge                 *prometheus.Desc
}

func newStatusCollector(src status.Source, clk clock.Clock, timeout time.Duration, log *slog.Logger) *statusCollector {
	d := func(name, help string, labels ...string) *prometheus.Desc {
		return prometheus.NewDesc(prometheus.BuildFQName(Namespace, "", name), help, labels, nil)
	}
	return &statusCollector{
		src: src, clk: clk, timeout: timeout, log: log,
		up:              d("status_up", "1 when the last scrape read the queue, outbox and backfill state from PostgreSQL, 0 when it failed (the other status gauges are then absent)."),
		headAge:         d("queue_head_age_seconds", "Age of the queue head (the smallest unfinished message) since it was first seen; 0 when the queue is empty."),
		headAttempts:    d("queue_head_attempts", "Failed attempts of the queue head so far; 0 when the queue is empty."),
		backlog:         d("queue_backlog", "Unfinished messages (PENDING and FAILED)."),
		messages:        d("queue_messages", "Live (not archived) messages waiting on msgx or an operator, by status: PENDING, FAILED, DEAD (finished messages: msgx_messages_finished_total).", "status"),
		dead:            d("dead_letters", "Live DEAD messages by error class.", "class"),
		failing:         d("queue_failing", "FAILED messages waiting for a retry, by error class.", "class"),
		outboxPending:   d("outbox_pending", "PENDING outbox events by target (KAFKA:msg: the events above its delivery watermark that are not DEAD; KAFKA:schd: the flights marked, one per flight).", "target"),
		outboxAge:       d("outbox_oldest_age_seconds", "Age of the oldest PENDING outbox event by target (KAFKA:msg: above its delivery watermark; KAFKA:schd: the oldest undelivered change of a marked flight); 0 when none.", "target"),
		backfillTodos:   d("backfill_todos", "Mailbox backfills still to do (BACKFILL_TODO rows and terminal messages above the backfill mark)."),
		backfillFailing: d("backfill_todos_failing", "Backfill todos that failed at least once."),
		backfillAge:     d("backfill_oldest_seconds", "Age of the oldest outstanding backfill, a todo or a terminal message above the backfill mark (rule 20); 0 when none."),
	}
}

func (c *statusCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.up, c.headAge, c.headAttempts, c.backlog, c.messages, c.dead,
		c.failing, c.outboxPending, c.outboxAge, c.backfillTodos, c.backfillFailing, c.backfillAge} {
		ch <- d
	}
}

func (c *statusCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	r, err := status.Collect(ctx, c.src, c.clk.Now())
	if err != nil {
		c.log.Warn("metrics: reading the status failed; exposing msgx_status_up 0", "err", err)
		ch <- prometheus.MustNewConstMetric(c.up, prometheus.GaugeValue, 0)
		return
	}
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	gauge(c.up, 1)
	var headAge, headAttempts float64
	if r.Head != nil {
		headAge, headAttempts = r.Head.AgeSeconds, float64(r.Head.Attempts)
	}
	gauge(c.headAge, headAge)
	gauge(c.headAttempts, headAttempts)
	gauge(c.backlog, float64(r.Backlog))
	labelled(c.messages, r.ByStatus, status.CountedStatuses, gauge)
	labelled(c.dead, r.DeadLetters, knownClasses, gauge)
	labelled(c.failing, r.Failing, knownClasses, gauge)

	seen := map[string]bool{}
	for _, l := range r.Outbox {
		seen[l.Target] = true
		gauge(c.outboxPending, float64(l.Pending), l.Target)
		gauge(c.outboxAge, l.OldestAgeSeconds, l.Target)
	}
	for _, t := range knownTargets {
		if !seen[t] {
			gauge(c.outboxPending, 0, t)
			gauge(c.outboxAge, 0, t)
		}
	}

	gauge(c.backfillTodos, float64(r.Backfill.Todos))
	gauge(c.backfillFailing, float64(r.Backfill.Failing))
	gauge(c.backfillAge, r.Backfill.OldestAgeSeconds)
}

// labelled exposes one series per key of counts, plus 0 for each known key
// absent from it.
func labelled(d *prometheus.Desc, counts map[string]int64, known []string, gauge func(*prometheus.Desc, float64, ...string)) {
	for k, v := range counts {
		gauge(d, float64(v), k)
	}
	for _, k := range known {
		if _, ok := counts[k]; !ok {
			gauge(d, 0, k)
		}
	}
}
