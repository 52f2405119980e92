package metrics

import (
	"maps"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// dependencyMetrics is msgx_dependency_up (rule 20): the last attempt of
// this instance's services (poller, pump, relay) on each dependency.
type dependencyMetrics struct {
	up   *prometheus.GaugeVec
	mu   sync.Mutex
	deps map[string]bool // the gauge's values, for the console and GET /admin/queue
}

func newDependencyMetrics(reg *prometheus.Registry) *dependencyMetrics {
	d := &dependencyMetrics{
		up: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Namespace: Namespace, Name: "dependency_up",
			Help: "1 when this instance's last attempt on the dependency succeeded, 0 when it failed (rule 20): mailbox, postgres or oracle from the poller's attempts (every poll interval, queue empty or not) and the pump's pause and resume; kafka from the relay's produces (0 when no broker answered, 1 when one acknowledged or refused a record). A series appears with the first attempt.",
		}, []string{"dependency"}),
	}
	reg.MustRegister(d.up)
	return d
}

// Dependencies are the dependencies attempted so far and whether the last
// attempt on each succeeded (what msgx_dependency_up exports).
func (m *Metrics) Dependencies() map[string]bool {
	if m == nil {
		return nil
	}
	m.deps.mu.Lock()
	defer m.deps.mu.Unlock()
	return maps.Clone(m.deps.deps)
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
	m.deps.mu.Lock()
	defer m.deps.mu.Unlock()
	if m.deps.deps == nil {
		m.deps.deps = map[string]bool{}
	}
	m.deps.deps[dependency] = up
	m.deps.up.WithLabelValues(dependency).Set(v)
}
