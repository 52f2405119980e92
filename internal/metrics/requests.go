package metrics

import "github.com/prometheus/client_golang/prometheus"

// Requests to the AODB (docs/requests.md): counted as they happen.
type requestMetrics struct {
	sent      *prometheus.CounterVec
	matched   prometheus.Counter
	expired   prometheus.Counter
	unmatched prometheus.Counter
}

func newRequestMetrics(reg *prometheus.Registry) requestMetrics {
	r := requestMetrics{
		sent: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: Namespace, Name: "requests_sent_total",
			Help: "Requests this instance wrote to the outbound mailbox (coutmsgs) and marked SENT (API and triggers; msgx request counts in its own process), by type (RQFD, RQRD).",
		}, []string{"type"}),
		matched: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: Namespace, Name: "requests_matched_total",
			Help: "RESPs applied because they answered a request (the request became DONE, or a coutmsgs row matched in mailbox mode).",
		}),
		expired: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: Namespace, Name: "requests_expired_total",
			Help: "Requests the expiry job closed unanswered (EXPIRED past expires_at).",
		}),
		unmatched: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: Namespace, Name: "resp_unmatched_total",
			Help: "RESPs SKIPPED no-match:request: no open request, an expired one, DTTM before sent_at, or a schedule RESP with no record in the request's range.",
		}),
	}
	// Both types' series exist from the first scrape, so an alert or a panel
	// sees 0 (not no data) before the first request of a type is sent.
	for _, typ := range []string{"RQFD", "RQRD"} {
		r.sent.WithLabelValues(typ)
	}
	reg.MustRegister(r.sent, r.matched, r.expired, r.unmatched)
	return r
}

// RequestSent counts a request marked SENT (aodbrequest.Observer).
func (m *Metrics) RequestSent(typ string) {
	if m == nil {
		return
	}
	m.requests.sent.WithLabelValues(typ).Inc()
}

// RequestsExpired counts requests the expiry job closed (aodbrequest.Observer).
func (m *Metrics) RequestsExpired(n int) {
	if m == nil || n <= 0 {
		return
	}
	m.requests.expired.Add(float64(n))
}

// RespMatched counts a committed RESP that answered a request (pump.RequestObserver).
func (m *Metrics) RespMatched() {
	if m == nil {
		return
	}
	m.requests.matched.Inc()
}

// RespUnmatched counts a RESP SKIPPED no-match:request (pump.RequestObserver).
func (m *Metrics) RespUnmatched() {
	if m == nil {
		return
	}
	m.requests.unmatched.Inc()
}
