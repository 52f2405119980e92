package metrics

import (
	"maps"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// The ingress out of order (rules 16–17) and identities reused with other
// content (rule 2): counted as it happens, on the leader.
type ingressMetrics struct {
	gaps      prometheus.Counter
	late      prometheus.Counter
	conflicts prometheus.Counter
	up        *prometheus.GaugeVec
	mu        *sync.Mutex
	deps      map[string]bool // the gauge's values, for the console and GET /admin/queue
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
		conflicts: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: Namespace, Name: "identity_conflicts_total",
			Help: "Messages SKIPPED as duplicates whose raw message differed from the identity's holder's (duplicate-of:<id>:content-differs): the sender reused SNDR, TYPE, STYP and SEQN for another message (rule 2).",
		}),
	}
	i.mu = &sync.Mutex{}
	i.up = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Namespace: Namespace, Name: "dependency_up",
		Help: "1 when this instance's last attempt on the dependency succeeded, 0 when it failed (rule 20): mailbox, postgres or oracle from the poller's attempts (every poll interval, queue empty or not) and the pump's pause and resume; kafka from the relay's produces (0 when no broker answered, 1 when one acknowledged or refused a record). A series appears with the first attempt.",
	}, []string{"dependency"})
	reg.MustRegister(i.gaps, i.late, i.conflicts, i.up)
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

// IdentityConflict counts a duplicate whose raw message differs from its
// holder's (pump.IdentityObserver).
func (m *Metrics) IdentityConflict() {
	if m == nil {
		return
	}
	m.ingress.conflicts.Inc()
}

// Dependencies are the dependencies attempted so far and whether the last
// attempt on each succeeded (what msgx_dependency_up exports).
func (m *Metrics) Dependencies() map[string]bool {
	if m == nil {
		return nil
	}
	m.ingress.mu.Lock()
	defer m.ingress.mu.Unlock()
	return maps.Clone(m.ingress.deps)
}

// DependencyUp records the last attempt on a dependency
// (ingress.DependencyObserver, pump.DependencyObserver).
func (m *Metrics) DependencyUp(dependency string, up bool) {
	if m == nil {
		return
	}
	v := 0.0
	if up {
		v = 1
	}
	m.ingress.mu.Lock()
	defer m.ingress.mu.Unlock()
	if m.ingress.deps == nil {
		m.ingress.deps = map[string]bool{}
	}
	m.ingress.deps[dependency] = up
	m.ingress.up.WithLabelValues(dependency).Set(v)
}
