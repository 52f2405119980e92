package apply

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/respmatch"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// The RESP guard (docs/design.md §7): a SCHD/RESP or <LIST>/RESP is applied
// only when it answers a request; otherwise it is SKIPPED no-match:request
// and writes nothing. The rules are respmatch's; the reader reads the
// candidates inside the message's transaction.

// guard decides a RESP: ok false means SKIPPED (the outcome is returned). A
// message that is no RESP is let through with a nil decision. states are
// the stored flights a schedule RESP names.
func (a *Applier) guard(ctx context.Context, r Reader, msg *sis.Message, states map[int64]*flight.State) (*respmatch.Decision, Outcome, bool, error) {
	key, isResp := respmatch.KeyOf(msg)
	if !isResp {
		return nil, Outcome{}, true, nil
	}
	resp := respmatch.Resp{Key: key, DTTM: msg.Meta.Sent}
	if msg.Schedule != nil {
		resp.Records, resp.SODTs = len(msg.Schedule.Flights), recordSODTs(msg.Schedule.Flights, states)
	}
	cands, err := r.RespCandidates(ctx, key, resp.DTTM) // the guard's read reads nothing when off
	if err != nil {
		return nil, Outcome{}, false, err
	}
	d := respmatch.Decide(a.cfg.Guard, resp, cands)
	if !d.Matched {
		a.log.Info("RESP matches no request", "kind", key, "dttm", msg.Meta.SentRaw, "why", d.Why)
		out := skipped(respmatch.ReasonNoMatch)
		out.Resp = RespUnmatched
		return nil, out, false, nil
	}
	return &d, Outcome{}, true, nil
}

// answered completes the request a RESP answered, in its writes, and
// records the match on the message (its reason's note, and RespMatched when
// it answered a request: guard off answers none). Only an applied RESP
// answers: a stale one leaves the request open.
func answered(w *Writes, d *respmatch.Decision, msgID int64, out Outcome, now time.Time) Outcome {
	if d == nil || out.Status != vocab.StatusSucceeded {
		return out
	}
	if d.Request != nil {
		w.RequestDone = &vocab.MarkRequestDoneParams{ID: d.Request.ID, MsgID: msgID, MatchRule: d.Rule, Now: now}
	}
	if d.Request != nil || d.OutboundID != 0 {
		out.Resp = RespMatched
	}
	out.Reason = strings.TrimSpace(d.Note() + " " + out.Reason)
	return out
}

// recordSODTs is the SODT of each record that has one: the record's own,
// else the stored flight's.
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
// (docs/design.md §7). loc is the airport zone.
func rangeDays(days []*snapshotDay, d *respmatch.Decision, loc *time.Location) []*snapshotDay {
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
// off) prunes them all.
func inScope(cands []*flight.State, d *respmatch.Decision) (prune []*flight.State, kept []int64) {
	if d == nil || d.Begin == nil || d.End == nil {
		return cands, nil
	}
	for _, c := range cands {
		if t := c.Scalars["SODT"].Time; t != nil && respmatch.InRange(*t, d.Begin, d.End) {
			prune = append(prune, c)
		} else {
			kept = append(kept, c.FLID)
		}
	}
	return prune, kept
}
