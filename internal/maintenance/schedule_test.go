package maintenance

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestDailyAtBeforeAtAndNextDay(t *testing.T) {
	t.Parallel()
	d := DailyAt{Hour: 3, Minute: 30, Location: shanghai}
	at := func(day, hh, mm int) time.Time { return time.Date(2026, 12, day, hh, mm, 0, 0, shanghai) }
	yesterday := at(1, 3, 30)

	require.Equal(t, at(2, 3, 30), d.Next(&yesterday, at(2, 3, 29)), "03:29: not yet, due at 03:30")
	require.True(t, d.Next(&yesterday, at(2, 3, 30)).Equal(at(2, 3, 30)), "03:30: due")
	require.True(t, d.Next(&yesterday, at(2, 15, 0)).Equal(at(2, 3, 30)), "later that day, not run yet: due")
	ran := at(2, 3, 30)
	require.Equal(t, at(3, 3, 30), d.Next(&ran, at(2, 3, 31)), "ran: next day")
	require.Equal(t, at(3, 3, 30), d.Next(&ran, at(2, 23, 59)))
	require.Equal(t, at(3, 3, 30), d.Next(&ran, at(3, 3, 29)))
	require.True(t, d.Next(&ran, at(3, 3, 30)).Equal(at(3, 3, 30)), "next day 03:30: due again")
	require.Equal(t, at(2, 3, 30), d.Next(nil, at(2, 3, 29)), "never ran")
}

func TestDailyAtAcrossDST(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		zone      string
		before    time.Time // a day before the change (local midnight)
		wantHours float64   // length of the day between two runs
	}{
		{"Europe/Berlin", time.Date(2026, 3, 28, 0, 0, 0, 0, time.UTC), 23},     // 29 Mar: 02:00 → 03:00
		{"Europe/Berlin", time.Date(2026, 10, 24, 0, 0, 0, 0, time.UTC), 25},    // 25 Oct: 03:00 → 02:00
		{"America/New_York", time.Date(2026, 3, 7, 0, 0, 0, 0, time.UTC), 23},   // 8 Mar
		{"America/New_York", time.Date(2026, 10, 31, 0, 0, 0, 0, time.UTC), 25}, // 1 Nov
	} {
		loc, err := time.LoadLocation(tc.zone)
		require.NoError(t, err)
		d := DailyAt{Hour: 3, Minute: 30, Location: loc}
		y, m, day := tc.before.Date()
		first := time.Date(y, m, day, 3, 30, 0, 0, loc)
		next := d.Next(&first, first.Add(time.Minute))
		require.Equal(t, tc.wantHours, next.Sub(first).Hours(), "%s %s", tc.zone, next)
		require.Equal(t, 3, next.In(loc).Hour(), "%s: still 03:30 on the wall clock", tc.zone)
		require.Equal(t, 30, next.In(loc).Minute())
		// +24 h would have been an hour off; the next after that is 24 h again.
		after := d.Next(&next, next.Add(time.Minute))
		require.Equal(t, 24.0, after.Sub(next).Hours())
	}
	// A time of day inside the DST gap runs when the clock resumes.
	berlin, _ := time.LoadLocation("Europe/Berlin")
	gap := DailyAt{Hour: 2, Minute: 30, Location: berlin}
	last := time.Date(2026, 3, 28, 2, 30, 0, 0, berlin)
	next := gap.Next(&last, last.Add(time.Hour))
	require.Equal(t, "2026-03-29 03:30", next.In(berlin).Format("2006-01-02 15:04"))
}

func TestEvery(t *testing.T) {
	t.Parallel()
	e := Every(time.Hour)
	require.Equal(t, start, e.Next(nil, start), "never ran: now")
	require.Equal(t, start.Add(time.Hour), e.Next(&start, start.Add(time.Minute)))
}
