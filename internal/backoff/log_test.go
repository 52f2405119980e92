package backoff

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestLogSpacesOutARepeatingFailure(t *testing.T) {
	var l Log
	start := time.Date(2026, 12, 2, 0, 30, 0, 0, time.UTC)
	now := start
	var logged []time.Duration
	held := 0
	for range 600 { // ten minutes of a failure every second
		if log, h := l.Fail(now); log {
			logged = append(logged, now.Sub(start))
			held += h
		}
		now = now.Add(time.Second)
	}
	require.Equal(t, []time.Duration{0, time.Second, 3 * time.Second, 7 * time.Second, 15 * time.Second,
		31 * time.Second, 63 * time.Second, 123 * time.Second, 183 * time.Second, 243 * time.Second,
		303 * time.Second, 363 * time.Second, 423 * time.Second, 483 * time.Second, 543 * time.Second}, logged,
		"at once, then 1, 2, 4 ... 60 s apart")
	require.Equal(t, 600-len(logged)-(599-543), held, "every failure not logged is counted on the next line")

	lasted, was := l.OK(now)
	require.True(t, was)
	require.Equal(t, 10*time.Minute, lasted)
	_, was = l.OK(now)
	require.False(t, was, "one line when it ends, not at every success")
	log, _ := l.Fail(now)
	require.True(t, log, "a new streak logs at once")
}
