package backoff

import "time"

// maxLogEvery caps the interval between two lines of a repeating failure.
const maxLogEvery = time.Minute

// Log spaces out the log lines of a failure that repeats (an outage
// fails every poll and every probe): the first at once, then after 1, 2,
// 4 ... 60 s, each saying how many were held back; and one line when the
// failure ends. The work itself retries at its own pace: only the log
// backs off (the poller's failing polls, the pump's pause).
type Log struct {
	since time.Time     // first failure of the streak; zero while all is well
	next  time.Time     // when the next line may be written
	every time.Duration // the interval after the next line
	held  int           // failures not logged since the last line
}

// Fail records a failure at now and says whether to log it, with the number
// of failures held back since the last line.
func (l *Log) Fail(now time.Time) (log bool, held int) {
	if l.since.IsZero() {
		l.since, l.next, l.every = now, now, time.Second
	}
	if now.Before(l.next) {
		l.held++
		return false, 0
	}
	held, l.held = l.held, 0
	l.next = now.Add(l.every)
	l.every = min(2*l.every, maxLogEvery)
	return true, held
}

// OK records a success; failing says it ended a streak that lasted lasted.
func (l *Log) OK(now time.Time) (lasted time.Duration, failing bool) {
	if l.since.IsZero() {
		return 0, false
	}
	lasted = now.Sub(l.since)
	*l = Log{}
	return lasted, true
}
