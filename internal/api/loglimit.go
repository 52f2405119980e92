package api

import (
	"sync"
	"time"
)

// maxLogKeys bounds the keys a logLimiter remembers; beyond it (keys older
// than the interval are forgotten first) new keys share one.
const maxLogKeys = 10000

// logLimiter lets one log line per key per interval through and counts the
// lines it held back, so a flood (a password guesser, a load balancer polling
// /readyz through an outage) is one line per interval with a count.
type logLimiter struct {
	mu       sync.Mutex
	interval time.Duration
	keys     map[string]*logState
}

type logState struct {
	at         time.Time // of the last line let through
	suppressed int       // lines held back since
}

func newLogLimiter(interval time.Duration) *logLimiter {
	return &logLimiter{interval: interval, keys: map[string]*logState{}}
}

// allow reports whether a line for key may be logged at now, and how many
// lines for key were held back since the last one let through.
func (l *logLimiter) allow(key string, now time.Time) (ok bool, suppressed int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	st := l.keys[key]
	if st == nil && len(l.keys) >= maxLogKeys {
		for k, old := range l.keys {
			if now.Sub(old.at) >= l.interval {
				delete(l.keys, k)
			}
		}
		if len(l.keys) >= maxLogKeys {
			key = "" // every new key from here on shares one state
			st = l.keys[key]
		}
	}
	if st != nil && now.Sub(st.at) < l.interval {
		st.suppressed++
		return false, 0
	}
	if st != nil {
		suppressed = st.suppressed
	}
	l.keys[key] = &logState{at: now}
	return true, suppressed
}
