package metrics

import (
	"github.com/msgx-aodb/msgx/internal/vocab"
	"github.com/prometheus/client_golang/prometheus"
)

// PauseFunc reports the dependency the pump is paused on, if it is.
type PauseFunc func() (dependency string, paused bool)

// WithPause exports msgx_pump_paused from the pump's pause (rule 14).
func WithPause(f PauseFunc) Option { return func(o *options) { o.pause = f } }

// pauseCollector exports msgx_pump_paused{dependency} for every dependency
// the pump can pause on, 0 or 1, so an alert has its series from the start.
type pauseCollector struct {
	get  PauseFunc
	desc *prometheus.Desc
}

func newPauseCollector(get PauseFunc) *pauseCollector {
	return &pauseCollector{get: get, desc: prometheus.NewDesc(prometheus.BuildFQName(Namespace, "", "pump_paused"),
		"1 while the leader's pump is paused because this dependency does not answer its probe (mailbox, or postgres: msgx's own database, on Oracle too; no attempt is counted; it is probed every second), else 0.",
		[]string{"dependency"}, nil)}
}

func (c *pauseCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c *pauseCollector) Collect(ch chan<- prometheus.Metric) {
	dep, paused := c.get()
	for _, d := range []string{vocab.DependencyDatabase, vocab.DependencyMailbox} {
		v := 0.0
		if paused && d == dep {
			v = 1
		}
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, v, d)
	}
}
