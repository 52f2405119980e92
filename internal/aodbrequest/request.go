// Package aodbrequest is msgx's side of the requests to the AODB (docs/design.md
// §7, docs/requests.md): RQFD (flight data of an SODT range) and RQRD (one
// reference list) are registered in REQ_TRACK, written to the shared
// outbound mailbox coutmsgs, and answered by an inbound SCHD/RESP or
// <LIST>/RESP, which the pump applies only when it answers the open request
// of its kind (guard.go reads the candidates, internal/respmatch decides).
//
// Lifecycle: REGISTERED → SENT → DONE | EXPIRED, at most one open request
// per kind; registering a new one expires the old. A request is SENT only
// after its insert into coutmsgs is confirmed; a crash between the insert
// and the mark is recovered before any new send by finding our own row
// (SNDR + SEQN) — never by sending again. outbound.go: coutmsgs as the
// package uses it (not the event outbox, store.Outbox).
package aodbrequest

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/msgx-aodb/msgx/internal/sis"
)

// ErrShadow: shadow mode never writes coutmsgs, so it sends no request.
var ErrShadow = errors.New("shadow mode never writes the outbound mailbox (coutmsgs): no request is sent")

// ErrInvalid is a request that cannot be made (bad range or list).
var ErrInvalid = errors.New("invalid request")

// CheckList validates a reference list code (the codec's list of TYPEs).
func CheckList(list string) (string, error) {
	code := strings.ToUpper(strings.TrimSpace(list))
	if !slices.Contains(sis.RefListTypes, code) {
		return "", fmt.Errorf("%w: %q is not a reference list (%s)", ErrInvalid, list, strings.Join(sis.RefListTypes, " "))
	}
	return code, nil
}

// CheckRange validates an RQFD range: from ≤ to, whole minutes (STDB/STDE
// are ddMONyyHHmm), and at most maxDays operation days (calendar days of
// from and to in their zone, the airport's, both ends counted;
// request.max-days).
func CheckRange(from, to time.Time, maxDays int) error {
	switch {
	case from.IsZero() || to.IsZero():
		return fmt.Errorf("%w: both ends of the range are required", ErrInvalid)
	case to.Before(from):
		return fmt.Errorf("%w: the range ends (%s) before it begins (%s)", ErrInvalid, to.Format("2006-01-02T15:04"), from.Format("2006-01-02T15:04"))
	case from.Second() != 0 || from.Nanosecond() != 0 || to.Second() != 0 || to.Nanosecond() != 0:
		return fmt.Errorf("%w: the range is in whole minutes (STDB/STDE are ddMONyyHHmm)", ErrInvalid)
	}
	if days := operationDays(from, to); days > maxDays {
		return fmt.Errorf("%w: the range spans %d operation days (%s to %s), more than request.max-days %d; request it in parts",
			ErrInvalid, days, from.Format(time.DateOnly), to.Format(time.DateOnly), maxDays)
	}
	return nil
}

// operationDays counts the calendar days from from's to to's, both counted.
func operationDays(from, to time.Time) int {
	day := func(t time.Time) time.Time {
		y, m, d := t.Date()
		return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	}
	return int(day(to).Sub(day(from))/(24*time.Hour)) + 1
}

// LocalLayout is how the CLI and the API spell a range end: airport time to the minute.
const LocalLayout = "2006-01-02T15:04"

// ParseLocal reads a range end in the airport zone.
func ParseLocal(s string, loc *time.Location) (time.Time, error) {
	t, err := time.ParseInLocation(LocalLayout, strings.TrimSpace(s), loc)
	if err != nil {
		return time.Time{}, fmt.Errorf("%w: %q is not airport local time YYYY-MM-DDTHH:MM", ErrInvalid, s)
	}
	return t, nil
}

// DayRange is the RQFD range of one local day: 00:00 to 23:59.
func DayRange(day time.Time, loc *time.Location) (from, to time.Time) {
	d := day.In(loc)
	from = time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, loc)
	return from, time.Date(d.Year(), d.Month(), d.Day(), 23, 59, 0, 0, loc)
}
