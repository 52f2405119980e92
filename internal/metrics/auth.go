package metrics

import (
	"strconv"

	"github.com/prometheus/client_golang/prometheus"
)

// authKinds are the credential kinds of the HTTP API (internal/api).
var authKinds = []string{"admin", "send"}

func newAuthFailures(reg *prometheus.Registry) *prometheus.CounterVec {
	c := prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: Namespace, Name: "auth_failures_total",
		Help: "HTTP requests refused for a missing or wrong token, by credential kind (admin, send); limited=\"true\": answered 429 because that address used up its failures of that kind (the log line names the address).",
	}, []string{"kind", "limited"})
	// Every series exists from the first scrape, for increase() alerts.
	for _, kind := range authKinds {
		for _, limited := range []string{"false", "true"} {
			c.WithLabelValues(kind, limited)
		}
	}
	reg.MustRegister(c)
	return c
}

// AuthFailed counts a request refused for its token (api): limited when it
// was answered 429 by the failed-authentication limit.
func (m *Metrics) AuthFailed(kind string, limited bool) {
	if m == nil {
		return
	}
	m.authFailures.WithLabelValues(kind, strconv.FormatBool(limited)).Inc()
}
