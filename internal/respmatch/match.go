package respmatch

import (
	"strconv"
	"time"

	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Decision is what the guard decided for one RESP. Pure data: Match and
// MatchMailbox compute it from what was read.
type Decision struct {
	Matched bool
	Why     string // not matched: why (for the log)
	Rule    string // matched: degraded (REQ_TRACK), mailbox (coutmsgs) or off

	Request    *vocab.Request // request mode: the request it answers (DONE with it)
	OutboundID int64          // mailbox mode: the coutmsgs row it answers

	// Begin and End are the requested SODT range of a flight request; nil:
	// unbounded (guard off: the RESP prunes like a DNLD).
	Begin, End *time.Time
}

// Match rules.
const (
	RuleExact    = "exact"    // an echoed field: upstream echoes none today
	RuleDegraded = "degraded" // RESP DTTM ≥ sent_at
	RuleMailbox  = "mailbox"
	RuleOff      = "off"
)

// Note is what the message records about its match: `request:<id>
// (degraded)`, `request:coutmsgs:<id> (mailbox)`, or nothing.
func (d Decision) Note() string {
	switch {
	case !d.Matched:
		return ""
	case d.Request != nil:
		return "request:" + strconv.FormatInt(d.Request.ID, 10) + " (" + d.Rule + ")"
	case d.OutboundID != 0:
		return "request:coutmsgs:" + strconv.FormatInt(d.OutboundID, 10) + " (" + d.Rule + ")"
	}
	return ""
}

// Resp is what the guard matches of an inbound RESP.
type Resp struct {
	Key  string    // the kind of request it answers (KeyOf)
	DTTM time.Time // META DTTM, airport zone
	// Records is how many schedule records it carries and SODTs the SODT
	// of each that has one (the record's, else the stored flight's).
	Records int
	SODTs   []time.Time
}

// Match is the degraded rule (docs/design.md §7): a RESP answers the open
// request of its kind when that request is SENT, not past expires_at, and
// the RESP's DTTM is not before sent_at — both instants compared to the
// second (DTTM is airport-local yyyyMMddHHmmss; sent_at is cut to the same
// second). A schedule RESP that carries records must also have one whose
// SODT lies in the request's [STDB, STDE]: an answer to an older request
// that this one superseded does not complete it. Upstream echoes nothing,
// so no match is exact. Pure.
func Match(resp Resp, open *vocab.Request) Decision {
	dttm := resp.DTTM
	switch {
	case open == nil:
		return Decision{Why: "no open request of its kind"}
	case open.Status != vocab.RequestSent || open.SentAt == nil:
		return Decision{Why: "request " + strconv.FormatInt(open.ID, 10) + " is not sent yet"}
	case dttm.Before(open.SentAt.Truncate(time.Second)):
		return Decision{Why: "DTTM " + dttm.Format(time.DateTime) + " is before request " + strconv.FormatInt(open.ID, 10) + " was sent"}
	case dttm.After(open.ExpiresAt):
		return Decision{Why: "request " + strconv.FormatInt(open.ID, 10) + " expired before DTTM " + dttm.Format(time.DateTime)}
	case resp.Records > 0 && !anyInRange(resp.SODTs, open.RangeBegin, open.RangeEnd):
		return Decision{Why: "no record's SODT lies in the range of request " + strconv.FormatInt(open.ID, 10)}
	}
	r := *open
	return Decision{Matched: true, Rule: RuleDegraded, Request: &r, Begin: r.RangeBegin, End: r.RangeEnd}
}

// InRange says whether t lies in [begin, end], both ends included; an
// open end (nil) bounds nothing.
func InRange(t time.Time, begin, end *time.Time) bool {
	return (begin == nil || !t.Before(*begin)) && (end == nil || !t.After(*end))
}

func anyInRange(ts []time.Time, begin, end *time.Time) bool {
	for _, t := range ts {
		if InRange(t, begin, end) {
			return true
		}
	}
	return false
}

// Outbound is a request row of coutmsgs, decoded.
type Outbound struct {
	ID         int64
	InsertedAt time.Time
	Key        string // RQFD or RQRD:<LIST>
	Begin, End *time.Time
}

// MatchMailbox is the mailbox guard: the newest request row of the kind
// inserted at or before the RESP's DTTM (to the second) answers it. rows
// are the rows of the guard's window. Pure.
func MatchMailbox(dttm time.Time, key string, rows []Outbound) Decision {
	var best *Outbound
	for i := range rows {
		r := &rows[i]
		if r.Key != key || dttm.Before(r.InsertedAt.Truncate(time.Second)) {
			continue
		}
		if best == nil || r.ID > best.ID {
			best = r
		}
	}
	if best == nil {
		return Decision{Why: "no " + key + " row in coutmsgs inserted before DTTM " + dttm.Format(time.DateTime)}
	}
	return Decision{Matched: true, Rule: RuleMailbox, OutboundID: best.ID, Begin: best.Begin, End: best.End}
}

// Candidates is what the guard read for one RESP, inside the message's
// transaction: the open request of its kind (request mode; nil: none) or
// the coutmsgs request rows of its window (mailbox mode).
type Candidates struct {
	Open     *vocab.Request
	Outbound []Outbound
}

// Decide is the guard's decision in a mode over what it read. Pure.
func Decide(mode Mode, resp Resp, c Candidates) Decision {
	switch mode {
	case ModeOff:
		return Decision{Matched: true, Rule: RuleOff}
	case ModeMailbox:
		return MatchMailbox(resp.DTTM, resp.Key, c.Outbound)
	}
	return Match(resp, c.Open)
}
