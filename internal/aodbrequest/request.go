// Package aodbrequest is msgx's side of the requests to the AODB (docs/design.md
// §7, docs/requests.md): RQFD (flight data of an SODT range) and RQRD (one
// reference list) are registered in REQ_TRACK, written to the shared
// outbound mailbox coutmsgs, and answered by an inbound SCHD/RESP or
// <LIST>/RESP, which the pump applies only when the guard (guard.go) matches
// it to the open request of its kind.
//
// Lifecycle: REGISTERED → SENT → DONE | EXPIRED, at most one open request
// per kind; registering a new one expires the old. A request is SENT only
// after its insert into coutmsgs is confirmed; a crash between the insert
// and the mark is recovered before any new send by finding our own row
// (SNDR + SEQN) — never by sending again.
package aodbrequest

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/msgx-aodb/msgx/internal/sis"
)

// Request types and the kinds (REQ_KEY) an open request is unique by.
const (
	TypeFlights   = "RQFD"
	TypeReference = "RQRD"
	KeyFlights    = TypeFlights // RQRD kinds are RQRD:<LIST>
)

// ReasonNoMatch is the SKIPPED reason of a RESP nobody asked for.
const ReasonNoMatch = "no-match:request"

// Mode is request.guard: how a RESP is matched.
type Mode string

const (
	ModeRequest Mode = "request" // REQ_TRACK: the open SENT request of the kind
	ModeMailbox Mode = "mailbox" // read-only: an RQFD/RQRD row in coutmsgs (shadow beside the live system)
	ModeOff     Mode = "off"     // every RESP applies (the old behaviour)
)

// Modes lists the valid request.guard values.
var Modes = []string{string(ModeRequest), string(ModeMailbox), string(ModeOff)}

// ErrShadow: shadow mode never writes coutmsgs, so it sends no request.
var ErrShadow = errors.New("shadow mode never writes the outbound mailbox (coutmsgs): no request is sent")

// ErrInvalid is a request that cannot be made (bad range or list).
var ErrInvalid = errors.New("invalid request")

// RefKey is the kind of a reference-list request.
func RefKey(list string) string { return TypeReference + ":" + list }

// KeyOf is the kind of request an inbound RESP answers: RQFD for SCHD/RESP,
// RQRD:<LIST> for <LIST>/RESP; ok is false for any other message.
func KeyOf(m *sis.Message) (key string, ok bool) {
	switch {
	case m == nil:
		return "", false
	case m.Kind == sis.KindSchedule && m.Schedule != nil && m.Schedule.Subtype == "RESP":
		return KeyFlights, true
	case m.Kind == sis.KindReference && m.Ref != nil && m.Ref.Subtype == "RESP":
		return RefKey(m.Ref.Type), true
	}
	return "", false
}

// CheckList validates a reference list code (the codec's list of TYPEs).
func CheckList(list string) (string, error) {
	code := strings.ToUpper(strings.TrimSpace(list))
	if !slices.Contains(sis.RefListTypes, code) {
		return "", fmt.Errorf("%w: %q is not a reference list (%s)", ErrInvalid, list, strings.Join(sis.RefListTypes, " "))
	}
	return code, nil
}

// CheckRange validates an RQFD range: from ≤ to, whole minutes (STDB/STDE
// are ddMONyyHHmm).
func CheckRange(from, to time.Time) error {
	switch {
	case from.IsZero() || to.IsZero():
		return fmt.Errorf("%w: both ends of the range are required", ErrInvalid)
	case to.Before(from):
		return fmt.Errorf("%w: the range ends (%s) before it begins (%s)", ErrInvalid, to.Format("2006-01-02T15:04"), from.Format("2006-01-02T15:04"))
	case from.Second() != 0 || from.Nanosecond() != 0 || to.Second() != 0 || to.Nanosecond() != 0:
		return fmt.Errorf("%w: the range is in whole minutes (STDB/STDE are ddMONyyHHmm)", ErrInvalid)
	}
	return nil
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
