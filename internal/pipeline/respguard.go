package pipeline

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/msgx-aodb/msgx/internal/aodbrequest"
	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/store"
)

// The RESP guard (docs/design.md §7): a SCHD/RESP or <LIST>/RESP is applied
// only when it answers a request; otherwise it is SKIPPED no-match:request
// and writes nothing. Matching itself is aodbrequest.Match (pure); this file
// reads what it needs inside the message's transaction.

// guardResp decides a RESP: ok false means SKIPPED (the outcome is
// returned). A message that is no RESP is let through with a nil decision.
// states are the stored flights a schedule RESP names.
func (p *Pump) guardResp(ctx context.Context, ex store.Executor, msg *sis.Message, states map[int64]*flight.State) (*aodbrequest.Decision, outcome, bool, error) {
	key, isResp := aodbrequest.KeyOf(msg)
	if !isResp {
		return nil, outcome{}, true, nil
	}
	resp := aodbrequest.Resp{Key: key, DTTM: msg.Meta.Sent}
	if msg.Schedule != nil {
		resp.Records, resp.SODTs = len(msg.Schedule.Flights), recordSODTs(msg.Schedule.Flights, states)
	}
	d, err := p.cfg.Guard.Decide(ctx, ex, resp)
	if err != nil {
		return nil, outcome{}, false, err
	}
	if !d.Matched {
		p.log.Info("RESP matches no request", "kind", key, "dttm", msg.Meta.SentRaw, "why", d.Why)
		return nil, skipped(aodbrequest.ReasonNoMatch), false, nil
	}
	return &d, outcome{}, true, nil
}

// answered completes the request a RESP answered, in its transaction, and
// records the match on the message. Only an applied RESP answers: a stale
// one leaves the request open.
func (p *Pump) answered(ctx context.Context, ex store.Executor, d *aodbrequest.Decision, msgID int64, out outcome, now time.Time) (outcome, error) {
	if d == nil || out.status != store.StatusSucceeded {
		return out, nil
	}
	if err := p.cfg.Guard.Complete(ctx, ex, *d, msgID, now); err != nil {
		return outcome{}, err
	}
	out.reason = strings.TrimSpace(d.Note() + " " + out.reason)
	return out, nil
}

// recordSODTs is the SODT of each record that has one: the record's own,
// else the stored flight's. Pure.
func recordSODTs(recs []*sis.FlightRecord, states map[int64]*flight.State) []time.Time {
	var out []time.Time
	for _, rec := range recs {
		if f := rec.Scalars.Get(sis.SODT); f.Op == sis.Set && f.Type == sis.TypeTime {
			out = append(out, f.Time)
		} else if st := states[rec.FLID]; st != nil && st.Scalars["SODT"].Time != nil {
			out = append(out, *st.Scalars["SODT"].Time)
		}
	}
	return out
}

// rangeDays adds to the days of a schedule RESP matched to a range every
// flight day of [STDB, STDE] it has no record of, empty: the RESP is the
// snapshot of its whole range, so those days are pruned too (a RESP with
// RECS 0 empties the range) and their generations advance like the others
// (docs/design.md §7). loc is the airport zone. Pure.
func rangeDays(days []*snapshotDay, d *aodbrequest.Decision, loc *time.Location) []*snapshotDay {
	if d == nil || d.Begin == nil || d.End == nil {
		return days
	}
	have := map[time.Time]bool{}
	for _, day := range days {
		have[day.fday] = true
	}
	last := flight.LocalDay(d.End.In(loc))
	for fday := flight.LocalDay(d.Begin.In(loc)); !fday.After(last); fday = fday.AddDate(0, 0, 1) {
		if !have[fday] {
			days = append(days, &snapshotDay{fday: fday})
		}
	}
	slices.SortFunc(days, func(a, b *snapshotDay) int { return a.fday.Compare(b.fday) })
	return days
}

// inScope splits the prune candidates of a day: those a matched schedule
// RESP may prune (SODT inside the requested [begin, end]) and the ids of
// the others, which it leaves alone. A nil decision or range (a DNLD, guard
// off) prunes them all. Pure.
func inScope(cands []*flight.State, d *aodbrequest.Decision) (prune []*flight.State, kept []int64) {
	if d == nil || d.Begin == nil || d.End == nil {
		return cands, nil
	}
	for _, c := range cands {
		if t := c.Scalars["SODT"].Time; t != nil && aodbrequest.InRange(*t, d.Begin, d.End) {
			prune = append(prune, c)
		} else {
			kept = append(kept, c.FLID)
		}
	}
	return prune, kept
}

// matchedResp reports whether an outcome records a RESP's match.
func matchedResp(out outcome) bool {
	return out.status == store.StatusSucceeded && strings.HasPrefix(out.reason, "request:")
}

// RequestObserver is the optional part of an Observer that counts RESPs
// (internal/metrics implements it).
type RequestObserver interface {
	RespMatched()
	RespUnmatched()
}

// countResp counts a committed RESP outcome.
func (p *Pump) countResp(out outcome) {
	o, ok := p.cfg.Observer.(RequestObserver)
	switch {
	case !ok:
	case out.status == store.StatusSkipped && out.reason == aodbrequest.ReasonNoMatch:
		o.RespUnmatched()
	case matchedResp(out):
		o.RespMatched()
	}
}
