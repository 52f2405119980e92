package apply

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// snapshot is rules 4 and 12 for a DNLD/RESP: read what the message's
// flight days depend on, plan every day (pure), emit the plan.
func (a *Applier) snapshot(ctx context.Context, r Reader, msgID int64, msg *sis.Message, now time.Time, emit func(*Writes) error) (Outcome, error) {
	s := msg.Schedule
	states, err := r.Flights(ctx, recordFLIDs(s.Flights))
	if err != nil {
		return Outcome{}, err
	}
	resp, out, ok, err := a.guard(ctx, r, msg, states)
	if !ok || err != nil {
		return out, err
	}
	days, err := snapshotDays(s.Flights, states, msgID, now, sentBy(msg))
	if err != nil {
		return refused(err), nil
	}
	days = rangeDays(days, resp, a.cfg.Location)
	for _, d := range days {
		gen, err := r.SnapshotGen(ctx, d.fday)
		switch {
		case err == nil:
			d.gen = &gen
		case !errors.Is(err, vocab.ErrNotFound):
			return Outcome{}, err
		}
		if a.cfg.Prune {
			cands, err := r.PruneCandidates(ctx, d.fday, d.flids)
			if err != nil {
				return Outcome{}, err
			}
			// A RESP prunes only inside the requested range; previous members
			// outside it stay members.
			d.candidates, d.kept = inScope(cands, resp)
		}
	}
	plan := planSnapshot(days, snapshotMsg{id: msgID, subtype: s.Subtype, dttm: msg.Meta.Sent, dttmRaw: msg.Meta.SentRaw}, now)
	// The flights and events first, in memory: an event over the record
	// limit refuses the message before anything is written.
	var w Writes
	if tooLarge, err := a.addResults(&w, msgID, plan.results, now); err != nil {
		return Outcome{}, err
	} else if tooLarge != "" {
		return dead(vocab.ClassProtocol, tooLarge), nil
	}
	w.Advances, w.SnapshotLogs, w.Members = plan.advances, plan.logs, plan.members
	out = answered(&w, resp, msgID, plan.out, now)
	return out, emit(&w)
}

// snapshotDay is one flight day of a snapshot message: its records applied
// over the current states, and what the store holds for that day.
type snapshotDay struct {
	fday       time.Time
	flids      []int64         // the day's records, in message order
	results    []flight.Result // the records applied, in message order
	begin, end *time.Time      // SODT range of the records

	gen        *vocab.SnapshotGen // the day's generation; nil: none yet
	candidates []*flight.State    // previous members the snapshot lacks (prune on)
	kept       []int64            // previous members outside a RESP's requested range: stay members
}

// snapshotMsg is what the plan needs of the message itself.
type snapshotMsg struct {
	id      int64
	subtype string
	dttm    time.Time // META DTTM, airport zone
	dttmRaw string
}

// snapshotDays applies a snapshot's records in order over the current states
// (a later record of a flight builds on the earlier one) and groups the
// results by flight day, the operation day of each record, in day order.
// Pure. A rule violation refuses the whole message.
func snapshotDays(recs []*sis.FlightRecord, states map[int64]*flight.State, msgID int64, now time.Time, by flight.Sent) ([]*snapshotDay, error) {
	cur := maps.Clone(states)
	byDay := map[time.Time]*snapshotDay{}
	for _, rec := range recs {
		r, err := flight.Next(cur[rec.FLID], rec, true, msgID, now, by)
		if err != nil {
			return nil, err
		}
		fday := r.Next.OperationDay
		flight.SetSnapshotDay(&r, fday)
		cur[rec.FLID] = r.Next
		d := byDay[fday]
		if d == nil {
			d = &snapshotDay{fday: fday}
			byDay[fday] = d
		}
		d.flids = append(d.flids, rec.FLID)
		d.results = append(d.results, r)
		if t := r.Next.Scalars["SODT"].Time; t != nil {
			if d.begin == nil || t.Before(*d.begin) {
				d.begin = t
			}
			if d.end == nil || t.After(*d.end) {
				d.end = t
			}
		}
	}
	days := make([]*snapshotDay, 0, len(byDay))
	for _, fday := range slices.SortedFunc(maps.Keys(byDay), time.Time.Compare) {
		days = append(days, byDay[fday])
	}
	return days, nil
}

// dayAction is what a snapshot does to one of its flight days.
type dayAction int

const (
	dayApply  dayAction = iota // upsert, prune, advance the generation
	dayStale                   // sent before the day's generation: left alone (rule 12)
	dayReplay                  // this message made the day's generation: a replay advances nothing (rule 4)
)

// decideDay is rule 12 with rule 4's replay: a generation made by this very
// message is a replay; one made by a message sent later makes this one
// stale; an equal or older DTTM (or none kept) lets it apply.
func decideDay(gen *vocab.SnapshotGen, msg snapshotMsg) dayAction {
	switch {
	case gen == nil:
		return dayApply
	case gen.LastMessageID == msg.id:
		return dayReplay
	case gen.Dttm != nil && msg.dttm.Before(*gen.Dttm):
		return dayStale
	}
	return dayApply
}

// snapshotPlan is everything a snapshot message writes.
type snapshotPlan struct {
	out      Outcome
	advances []vocab.AdvanceSnapshotGenParams // one compare-and-set per applied day
	logs     []vocab.SnapshotLog              // one audit row per applied or stale day
	results  []flight.Result                  // the applied days' records and prunes
	members  []Members                        // the applied days' new memberships
}

// planSnapshot decides every flight day of a snapshot and computes what it
// writes. Pure. The message SUCCEEDS when a day applied (or all were
// replays), naming its stale days if any; it is SKIPPED
// stale-snapshot:<ids of the newer generations' messages> when no day
// applied and some were stale.
func planSnapshot(days []*snapshotDay, msg snapshotMsg, now time.Time) snapshotPlan {
	var (
		plan      snapshotPlan
		applied   int
		kept      int
		staleOf   []int64
		staleDays []string
	)
	dttm := msg.dttm
	by := flight.Sent{DTTM: dttm, Snapshot: true}
	for _, d := range days {
		switch decideDay(d.gen, msg) {
		case dayReplay:
			continue
		case dayStale:
			newer := d.gen.LastMessageID
			plan.logs = append(plan.logs, vocab.SnapshotLog{
				MsgID: msg.id, Subtype: msg.subtype, FDay: d.fday, Outcome: vocab.SnapStale,
				GenVersion: d.gen.Version, StaleOf: &newer, Dttm: &dttm,
				ScopeBegin: d.begin, ScopeEnd: d.end, Records: len(d.flids), RecvAt: now,
			})
			if !slices.Contains(staleOf, newer) {
				staleOf = append(staleOf, newer)
			}
			staleDays = append(staleDays, d.fday.Format(time.DateOnly))
			continue
		}
		applied++
		var version int64
		if d.gen != nil {
			version = d.gen.Version
		}
		changed, dayKept := 0, 0
		for _, r := range d.results {
			if r.Changed {
				changed++
			}
			dayKept += r.Kept
		}
		plan.results = append(plan.results, d.results...)
		members := append(slices.Clone(d.flids), d.kept...)
		pruned := 0
		for _, c := range d.candidates {
			if !dttm.IsZero() && c.Stamps.NewerThan(dttm) {
				// Changed by a newer message: not pruned, and still a member,
				// so a later snapshot newer than that change prunes it (rule 19).
				dayKept++
				members = append(members, c.FLID)
				continue
			}
			plan.results = append(plan.results, flight.Delete(c, msg.id, now, by))
			pruned++
		}
		kept += dayKept
		plan.advances = append(plan.advances, vocab.AdvanceSnapshotGenParams{
			FDay: d.fday, ExpectedVersion: version, MessageID: msg.id,
			ContentDigest: digest(d.results), Dttm: &dttm, DttmRaw: msg.dttmRaw, Now: now,
		})
		plan.logs = append(plan.logs, vocab.SnapshotLog{
			MsgID: msg.id, Subtype: msg.subtype, FDay: d.fday, Outcome: vocab.SnapApplied,
			GenVersion: version + 1, Dttm: &dttm, ScopeBegin: d.begin, ScopeEnd: d.end, Records: len(d.flids),
			Changed: changed, Unchanged: len(d.flids) - changed, Pruned: pruned, KeptNewer: dayKept, RecvAt: now,
		})
		plan.members = append(plan.members, Members{FDay: d.fday, FLIDs: members})
	}
	switch {
	case applied == 0 && len(staleOf) > 0:
		ids := make([]string, len(staleOf))
		for i, id := range staleOf {
			ids[i] = strconv.FormatInt(id, 10)
		}
		plan.out = skipped("stale-snapshot:" + strings.Join(ids, ","))
	default:
		var reason []string
		if len(staleDays) > 0 {
			reason = append(reason, "stale-days:"+strings.Join(staleDays, ","))
		}
		if kept > 0 {
			reason = append(reason, "kept-newer:"+strconv.Itoa(kept))
		}
		plan.out = succeeded(strings.Join(reason, " "))
	}
	return plan
}

// digest summarises a generation: its members and their state versions.
func digest(results []flight.Result) string {
	versions := map[int64]int64{}
	for _, r := range results {
		versions[r.Next.FLID] = r.Next.StateVersion // the last record of a flight wins
	}
	h := sha256.New()
	var line []byte // "id:version\n", appended: fmt boxed both numbers per flight
	for _, id := range slices.Sorted(maps.Keys(versions)) {
		line = strconv.AppendInt(line[:0], id, 10)
		line = append(line, ':')
		line = strconv.AppendInt(line, versions[id], 10)
		h.Write(append(line, '\n'))
	}
	return hex.EncodeToString(h.Sum(nil))
}
