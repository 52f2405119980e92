package metrics_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/prometheus/client_golang/prometheus/testutil/promlint"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/metrics"
	"github.com/msgx-aodb/msgx/internal/readiness"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

var (
	t0    = time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	quiet = slog.New(slog.NewTextHandler(io.Discard, nil))
)

// scrape GETs /metrics over real HTTP and parses the exposition.
func scrape(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	res, err := http.Get(url)
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(res.Body)
	require.NoError(t, err)
	return fams
}

// value is the value of the series of a family with exactly these labels
// (name, value pairs); it fails when there is none.
func value(t *testing.T, fams map[string]*dto.MetricFamily, name string, labels ...string) float64 {
	t.Helper()
	f, ok := fams[name]
	require.True(t, ok, "no metric %s", name)
	for _, m := range f.GetMetric() {
		if !hasLabels(m, labels) {
			continue
		}
		switch {
		case m.Gauge != nil:
			return m.Gauge.GetValue()
		case m.Counter != nil:
			return m.Counter.GetValue()
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount())
		}
	}
	t.Fatalf("no series %s%v", name, labels)
	return 0
}

// hasSeries reports whether the metric has a series with exactly these labels.
func hasSeries(fams map[string]*dto.MetricFamily, name string, labels ...string) bool {
	for _, m := range fams[name].GetMetric() {
		if hasLabels(m, labels) {
			return true
		}
	}
	return false
}

func hasLabels(m *dto.Metric, labels []string) bool {
	if len(m.GetLabel()) != len(labels)/2 {
		return false
	}
	for i := 0; i < len(labels); i += 2 {
		found := false
		for _, l := range m.GetLabel() {
			if l.GetName() == labels[i] && l.GetValue() == labels[i+1] {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func serve(t *testing.T, m *metrics.Metrics) string {
	t.Helper()
	srv := httptest.NewServer(m.Handler())
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestGaugesFollowTheDatabase(t *testing.T) {
	t.Parallel()
	s := pgstore.New(testdb.Postgres(t).Pool)
	clk := clock.NewFake(t0)
	url := serve(t, metrics.New(s, clk, metrics.WithLogger(quiet)))

	fams := scrape(t, url)
	require.Equal(t, 1.0, value(t, fams, "msgx_status_up"))
	require.Zero(t, value(t, fams, "msgx_queue_backlog"))
	require.Zero(t, value(t, fams, "msgx_queue_head_age_seconds"), "empty queue")
	require.Zero(t, value(t, fams, "msgx_dead_letters", "class", "PROTOCOL"), "known classes exported as 0")
	require.Zero(t, value(t, fams, "msgx_outbox_pending", "target", vocab.TargetSchd), "known targets exported as 0")

	ctx := t.Context()
	_, err := s.Enqueue(ctx, []int64{1, 2, 3, 4}, t0)
	require.NoError(t, err)
	require.NoError(t, s.FinishMessages(ctx, []vocab.Finish{
		{MsgID: 1, Status: vocab.StatusDead, ErrorClass: "PROTOCOL", Reason: "RECS", Now: t0},
	}))
	_, err = s.RecordFailure(ctx, vocab.RecordFailureParams{MsgID: 2, ErrorClass: "INFRA", Reason: "down", NextAttemptAt: t0.Add(time.Second), Now: t0})
	require.NoError(t, err)
	require.NoError(t, s.InsertEvents(ctx, []vocab.NewEvent{{Target: vocab.TargetMsg, EventType: vocab.EventUpsert,
		MsgID: 1, FLID: 7, StateVersion: 1, IdempotencyKey: vocab.IdempotencyKey(1, 7, 1, vocab.TargetMsg),
		Payload: []byte(`{}`), CreatedAt: t0.Add(time.Minute)}}))
	require.NoError(t, s.AddBackfills(ctx, []vocab.Backfill{{MsgID: 1, MailboxStatus: vocab.StatusDead, ProcessedAt: t0}}))
	require.NoError(t, s.RecordBackfillFailure(ctx, store.RecordBackfillFailureParams{Backfill: vocab.Backfill{MsgID: 1, MailboxStatus: vocab.StatusSucceeded, ProcessedAt: t0}, NextAttemptAt: t0.Add(time.Minute), Reason: "mailbox down"}))
	clk.Advance(5 * time.Minute)

	fams = scrape(t, url)
	require.Equal(t, 3.0, value(t, fams, "msgx_queue_backlog"), "2 FAILED, 3 and 4 PENDING")
	require.Equal(t, 300.0, value(t, fams, "msgx_queue_head_age_seconds"), "head 2, first seen at t0")
	require.Equal(t, 1.0, value(t, fams, "msgx_queue_head_attempts"))
	require.Equal(t, 2.0, value(t, fams, "msgx_queue_messages", "status", vocab.StatusPending))
	require.Equal(t, 1.0, value(t, fams, "msgx_queue_messages", "status", vocab.StatusDead))
	require.False(t, hasSeries(fams, "msgx_queue_messages", "status", vocab.StatusSucceeded), "finished messages are not counted live")
	require.Equal(t, 1.0, value(t, fams, "msgx_queue_failing", "class", "INFRA"))
	require.Equal(t, 1.0, value(t, fams, "msgx_dead_letters", "class", "PROTOCOL"))
	require.Zero(t, value(t, fams, "msgx_dead_letters", "class", "EXHAUSTED"))
	require.Equal(t, 1.0, value(t, fams, "msgx_outbox_pending", "target", vocab.TargetMsg))
	require.Equal(t, 240.0, value(t, fams, "msgx_outbox_oldest_age_seconds", "target", vocab.TargetMsg))
	require.Zero(t, value(t, fams, "msgx_outbox_pending", "target", vocab.TargetSchd))
	require.Equal(t, 1.0, value(t, fams, "msgx_backfill_todos"))
	require.Equal(t, 1.0, value(t, fams, "msgx_backfill_todos_failing"))
	require.Equal(t, 300.0, value(t, fams, "msgx_backfill_oldest_seconds"))

	// The head moves on: the gauges follow at the next scrape.
	require.NoError(t, s.FinishMessages(ctx, []vocab.Finish{{MsgID: 2, Status: vocab.StatusSucceeded, Now: clk.Now()}}))
	fams = scrape(t, url)
	require.Equal(t, 2.0, value(t, fams, "msgx_queue_backlog"))
	require.Zero(t, value(t, fams, "msgx_queue_failing", "class", "INFRA"))
	require.Zero(t, value(t, fams, "msgx_queue_messages", "status", vocab.StatusFailed))
	require.Equal(t, 2.0, value(t, fams, "msgx_queue_messages", "status", vocab.StatusPending))
	require.False(t, hasSeries(fams, "msgx_queue_messages", "status", vocab.StatusSucceeded))
}

func TestStatusFailureKeepsTheScrape(t *testing.T) {
	t.Parallel()
	pg := testdb.Postgres(t)
	closed, err := pgxpool.New(t.Context(), pg.URL)
	require.NoError(t, err)
	closed.Close()
	m := metrics.New(pgstore.New(closed), clock.NewFake(t0), metrics.WithLogger(quiet), metrics.WithStatusTimeout(time.Second))
	m.SetLeader(true)

	fams := scrape(t, serve(t, m))
	require.Zero(t, value(t, fams, "msgx_status_up"))
	require.NotContains(t, fams, "msgx_queue_backlog", "no stale or invented values")
	require.Equal(t, 1.0, value(t, fams, "msgx_leader"), "the event-driven metrics are still served")
	require.Contains(t, fams, "go_goroutines")
	require.Contains(t, fams, "process_cpu_seconds_total")
}

func TestEventMetrics(t *testing.T) {
	t.Parallel()
	m := metrics.New(nil, nil, metrics.WithLogger(quiet))
	url := serve(t, m)

	fams := scrape(t, url)
	require.Zero(t, value(t, fams, "msgx_leader"))
	require.Zero(t, value(t, fams, "msgx_backfilled_total"))
	require.NotContains(t, fams, "msgx_status_up", "no source, no status gauges")

	m.MessageFinished("FLIGHT_OPS", vocab.StatusSucceeded, "", 200*time.Millisecond)
	m.MessageFinished("FLIGHT_OPS", vocab.StatusSucceeded, "", 3*time.Second)
	m.MessageFinished("", vocab.StatusDead, "MALFORMED", time.Second)
	m.BackfillFailed()
	m.BackfillDone(3)
	m.BackfillDone(2)
	m.EventDelivered(vocab.TargetMsg, 50*time.Millisecond)
	m.EventDelivered(vocab.TargetMsg, 2*time.Second)
	m.EventDelivered(vocab.TargetSchd, 4*time.Second)
	m.EventFailed(vocab.TargetMsg, false)
	m.EventFailed(vocab.TargetMsg, true)
	m.EventFailed(vocab.TargetMsg, true)
	m.SetLeader(true)
	m.SetShadow(true)
	m.RequestSent("RQFD")
	m.RequestSent("RQRD")
	m.RequestSent("RQFD")
	m.RespMatched()
	m.RespUnmatched()
	m.RespUnmatched()
	m.RequestsExpired(3)
	m.IdentityConflict()

	fams = scrape(t, url)
	require.Equal(t, 1.0, value(t, fams, "msgx_identity_conflicts_total"))
	require.Equal(t, 2.0, value(t, fams, "msgx_requests_sent_total", "type", "RQFD"))
	require.Equal(t, 1.0, value(t, fams, "msgx_requests_matched_total"))
	require.Equal(t, 2.0, value(t, fams, "msgx_resp_unmatched_total"))
	require.Equal(t, 3.0, value(t, fams, "msgx_requests_expired_total"))
	require.Equal(t, 2.0, value(t, fams, "msgx_messages_finished_total", "kind", "FLIGHT_OPS", "status", "SUCCEEDED", "class", ""))
	require.Equal(t, 1.0, value(t, fams, "msgx_messages_finished_total", "kind", "", "status", "DEAD", "class", "MALFORMED"))
	h := fams["msgx_processing_latency_seconds"].GetMetric()[0].GetHistogram()
	require.Equal(t, uint64(3), h.GetSampleCount())
	require.InDelta(t, 4.2, h.GetSampleSum(), 1e-9)
	require.Equal(t, 1.0, value(t, fams, "msgx_backfill_failures_total"))
	require.Equal(t, 5.0, value(t, fams, "msgx_backfilled_total"))
	require.Equal(t, 2.0, value(t, fams, "msgx_events_delivered_total", "target", vocab.TargetMsg))
	require.Equal(t, 1.0, value(t, fams, "msgx_events_delivered_total", "target", vocab.TargetSchd))
	require.Equal(t, 2.0, value(t, fams, "msgx_delivery_latency_seconds", "target", vocab.TargetMsg), "two samples")
	for _, b := range fams["msgx_delivery_latency_seconds"].GetMetric()[0].GetHistogram().GetBucket() {
		if b.GetUpperBound() == 0.05 {
			require.Equal(t, uint64(1), b.GetCumulativeCount(), "50ms falls in the 0.05 bucket")
		}
	}
	require.Equal(t, 1.0, value(t, fams, "msgx_event_failures_total", "target", vocab.TargetMsg, "dead", "false"))
	require.Equal(t, 2.0, value(t, fams, "msgx_event_failures_total", "target", vocab.TargetMsg, "dead", "true"))
	require.Equal(t, 1.0, value(t, fams, "msgx_leader"))
	require.Equal(t, 1.0, value(t, fams, "msgx_shadow"))

	m.SetLeader(false)
	require.Zero(t, value(t, scrape(t, url), "msgx_leader"), "standby again")

	// The registry is msgx's own: nothing leaks into the global one.
	global, err := prometheus.DefaultGatherer.Gather()
	require.NoError(t, err)
	for _, f := range global {
		require.NotRegexp(t, "^msgx_", f.GetName())
	}
	require.Equal(t, 1, testutil.CollectAndCount(m.Registry(), "msgx_leader"))
	var problems []promlint.Problem
	problems, err = testutil.GatherAndLint(m.Registry())
	require.NoError(t, err)
	require.Empty(t, problems, "metric names and help follow the Prometheus conventions")
}

func TestNilMetricsIsANoOp(t *testing.T) {
	t.Parallel()
	var m *metrics.Metrics
	require.NotPanics(t, func() {
		m.MessageFinished("k", "s", "c", time.Second)
		m.BackfillFailed()
		m.BackfillDone(1)
		m.EventDelivered("t", time.Second)
		m.EventFailed("t", true)
		m.SetLeader(true)
		m.SetShadow(true)
		m.RequestSent("RQFD")
		m.RequestsExpired(1)
		m.RespMatched()
		m.RespUnmatched()
		m.JobRun("history", 1, time.Second, nil)
		m.AuthFailed("admin", true)
	})
}

// Every metric docs/metrics.md names is served, and every msgx metric
// served is documented, with the same help text.
func TestDocsMatchTheMetrics(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../../docs/metrics.md")
	require.NoError(t, err)
	row := regexp.MustCompile("(?m)^\\| `(msgx_[a-z_]+)` \\| (gauge|counter|histogram) \\|[^|]*\\| (.+) \\|$")
	documented := map[string][2]string{}
	for _, m := range row.FindAllStringSubmatch(string(doc), -1) {
		documented[m[1]] = [2]string{m[2], m[3]}
	}
	require.NotEmpty(t, documented)

	s := pgstore.New(testdb.Postgres(t).Pool)
	m := metrics.New(s, clock.NewFake(t0), metrics.WithLogger(quiet),
		metrics.WithPause(func() (string, bool) { return vocab.DependencyMailbox, true }))
	// Labelled families appear once they have a series.
	m.MessageFinished("SCHEDULE", vocab.StatusSucceeded, "", time.Second)
	m.EventDelivered(vocab.TargetMsg, time.Second)
	m.EventFailed(vocab.TargetMsg, false)
	m.RequestSent("RQFD")
	m.JobRun("history", 3, time.Second, nil)
	m.DependencyUp(vocab.DependencyMailbox, false)
	m.ExportReadiness(func(context.Context) readiness.Readiness {
		return readiness.Readiness{Role: "leader", Checks: []readiness.CheckResult{{Name: "postgres", OK: true}}}
	})
	fams := scrape(t, serve(t, m))

	served := map[string]bool{}
	for name, f := range fams {
		if len(name) < 5 || name[:5] != "msgx_" {
			continue
		}
		served[name] = true
		d, ok := documented[name]
		require.True(t, ok, "%s is served but not documented", name)
		require.Equal(t, d[0], map[dto.MetricType]string{dto.MetricType_GAUGE: "gauge", dto.MetricType_COUNTER: "counter",
			dto.MetricType_HISTOGRAM: "histogram"}[f.GetType()], name)
		require.Equal(t, d[1], f.GetHelp(), "help of %s", name)
	}
	for name := range documented {
		require.True(t, served[name], "%s is documented but not served", name)
	}
}

// msgx_pump_paused has a series per dependency from the first scrape, 1 for
// the one the pump is paused on.
func TestPumpPausedGauge(t *testing.T) {
	t.Parallel()
	dep, paused := "", false
	m := metrics.New(nil, nil, metrics.WithLogger(quiet), metrics.WithPause(func() (string, bool) { return dep, paused }))
	url := serve(t, m)
	value := func(d string) float64 {
		for _, s := range scrape(t, url)["msgx_pump_paused"].GetMetric() {
			if s.GetLabel()[0].GetValue() == d {
				return s.GetGauge().GetValue()
			}
		}
		t.Fatalf("no msgx_pump_paused series for %s", d)
		return 0
	}
	require.Zero(t, value(vocab.DependencyDatabase))
	require.Zero(t, value(vocab.DependencyMailbox))
	dep, paused = vocab.DependencyMailbox, true
	require.Zero(t, value(vocab.DependencyDatabase))
	require.Equal(t, 1.0, value(vocab.DependencyMailbox))
}

// The series an alert on dead letters watches exist before the first one:
// increase() then sees the first dead letter after a restart.
func TestDeadLetterSeriesStartAtZero(t *testing.T) {
	t.Parallel()
	m := metrics.New(nil, nil, metrics.WithLogger(quiet))
	fams := scrape(t, serve(t, m))
	dead := 0
	for _, s := range fams["msgx_messages_finished_total"].GetMetric() {
		for _, l := range s.GetLabel() {
			if l.GetName() == "status" && l.GetValue() == vocab.StatusDead {
				dead++
				require.Zero(t, s.GetCounter().GetValue())
			}
		}
	}
	require.Equal(t, 8*6, dead, "every kind (UNKNOWN included) × every class")
	require.Len(t, fams["msgx_event_failures_total"].GetMetric(), 4, "both targets, dead true and false")
}
