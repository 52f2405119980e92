package maintenance

import "time"

// Schedule says when a job is due, from the start of its last successful run
// (nil: never ran). Computed from the stored run, not from a timer, so a
// restart or a new leader neither repeats nor skips a run.
type Schedule interface {
	// Next is the first instant at or after which the job is due; at or
	// before now means due now.
	Next(lastOK *time.Time, now time.Time) time.Time
	String() string
}

// DailyAt is due once per calendar day in Location, at Hour:Minute or later.
// Occurrences are computed from the calendar (time.Date), never as +24 h, so
// a day of 23 or 25 hours (DST) still runs at the wall-clock time. A time of
// day that does not exist that day (a DST gap) runs when the clock resumes.
type DailyAt struct {
	Hour, Minute int
	Location     *time.Location
}

// occurrence is the run time of the calendar day of t (in Location).
func (d DailyAt) occurrence(t time.Time) time.Time {
	y, m, day := t.In(d.Location).Date()
	return time.Date(y, m, day, d.Hour, d.Minute, 0, 0, d.Location)
}

// Next is today's occurrence until a run succeeded at or after it, then
// tomorrow's: an instance down (or standby) at 03:30 runs the sweep when it
// leads again that day.
func (d DailyAt) Next(lastOK *time.Time, now time.Time) time.Time {
	occ := d.occurrence(now)
	if occ.After(now) || lastOK == nil || lastOK.Before(occ) {
		return occ
	}
	y, m, day := now.In(d.Location).Date()
	// Noon of tomorrow: a date DST never moves across midnight.
	return d.occurrence(time.Date(y, m, day+1, 12, 0, 0, 0, d.Location))
}

func (d DailyAt) String() string {
	return "daily at " + time.Date(2000, 1, 1, d.Hour, d.Minute, 0, 0, time.UTC).Format("15:04") + " " + d.Location.String()
}

// Every is due Interval after the last successful run (at once when none).
type Every time.Duration

func (e Every) Next(lastOK *time.Time, now time.Time) time.Time {
	if lastOK == nil {
		return now
	}
	return lastOK.Add(time.Duration(e))
}

func (e Every) String() string { return "every " + time.Duration(e).String() }
