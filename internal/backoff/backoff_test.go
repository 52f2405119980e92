package backoff

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestDoubling(t *testing.T) {
	var got []time.Duration
	for attempt := 1; attempt <= 8; attempt++ {
		got = append(got, Doubling(time.Second, 60*time.Second, attempt))
	}
	require.Equal(t, []time.Duration{1 * time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second,
		16 * time.Second, 32 * time.Second, 60 * time.Second, 60 * time.Second}, got)
	require.Equal(t, 30*time.Second, Doubling(30*time.Second, 15*time.Minute, 0), "attempt 0 is the base")
	require.Equal(t, 15*time.Minute, Doubling(30*time.Second, 15*time.Minute, 1000), "no overflow")
}
