package pipeline

import (
	"context"
	"errors"
	"maps"
	"strconv"
	"strings"
	"time"

	"github.com/msgx-aodb/msgx/internal/aodbrequest"
	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/store"
)

// dispatch applies a decoded message by kind (the one-by-one path).
// Returned errors are retryable failures; refusals and skips are outcomes.
func (p *Pump) dispatch(ctx context.Context, ex store.Executor, msgID int64, msg *sis.Message, now time.Time) (outcome, error) {
	switch msg.Kind {
	case sis.KindUnsupported:
		return outcome{}, &failure{class: sis.ClassUnsupported, reason: msg.Note}
	case sis.KindReference:
		return p.applyReference(ctx, ex, msgID, msg, now)
	case sis.KindSchedule:
		if msg.Schedule.Snapshot() {
			return p.applySnapshot(ctx, ex, msgID, msg, now)
		}
	}
	return p.applyInSlices(ctx, ex, msgID, msg, now)
}

// sliceRecords is the most records of a message applied and written at
// once: a FLOP of 300 000 records on known flights would otherwise hold a
// next state and its events for every record until the end. A message of
// more records is settled alone (batchable), a slice at a time inside its
// savepoint: a refusal in a later slice rolls the earlier ones back, so the
// message stays all-or-nothing, and each flight's final state, versions and
// events are those of the one-piece apply.
const sliceRecords = 1000

// applyInSlices applies a message computed from the flights it names
// (compute), sliceRecords records at a time: read the slice's flights not
// read yet, compute, write the flights and events. The states carry over
// from slice to slice, one per flight.
func (p *Pump) applyInSlices(ctx context.Context, ex store.Executor, msgID int64, msg *sis.Message, now time.Time) (outcome, error) {
	var acc matches
	states := map[int64]*flight.State{}
	n := recordCount(msg)
	for from := 0; ; from += sliceRecords {
		part := sliceOf(msg, from, min(from+sliceRecords, n))
		var need []int64
		for _, id := range messageFLIDs(part) {
			if _, ok := states[id]; !ok {
				need = append(need, id)
			}
		}
		got, err := ex.Flights(ctx, need)
		if err != nil {
			return outcome{}, err
		}
		maps.Copy(states, got)
		overlay := overlayOf(states)
		out, results := computeWith(&acc, part, overlay, msgID, now)
		if out.status == "" {
			return outcome{}, &failure{class: sis.ClassUnsupported, reason: "kind " + string(msg.Kind)}
		}
		if refusal(out) {
			return out, nil
		}
		overlay.merge()
		w := p.newWriter()
		if tooLarge, err := w.addResults(msgID, results, now); err != nil {
			return outcome{}, err
		} else if tooLarge != "" {
			return dead(sis.ClassProtocol, tooLarge), nil
		}
		if err := w.flush(ctx, ex, now); err != nil {
			return outcome{}, err
		}
		if from+sliceRecords >= n {
			return out, nil
		}
	}
}

// recordCount is how many records (flights to delete included) a message
// carries.
func recordCount(msg *sis.Message) int {
	switch {
	case msg.FlightOps != nil:
		return len(msg.FlightOps.Records)
	case msg.Schedule != nil:
		return len(msg.Schedule.Flights)
	case msg.Delete != nil:
		return len(msg.Delete.Records)
	}
	return 0
}

// sliceOf is msg with only its records [from, to).
func sliceOf(msg *sis.Message, from, to int) *sis.Message {
	part := *msg
	switch {
	case msg.FlightOps != nil:
		ops := *msg.FlightOps
		ops.Records = ops.Records[from:to]
		part.FlightOps = &ops
	case msg.Schedule != nil:
		s := *msg.Schedule
		s.Flights = s.Flights[from:to]
		part.Schedule = &s
	case msg.Delete != nil:
		d := *msg.Delete
		d.Records = d.Records[from:to]
		part.Delete = &d
	}
	return &part
}

// compute is the effect of a message whose outcome depends only on the
// flights it names: FLOP, FDEL, SCHD ADFT/UPD/DEL, ignored and inbound
// requests. Pure: it reads and stages states in the overlay. An empty status
// means the kind is not computed here.
func compute(msg *sis.Message, states *overlay, msgID int64, now time.Time) (outcome, []flight.Result) {
	return computeWith(&matches{}, msg, states, msgID, now)
}

// computeWith is compute over a slice of a message's records, acc counting
// what the slices before matched: the outcome is that of the records so far.
func computeWith(acc *matches, msg *sis.Message, states *overlay, msgID int64, now time.Time) (outcome, []flight.Result) {
	switch msg.Kind {
	case sis.KindIgnored:
		return skipped(msg.Note), nil
	case sis.KindRequest:
		return dead(sis.ClassProtocol, "an outbound request ("+msg.Meta.Type+") arrived inbound"), nil
	case sis.KindFlightOps:
		return acc.applyRecords(states, msg.FlightOps.Records, false, msgID, now)
	case sis.KindFlightDelete:
		return acc.deleteFlights(states, messageFLIDs(msg), msgID, now)
	case sis.KindSchedule:
		if msg.Schedule.Subtype == "DEL" {
			return acc.deleteFlights(states, messageFLIDs(msg), msgID, now)
		}
		if !msg.Schedule.Snapshot() { // ADFT, UPD: upsert the listed flights, never prune
			return acc.applyRecords(states, msg.Schedule.Flights, true, msgID, now)
		}
	}
	return outcome{}, nil
}

// messageFLIDs lists the flights a message names.
func messageFLIDs(msg *sis.Message) []int64 {
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

// matches counts what a message's records matched: flights changed, and
// records naming no flight or a DELETED one.
type matches struct {
	results          int
	unknown, deleted []string
}

// applyRecords applies flight records (FLOP, or SCHD ADFT/UPD with create).
// A FLOP record matches neither an unknown flight nor a DELETED one: only a
// schedule record brings a deleted flight back, so a late FLOP can neither
// change it nor make it emit yet another TOMBSTONE.
func (m *matches) applyRecords(states *overlay, recs []*sis.FlightRecord, create bool, msgID int64, now time.Time) (outcome, []flight.Result) {
	var results []flight.Result
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
		r, err := flight.Apply(cur, rec, create, msgID, now)
		if err != nil {
			return refused(err), nil
		}
		states.put(r.Next) // a later record of the same flight builds on this one
		results = append(results, r)
	}
	m.results += len(results)
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

// Reasons of records that matched no flight: none with that FLID, or one
// that is DELETED (FLOP only).
const (
	reasonNoMatch = "no-match:flight"
	reasonDeleted = "no-match:flight-deleted"
)

// deleteFlights marks the listed flights DELETED (FDEL, SCHD DEL).
func (m *matches) deleteFlights(states *overlay, flids []int64, msgID int64, now time.Time) (outcome, []flight.Result) {
	var results []flight.Result
	for _, id := range flids {
		if cur := states.get(id); cur != nil {
			r := flight.Delete(cur, msgID, now)
			states.put(r.Next)
			results = append(results, r)
		}
	}
	m.results += len(results)
	if m.results == 0 {
		return skipped(reasonNoMatch), nil
	}
	return succeeded(""), results
}

// applyReference upserts or deletes reference records by (RTYPE, RKEY). A
// RESP applies only when it answers a request, and then it is the whole
// list: keys it lacks are deleted (guard off: upserted only, as before).
func (p *Pump) applyReference(ctx context.Context, ex store.Executor, msgID int64, msg *sis.Message, now time.Time) (outcome, error) {
	ref := msg.Ref
	resp, out, ok, err := p.guardResp(ctx, ex, msg, nil)
	if !ok || err != nil {
		return out, err
	}
	for _, r := range ref.Records {
		var err error
		if ref.Subtype == "DEL" {
			_, err = ex.DeleteRef(ctx, ref.Type, r.Key)
		} else {
			_, err = ex.UpsertRef(ctx, store.RefRecord{RType: ref.Type, RKey: r.Key, Record: r.XML, LastMessageID: msgID, Now: now})
		}
		if err != nil {
			return outcome{}, err
		}
	}
	if resp != nil && resp.Rule != aodbrequest.RuleOff {
		keys := make([]string, len(ref.Records))
		for i, r := range ref.Records {
			keys[i] = r.Key
		}
		if _, err := ex.ReplaceRefList(ctx, ref.Type, keys); err != nil {
			return outcome{}, err
		}
	}
	return p.answered(ctx, ex, resp, msgID, succeeded(""), now)
}

// refused turns a state-rule violation into DEAD(PROTOCOL). flight.Apply
// returns no other error.
func refused(err error) outcome {
	var re *flight.RuleError
	if errors.As(err, &re) {
		return dead(sis.ClassProtocol, re.Error())
	}
	return dead(sis.ClassProtocol, err.Error())
}

func recordFLIDs(recs []*sis.FlightRecord) []int64 {
	ids := make([]int64, len(recs))
	for i, r := range recs {
		ids[i] = r.FLID
	}
	return ids
}
