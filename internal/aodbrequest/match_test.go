package aodbrequest_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/aodbrequest"
)

// The daily trigger's next time is the local wall clock by the calendar:
// across a DST change the wait is 23 or 25 hours, never a fixed 24.
func TestNextDailyFollowsTheCalendar(t *testing.T) {
	t.Parallel()
	berlin, err := time.LoadLocation("Europe/Berlin")
	require.NoError(t, err)
	now := time.Date(2026, 3, 28, 22, 0, 0, 0, berlin) // the night before summer time
	next := aodbrequest.NextDaily(now, 22, 0, berlin)
	require.Equal(t, time.Date(2026, 3, 29, 22, 0, 0, 0, berlin), next)
	require.Equal(t, 23*time.Hour, next.Sub(now))
	require.Equal(t, time.Date(2026, 3, 28, 22, 0, 0, 0, berlin), aodbrequest.NextDaily(now.Add(-time.Minute), 22, 0, berlin))

	for _, bad := range []string{"24:00", "7:00", "22", "22:60", "x"} {
		_, _, _, err := aodbrequest.ParseDailyAt(bad)
		require.Error(t, err, bad)
	}
	_, _, on, err := aodbrequest.ParseDailyAt("")
	require.NoError(t, err)
	require.False(t, on)
}
