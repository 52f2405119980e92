// Package respmatch decides whether an inbound RESP answers a request msgx
// sent to the AODB (docs/design.md §7): the kinds a request is unique by,
// the guard's modes, and the matching rules over what the guard read (the
// open REQ_TRACK request, or the coutmsgs rows). Pure: it reads nothing, so
// the pump's per-message rules (internal/apply) use it without a database
// or a driver; internal/aodbrequest sends the requests and reads the
// candidates.
package respmatch

import "github.com/msgx-aodb/msgx/internal/sis"

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
