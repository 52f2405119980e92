package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/msgx-aodb/msgx/internal/clock"
)

// MaintenanceBuckets are the buckets of a maintenance run's duration, in
// seconds: from an empty hourly run to a history sweep of a season.
var MaintenanceBuckets = []float64{0.01, 0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600}

// jobMetrics are the maintenance jobs' (internal/maintenance Observer).
type jobMetrics struct {
	clk         clock.Clock
	runs        *prometheus.CounterVec
	rows        *prometheus.CounterVec
	duration    *prometheus.HistogramVec
	lastSuccess *prometheus.GaugeVec
}

func newJobMetrics(reg *prometheus.Registry, clk clock.Clock) *jobMetrics {
	j := &jobMetrics{
		clk: clk,
		runs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: Namespace, Name: "maintenance_runs_total",
			Help: "Runs of a maintenance job on this instance, by job and result (ok, error).",
		}, []string{"job", "result"}),
		rows: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: Namespace, Name: "maintenance_rows_total",
			Help: "Rows a maintenance job moved or deleted on this instance (flights, messages, events, log rows), by job.",
		}, []string{"job"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: Namespace, Name: "maintenance_duration_seconds",
			Help:    "Duration of a maintenance run, by job.",
			Buckets: MaintenanceBuckets,
		}, []string{"job"}),
		lastSuccess: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Namespace: Namespace, Name: "maintenance_last_success_timestamp_seconds",
			Help: "Unix time at which a maintenance job last finished without error on this instance, by job.",
		}, []string{"job"}),
	}
	reg.MustRegister(j.runs, j.rows, j.duration, j.lastSuccess)
	return j
}

// JobRun records one run of a maintenance job.
func (m *Metrics) JobRun(job string, rows int, took time.Duration, err error) {
	if m == nil {
		return
	}
	result := "ok"
	if err != nil {
		result = "error"
	} else {
		m.jobs.lastSuccess.WithLabelValues(job).Set(float64(m.jobs.clk.Now().UnixNano()) / 1e9)
	}
	m.jobs.runs.WithLabelValues(job, result).Inc()
	// Added even when 0: the job's series exists from its first run.
	m.jobs.rows.WithLabelValues(job).Add(float64(max(rows, 0)))
	m.jobs.duration.WithLabelValues(job).Observe(seconds(took))
}
