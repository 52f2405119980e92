package metrics

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/msgx-aodb/msgx/internal/readiness"
)

// ReadyFunc runs the readiness checks of /readyz.
type ReadyFunc func(ctx context.Context) readiness.Readiness

// ExportReadiness exports msgx_ready and msgx_ready_check{check} from the
// same checks as /readyz, run at scrape time (each bounded by the probe's
// own timeout), so an alert sees what a load balancer sees.
func (m *Metrics) ExportReadiness(f ReadyFunc) {
	if m == nil || f == nil {
		return
	}
	m.reg.MustRegister(&readyCollector{get: f,
		ready: prometheus.NewDesc(prometheus.BuildFQName(Namespace, "", "ready"),
			"1 when /readyz answers 200 (every check passed, role leader or standby), else 0; checked at scrape time.", nil, nil),
		check: prometheus.NewDesc(prometheus.BuildFQName(Namespace, "", "ready_check"),
			"1 when this readiness check of /readyz passed at scrape time, else 0, by check (postgres or oracle, mailbox, pump, kafka).", []string{"check"}, nil),
	})
}

type readyCollector struct {
	get          ReadyFunc
	ready, check *prometheus.Desc
}

func (c *readyCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.ready; ch <- c.check }

func (c *readyCollector) Collect(ch chan<- prometheus.Metric) {
	r := c.get(context.Background())
	ch <- prometheus.MustNewConstMetric(c.ready, prometheus.GaugeValue, b2f(r.Ready()))
	for _, chk := range r.Checks {
		ch <- prometheus.MustNewConstMetric(c.check, prometheus.GaugeValue, b2f(chk.OK), chk.Name)
	}
}
