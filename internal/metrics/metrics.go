// Package metrics is msgx's Prometheus instrumentation (docs/metrics.md) on
// its own registry, never the global one:
//
//   - gauges read from the database at scrape time (collector.go), through
//     status.Collect, so /metrics, /admin/queue and `msgx status` agree;
//   - counters and histograms the service updates as things happen, through
//     the methods of *Metrics (the pipeline, the relay, the leader lock);
//   - the Go runtime and process collectors.
//
// Every method is safe on a nil *Metrics (metrics disabled) and for
// concurrent use.
package metrics

import (
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/status"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Namespace prefixes every msgx metric.
const Namespace = "msgx"

// DefaultStatusTimeout bounds the database reads of one scrape.
const DefaultStatusTimeout = 5 * time.Second

// LatencyBuckets are the buckets of both latency histograms, in seconds: from
// a message committed at once to one that waited out a long head (the head
// deadline is 10 minutes; a backlog can be hours).
var LatencyBuckets = []float64{0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600}

// PipelineObserver is what the pump and the backfiller report.
type PipelineObserver interface {
	// MessageFinished counts a terminal outcome (SUCCEEDED, SKIPPED, DEAD);
	// latency is first_seen_at → commit.
	MessageFinished(kind, status, class string, latency time.Duration)
	// BackfillFailed counts one failed mailbox backfill attempt.
	BackfillFailed()
	// BackfillDone counts n mailbox rows backfilled.
	BackfillDone(n int)
}

// RelayObserver is what the outbox relay reports (relay.Observer).
type RelayObserver interface {
	// EventDelivered counts an acknowledged event; latency is created_at → ack.
	EventDelivered(target string, latency time.Duration)
	// EventFailed counts a failed delivery; dead when it became a dead letter.
	EventFailed(target string, dead bool)
}

var (
	_ PipelineObserver = (*Metrics)(nil)
	_ RelayObserver    = (*Metrics)(nil)
)

// Metrics holds the registry and the event-driven metrics.
type Metrics struct {
	reg     *prometheus.Registry
	handler http.Handler

	finished        *prometheus.CounterVec
	conflicts       prometheus.Counter
	procLatency     prometheus.Histogram
	backfillFails   prometheus.Counter
	backfilled      prometheus.Counter
	delivered       *prometheus.CounterVec
	deliveryLatency *prometheus.HistogramVec
	eventFailures   *prometheus.CounterVec
	leader          prometheus.Gauge
	shadow          prometheus.Gauge
	requests        requestMetrics         // requests.go
	ingress         ingressMetrics         // ingress.go
	deps            *dependencyMetrics     // dependency.go
	jobs            *jobMetrics            // maintenance.go
	authFailures    *prometheus.CounterVec // auth.go
	history         history                // history.go: the console's last hour
}

// Option adjusts New.
type Option func(*options)

type options struct {
	statusTimeout time.Duration
	log           *slog.Logger
	pause         PauseFunc
}

// WithStatusTimeout bounds the database reads of one scrape (default
// DefaultStatusTimeout).
func WithStatusTimeout(d time.Duration) Option { return func(o *options) { o.statusTimeout = d } }

// WithLogger logs scrape-time failures (default slog.Default()).
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.log = l } }

// New builds the registry. src (a store) feeds the scrape-time gauges, ages
// measured on clk; src nil leaves them out (clk nil: the wall clock).
func New(src status.Source, clk clock.Clock, opts ...Option) *Metrics {
	o := options{statusTimeout: DefaultStatusTimeout, log: slog.Default()}
	for _, opt := range opts {
		opt(&o)
	}
	if clk == nil {
		clk = clock.Real{}
	}
	if o.statusTimeout <= 0 {
		o.statusTimeout = DefaultStatusTimeout
	}

	m := &Metrics{
		reg: prometheus.NewRegistry(),
		finished: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: Namespace, Name: "messages_finished_total",
			Help: "Messages that reached a terminal status, by kind, status (SUCCEEDED, SKIPPED, DEAD) and error class.",
		}, []string{"kind", "status", "class"}),
		conflicts: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: Namespace, Name: "identity_conflicts_total",
			Help: "Messages SKIPPED as duplicates whose raw message differed from the identity's holder's (duplicate-of:<id>:content-differs): the sender reused SNDR, TYPE, STYP and SEQN for another message (rule 2).",
		}),
		procLatency: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: Namespace, Name: "processing_latency_seconds",
			Help:    "Time from a message's first sighting (first_seen_at) to the commit of its terminal outcome.",
			Buckets: LatencyBuckets,
		}),
		backfillFails: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: Namespace, Name: "backfill_failures_total",
			Help: "Failed attempts to backfill a processed message into the mailbox (retried from BACKFILL_TODO).",
		}),
		backfilled: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: Namespace, Name: "backfilled_total",
			Help: "Mailbox rows backfilled with their processing result.",
		}),
		delivered: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: Namespace, Name: "events_delivered_total",
			Help: "Outbox events acknowledged by Kafka, by target.",
		}, []string{"target"}),
		deliveryLatency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: Namespace, Name: "delivery_latency_seconds",
			Help:    "Time from an outbox event's creation to its acknowledgement, by target.",
			Buckets: LatencyBuckets,
		}, []string{"target"}),
		eventFailures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: Namespace, Name: "event_failures_total",
			Help: "Failed deliveries of outbox events, by target; dead=\"true\" when the event became a dead letter.",
		}, []string{"target", "dead"}),
		leader: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: Namespace, Name: "leader",
			Help: "1 while this instance holds the leader lock and runs the pipeline, 0 as standby.",
		}),
		shadow: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: Namespace, Name: "shadow",
			Help: "1 when this instance runs in shadow mode (no mailbox writes, no Kafka).",
		}),
	}
	// The series alerts watch exist from the first scrape: a dead letter
	// right after a restart is an increase from 0, not a new series.
	for _, kind := range knownKinds {
		for _, class := range knownClasses {
			m.finished.WithLabelValues(kind, vocab.StatusDead, class)
		}
	}
	for _, target := range knownTargets {
		for _, dead := range []string{"false", "true"} {
			m.eventFailures.WithLabelValues(target, dead)
		}
	}
	m.reg.MustRegister(m.finished, m.conflicts, m.procLatency, m.backfillFails, m.backfilled, m.delivered,
		m.deliveryLatency, m.eventFailures, m.leader, m.shadow,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m.requests = newRequestMetrics(m.reg)
	m.ingress = newIngressMetrics(m.reg)
	m.deps = newDependencyMetrics(m.reg)
	m.jobs = newJobMetrics(m.reg, clk)
	m.authFailures = newAuthFailures(m.reg)
	if src != nil {
		m.reg.MustRegister(newStatusCollector(src, clk, o.statusTimeout, o.log))
	}
	if o.pause != nil {
		m.reg.MustRegister(newPauseCollector(o.pause))
	}
	m.handler = promhttp.InstrumentMetricHandler(m.reg, promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{
		Registry:      m.reg,
		ErrorHandling: promhttp.ContinueOnError,
		ErrorLog:      slog.NewLogLogger(o.log.Handler(), slog.LevelWarn),
	}))
	return m
}

// Registry is the registry every msgx metric is on.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the registry in the Prometheus exposition format (/metrics).
func (m *Metrics) Handler() http.Handler { return m.handler }

func (m *Metrics) MessageFinished(kind, status, class string, latency time.Duration) {
	if m == nil {
		return
	}
	m.finished.WithLabelValues(kind, status, class).Inc()
	m.history.count(kind, status)
	m.procLatency.Observe(seconds(latency))
}

// IdentityConflict counts a duplicate whose raw message differs from its
// holder's (pump.IdentityObserver).
func (m *Metrics) IdentityConflict() {
	if m == nil {
		return
	}
	m.conflicts.Inc()
}

func (m *Metrics) BackfillFailed() {
	if m == nil {
		return
	}
	m.backfillFails.Inc()
}

func (m *Metrics) BackfillDone(n int) {
	if m == nil || n <= 0 {
		return
	}
	m.backfilled.Add(float64(n))
}

func (m *Metrics) EventDelivered(target string, latency time.Duration) {
	if m == nil {
		return
	}
	m.delivered.WithLabelValues(target).Inc()
	m.deliveryLatency.WithLabelValues(target).Observe(seconds(latency))
}

func (m *Metrics) EventFailed(target string, dead bool) {
	if m == nil {
		return
	}
	m.eventFailures.WithLabelValues(target, strconv.FormatBool(dead)).Inc()
}

// SetLeader records whether this instance holds the leader lock.
func (m *Metrics) SetLeader(leader bool) {
	if m == nil {
		return
	}
	m.leader.Set(b2f(leader))
}

// SetShadow records whether this instance runs in shadow mode.
func (m *Metrics) SetShadow(shadow bool) {
	if m == nil {
		return
	}
	m.shadow.Set(b2f(shadow))
}

func seconds(d time.Duration) float64 {
	if d < 0 {
		return 0
	}
	return d.Seconds()
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
