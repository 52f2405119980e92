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

// maxAuthClients bounds the client addresses remembered; beyond it (after
// forgetting those whose allowance is whole again) new ones share one.
const maxAuthClients = 10000

// authFailures limits failed authentications per client address: a token
// bucket of burst failures refilled over interval (golang.org/x/time/rate,
// driven by the injected clock). An address whose bucket is empty is refused
// with 429 until a failure's worth is back, whatever token it sends, so a
// guesser learns nothing from its guesses while blocked.
type authFailures struct {
	mu        sync.Mutex
	every     rate.Limit
	burst     int
	interval  time.Duration
	clients   map[string]*rate.Limiter
	lastSweep time.Time
}

func newAuthFailures(burst int, interval time.Duration) *authFailures {
	return &authFailures{every: rate.Every(interval / time.Duration(burst)), burst: burst, interval: interval,
		clients: map[string]*rate.Limiter{}}
}

// blocked reports whether client has no failure left at now, and when it has.
func (a *authFailures) blocked(client string, now time.Time) (time.Duration, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	lim := a.clients[client]
	if lim == nil {
		return 0, false
	}
	if tokens := lim.TokensAt(now); tokens < 1 {
		return a.wait(tokens), true
	}
	return 0, false
}

// fail counts a failed authentication of client at now; true when it was one
// over the allowance (the answer is 429, retry after the duration).
func (a *authFailures) fail(client string, now time.Time) (time.Duration, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sweep(now)
	lim := a.clients[client]
	if lim == nil {
		if len(a.clients) >= maxAuthClients {
			client = ""
			lim = a.clients[client]
		}
		if lim == nil {
			lim = rate.NewLimiter(a.every, a.burst)
			a.clients[client] = lim
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
