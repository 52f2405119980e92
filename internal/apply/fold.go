package apply

import (
	"maps"
	"time"

	"github.com/msgx-aodb/msgx/internal/flight"
)

// A message that names a flight more than once changes it once (rule 8,
// docs/design.md §4): its records apply in order, each on the state the one
// before left, and the flight's results fold into one — one next state, one
// version above the state before the message, one set of events. Consumers
// never see a state between two records of one message, and records that
// cancel out (the state ends as it began) change nothing (rule 6).

// flightRun is what a message's records did so far to one flight.
type flightRun struct {
	start   *flight.State  // the state before the message; nil: the message creates it
	records int            // results so far
	changed bool           // some record changed the state
	changes flight.Changes // every collection a record replaced
}

// begin notes the state of a flight before its first record of the message
// (only where a flight may be named twice: a message of one record folds
// nothing).
func (m *matches) begin(flid int64, cur *flight.State) {
	if m.runs == nil {
		m.runs = map[int64]*flightRun{}
	}
	if _, ok := m.runs[flid]; !ok {
		m.runs[flid] = &flightRun{start: cur}
	}
}

// fold turns a part's per-record results, in record order, into one result
// per flight, at the flight's last record, relative to the state before the
// message (earlier slices included), and stages each in states so what
// follows builds on the folded state.
func (m *matches) fold(states *overlay, results []flight.Result) []flight.Result {
	if m.runs == nil {
		return results // one record (most messages): nothing to fold
	}
	last := make(map[int64]int, len(results))
	for i, r := range results {
		run := m.runs[r.Next.FLID]
		run.records++
		if r.Changed {
			run.changed = true
			run.changes = run.changes.Merge(r.Changes)
		}
		last[r.Next.FLID] = i
	}
	if len(last) == len(results) && !m.sliced {
		// Every flight named once (the common case): nothing to fold.
		return results
	}
	out := make([]flight.Result, 0, len(last))
	for i, r := range results {
		if last[r.Next.FLID] != i {
			continue
		}
		f := m.runs[r.Next.FLID].result(r)
		states.put(f.Next)
		out = append(out, f)
	}
	return out
}

// result is the flight's one result, given the result of its last record.
func (run *flightRun) result(last flight.Result) flight.Result {
	if run.records == 1 {
		return last // applied on the state before the message
	}
	if !run.changed || (run.start != nil && sameState(run.start, last.Next)) {
		// Nothing, or records that cancel out; the stamps of what they
		// carried still move (rule 19), a write without a version.
		r := flight.Result{Next: run.start}
		if run.start != nil && !maps.EqualFunc(run.start.Stamps, last.Next.Stamps, time.Time.Equal) {
			s := *run.start
			s.Stamps = last.Next.Stamps
			r.Next, r.Write = &s, true
		}
		return r
	}
	next := *last.Next
	next.StateVersion = 1
	if run.start != nil {
		next.StateVersion = run.start.StateVersion + 1
	}
	return flight.Result{
		Next: &next, Changed: true, Write: true, Created: run.start == nil,
		Changes: atVersion(run.changes, next.StateVersion),
	}
}

// atVersion is c with every collection replaced at version: the message's
// one version wrote them all.
func atVersion(c flight.Changes, version int64) flight.Changes {
	out := flight.Changes{Groups: maps.Clone(c.Groups), Payloads: maps.Clone(c.Payloads)}
	for g := range out.Groups {
		out.Groups[g] = version
	}
	for p := range out.Payloads {
		out.Payloads[p] = version
	}
	return out
}

// sameState says whether two states of a flight carry the same business
// state: what an event publishes and a version counts.
func sameState(a, b *flight.State) bool {
	return a.Lifecycle == b.Lifecycle && a.OperationDay.Equal(b.OperationDay) && sameTime(a.FDay, b.FDay) &&
		maps.EqualFunc(a.Scalars, b.Scalars, flight.Value.Equal) &&
		maps.EqualFunc(a.Structs, b.Structs, flight.Struct.Equal) &&
		sameGroups(a.Groups, b.Groups) && sameGroups(b.Groups, a.Groups) &&
		maps.Equal(a.Payloads, b.Payloads)
}

// sameGroups says whether every list of a is in b; an empty list is no
// list (a state read back may carry one).
func sameGroups(a, b map[string][]flight.Item) bool {
	for g, items := range a {
		other := b[g]
		if len(items) != len(other) {
			return false
		}
		for i := range items {
			if !items[i].Equal(other[i]) {
				return false
			}
		}
	}
	return true
}

func sameTime(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(*b)
}
