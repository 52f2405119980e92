package apply

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// compute is the effect of a message whose outcome depends only on the
// flights it names: FLOP, FDEL, SCHD ADFT/UPD/DEL, ignored and inbound
// requests. It reads and stages states in the overlay; acc counts what the
// slices of the message before this one matched, so the outcome is that of
// the records so far. An empty status means the kind is not computed here.
func compute(acc *matches, msg *sis.Message, states *overlay, msgID int64, now time.Time) (Outcome, []flight.Result) {
	switch msg.Kind {
	case sis.KindIgnored:
		return skipped(msg.Note), nil
	case sis.KindRequest:
		return dead(vocab.ClassProtocol, "an outbound request ("+msg.Meta.Type+") arrived inbound"), nil
	case sis.KindFlightOps:
		return acc.applyRecords(states, msg.FlightOps.Records, false, msgID, now, sentBy(msg))
	case sis.KindFlightDelete:
		return acc.deleteFlights(states, FLIDs(msg), msgID, now, sentBy(msg))
	case sis.KindSchedule:
		if msg.Schedule.Subtype == "DEL" {
			return acc.deleteFlights(states, FLIDs(msg), msgID, now, sentBy(msg))
		}
		if !msg.Schedule.Snapshot() { // ADFT, UPD: upsert the listed flights, never prune
			return acc.applyRecords(states, msg.Schedule.Flights, true, msgID, now, sentBy(msg))
		}
	}
	return Outcome{}, nil
}

// matches counts what a message's records matched: flights changed, and
// records naming no flight or a DELETED one. It also keeps, per flight,
// what the records did so far, to fold them into one change (fold.go).
type matches struct {
	results          int
	unknown, deleted []string
	runs             map[int64]*flightRun
	sliced           bool // the message is applied in slices: fold every flight
}

// Reasons of records that matched no flight: none with that FLID, or one
// that is DELETED (FLOP only).
const (
	reasonNoMatch = "no-match:flight"
	reasonDeleted = "no-match:flight-deleted"
)

// applyRecords applies flight records (FLOP, or SCHD ADFT/UPD with create).
// A FLOP record matches neither an unknown flight nor a DELETED one: only a
// schedule record brings a deleted flight back, so a late FLOP can neither
// change it nor make it emit yet another TOMBSTONE.
func (m *matches) applyRecords(states *overlay, recs []*sis.FlightRecord, create bool, msgID int64, now time.Time, by flight.Sent) (Outcome, []flight.Result) {
	var results []flight.Result
	track := m.sliced || len(recs) > 1 // a flight may be named again
	for _, rec := range recs {
		cur := states.get(rec.FLID)
		if !create && (cur == nil || cur.Lifecycle == flight.Deleted) {
			if cur == nil {
				m.unknown = append(m.unknown, strconv.FormatInt(rec.FLID, 10))
			} else {
				m.deleted = append(m.deleted, strconv.FormatInt(rec.FLID, 10))
			}
			continue
		}
		if track {
			m.begin(rec.FLID, cur)
		}
		r, err := flight.Next(cur, rec, create, msgID, now, by)
		if err != nil {
			return refused(err), nil
		}
		states.put(r.Next) // a later record of the same flight builds on this one
		results = append(results, r)
	}
	m.results += len(results)
	results = m.fold(states, results)
	if m.results == 0 {
		if len(m.unknown) == 0 {
			return skipped(reasonDeleted), nil
		}
		return skipped(reasonNoMatch), nil
	}
	var partial []string
	if len(m.unknown) > 0 {
		partial = append(partial, reasonNoMatch+":"+strings.Join(m.unknown, ","))
	}
	if len(m.deleted) > 0 {
		partial = append(partial, reasonDeleted+":"+strings.Join(m.deleted, ","))
	}
	return succeeded(strings.Join(partial, " ")), results
}

// deleteFlights marks the listed flights DELETED (FDEL, SCHD DEL).
func (m *matches) deleteFlights(states *overlay, flids []int64, msgID int64, now time.Time, by flight.Sent) (Outcome, []flight.Result) {
	var results []flight.Result
	track := m.sliced || len(flids) > 1
	for _, id := range flids {
		if cur := states.get(id); cur != nil {
			if track {
				m.begin(id, cur)
			}
			r := flight.Delete(cur, msgID, now, by)
			states.put(r.Next)
			results = append(results, r)
		}
	}
	m.results += len(results)
	results = m.fold(states, results)
	if m.results == 0 {
		return skipped(reasonNoMatch), nil
	}
	return succeeded(""), results
}

// refused turns a state-rule violation into DEAD(PROTOCOL). flight.Next
// returns no other error.
func refused(err error) Outcome {
	var re *flight.RuleError
	if errors.As(err, &re) {
		return dead(vocab.ClassProtocol, re.Error())
	}
	return dead(vocab.ClassProtocol, err.Error())
}

// FLIDs lists the flights a message names, in record order.
func FLIDs(msg *sis.Message) []int64 {
	switch {
	case msg.FlightOps != nil:
		return recordFLIDs(msg.FlightOps.Records)
	case msg.Schedule != nil:
		return recordFLIDs(msg.Schedule.Flights)
	case msg.Delete != nil:
		ids := make([]int64, len(msg.Delete.Records))
		for i, r := range msg.Delete.Records {
			ids[i] = r.FLID
		}
		return ids
	}
	return nil
}

func recordFLIDs(recs []*sis.FlightRecord) []int64 {
	ids := make([]int64, len(recs))
	for i, r := range recs {
		ids[i] = r.FLID
	}
	return ids
}

// overlay stages one message's flight states over the batch's states, so a
// message refused half way leaves the batch's view untouched.
type overlay struct {
	base   map[int64]*flight.State
	staged map[int64]*flight.State
}

func overlayOf(base map[int64]*flight.State) *overlay {
	return &overlay{base: base, staged: map[int64]*flight.State{}}
}

func (o *overlay) get(flid int64) *flight.State {
	if s, ok := o.staged[flid]; ok {
		return s
	}
	return o.base[flid]
}

func (o *overlay) put(s *flight.State) { o.staged[s.FLID] = s }

func (o *overlay) merge() {
	for id, s := range o.staged {
		o.base[id] = s
	}
}
