package api

import (
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Defaults of the failed-authentication limit (Deps.AuthFailures,
// Deps.AuthInterval).
const (
	DefaultAuthFailures = 10
	DefaultAuthInterval = time.Minute
)

// maxAuthClients bounds the (address, kind) buckets remembered; beyond it
// (after forgetting those whose allowance is whole again) new ones share one
// per kind.
const maxAuthClients = 10000

// authKey is what failures are counted under: a client address and the kind
// of credential it failed (admin, send), so failures of one kind never use
// up the allowance of another.
type authKey struct {
	client, kind string
}

// authFailures limits failed authentications per client address and
// credential kind: a token bucket of burst failures refilled over interval
// (golang.org/x/time/rate, driven by the injected clock). A failure beyond
// the bucket is answered 429 until a failure's worth is back. Only failures
// are limited: a request with a valid token is never counted nor refused.
type authFailures struct {
	mu        sync.Mutex
	every     rate.Limit
	burst     int
	interval  time.Duration
	clients   map[authKey]*rate.Limiter
	lastSweep time.Time
}

func newAuthFailures(burst int, interval time.Duration) *authFailures {
	return &authFailures{every: rate.Every(interval / time.Duration(burst)), burst: burst, interval: interval,
		clients: map[authKey]*rate.Limiter{}}
}

// fail counts a failed authentication of key at now; true when it was over
// the allowance (the answer is 429, retry after the duration). A failure
// over the allowance takes nothing from the bucket: it refills while the
// client keeps failing.
func (a *authFailures) fail(key authKey, now time.Time) (time.Duration, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sweep(now)
	lim := a.clients[key]
	if lim == nil {
		if len(a.clients) >= maxAuthClients {
			key.client = ""
			lim = a.clients[key]
		}
		if lim == nil {
			lim = rate.NewLimiter(a.every, a.burst)
			a.clients[key] = lim
		}
	}
	if lim.AllowN(now, 1) {
		return 0, false
	}
	return a.wait(lim.TokensAt(now)), true
}

// wait is how long until a bucket holding tokens has one again.
func (a *authFailures) wait(tokens float64) time.Duration {
	return time.Duration(math.Ceil((1 - tokens) / float64(a.every) * float64(time.Second)))
}

// sweep forgets, once per interval, the clients whose allowance is whole
// (a fresh bucket is the same).
func (a *authFailures) sweep(now time.Time) {
	if now.Sub(a.lastSweep) < a.interval {
		return
	}
	a.lastSweep = now
	for c, lim := range a.clients {
		if lim.TokensAt(now) >= float64(a.burst) {
			delete(a.clients, c)
		}
	}
}
