package metrics

import "github.com/prometheus/client_golang/prometheus"

// The ingress out of order (rules 16–17): counted as it happens, on the
// leader.
type ingressMetrics struct {
	gaps prometheus.Counter
	late prometheus.Counter
}

func newIngressMetrics(reg *prometheus.Registry) ingressMetrics {
	i := ingressMetrics{
		gaps: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: Namespace, Name: "ingress_gaps_total",
			Help: "Holes in the mailbox ids the poller gave up after pipeline.gap-wait (a row never committed, or not yet): the ids after each were then enqueued. One per hole (a run of missing ids).",
		}),
		late: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: Namespace, Name: "ingress_late_rows_total",
			Help: "Mailbox rows enqueued after a larger id had already finished (late rows, marked late:<id> on the message): processed, their effect lands after the larger ones'.",
		}),
	}
	reg.MustRegister(i.gaps, i.late)
	return i
}

// IngressGaps counts holes given up (ingress.Observer).
func (m *Metrics) IngressGaps(n int) {
	if m == nil || n <= 0 {
		return
	}
	m.ingress.gaps.Add(float64(n))
}

// IngressLateRows counts late rows enqueued (ingress.Observer).
func (m *Metrics) IngressLateRows(n int) {
	if m == nil || n <= 0 {
		return
	}
	m.ingress.late.Add(float64(n))
}
