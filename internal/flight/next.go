package flight

import (
	"fmt"
	"time"

	"github.com/msgx-aodb/msgx/internal/sis"
)

// RuleError is a record that breaks a state rule (docs/design.md §4): the
// whole message is refused as PROTOCOL and nothing is written.
type RuleError struct {
	FLID   int64
	Reason string
}

func (e *RuleError) Error() string { return fmt.Sprintf("flight %d: %s", e.FLID, e.Reason) }

// Result is the outcome of applying a record to a flight.
type Result struct {
	Next *State
	// Changed: the flight's business state changed; the version advanced and
	// events must be emitted. A no-op message changes nothing.
	Changed bool
	// Write: the row must be written (Changed, or only bookkeeping such as
	// the snapshot day moved).
	Write   bool
	Created bool // the flight did not exist before
	Changes Changes
	// Kept counts what a snapshot's record left to a newer message (rule
	// 19): the values it would have changed, or 1 for a flight a newer
	// message deleted.
	Kept int
}

// Next computes the next state of a flight from its current state (nil for
// a new flight) and one decoded record: absent fields stay, Set writes, Clear
// removes, Replace swaps a whole group. A schedule record (SCHD) that lists
// a DELETED flight brings it back (revive); a FLOP record does not. Every
// value the record sets is stamped with by's DTTM; a snapshot's (by.Snapshot)
// value yields to a newer stamp, and a snapshot never revives a flight a
// newer message deleted (rule 19). Pure: no I/O, the caller supplies the
// message id and the time.
func Next(cur *State, rec *sis.FlightRecord, revive bool, msgID int64, now time.Time, by Sent) (Result, error) {
	next := cloneFor(cur, rec)
	if cur == nil {
		next.FLID, next.Lifecycle = rec.FLID, Active
	}
	st := &stamper{by: by, stamps: next.Stamps}
	if cur == nil {
		st.created()
	}
	var groups, payloads []string // replaced collections
	changed := cur == nil
	if revive && next.Lifecycle == Deleted {
		if st.keep(StampLifecycle) {
			// Deleted by a newer message: the snapshot's record is kept out
			// whole, the flight stays DELETED.
			same := *cur
			return Result{Next: &same, Kept: 1}, nil
		}
		next.Lifecycle, next.DeletedAt = Active, nil
		changed = true
		st.set(StampLifecycle, true)
	}

	// An Unchanged scalar is no operation: it neither applies nor stamps.
	if rec.FFID.Op != sis.Unchanged && stamped(st, next.Scalars, "FFID", func(m map[string]Value) bool { return applyValue(m, "FFID", rec.FFID) }) {
		changed = true
	}
	for id, f := range rec.Scalars.All() {
		if name := id.String(); f.Op != sis.Unchanged && stamped(st, next.Scalars, name, func(m map[string]Value) bool { return applyValue(m, name, f) }) {
			changed = true
		}
	}
	for id, op := range rec.Structs.All() {
		if stamped(st, next.Structs, id.String(), func(m map[string]Struct) bool { return applyStruct(m, id.String(), op) }) {
			changed = true
		}
	}
	ownGroups := cur == nil // cloneFor shares cur's groups until one changes
	for id, op := range rec.Groups.All() {
		name := id.String()
		if op.Op != sis.Replace || (len(op.Items) > 0 && sameItems(next.Groups[name], op.Items)) {
			// What stamped does when applyGroup changes nothing (a list
			// sent again, every resend): the map is neither copied nor
			// written.
			if !st.keep(name) {
				st.set(name, false)
			}
			continue
		}
		if !ownGroups {
			next.Groups, ownGroups = cloneMap(next.Groups), true
		}
		if stamped(st, next.Groups, name, func(m map[string][]Item) bool { return applyGroup(m, name, op) }) {
			changed = true
			groups = append(groups, name)
		}
	}
	for id, op := range rec.Payloads.All() {
		if kind := id.String(); stamped(st, next.Payloads, kind, func(m map[string]Payload) bool { return applyPayload(m, kind, op) }) {
			changed = true
			payloads = append(payloads, kind)
		}
	}
	if err := setOperationDay(cur, next); err != nil {
		return Result{}, err
	}
	if cur == nil {
		// A new flight writes every collection it carries.
		groups, payloads = Groups, PayloadKinds
	}
	next.Stamps = st.stamps
	r := finish(cur, next, changed, msgID, now)
	if r.Changed {
		r.Changes = Replaced(next.StateVersion, groups, payloads)
	}
	r.Write = r.Write || st.moved
	r.Created = cur == nil
	r.Kept = st.kept
	return r, nil
}

// stamped applies one operation on name in m (apply) and stamps it, unless
// a newer stamp keeps the value from a snapshot: then m is left alone and
// the kept value is counted if the operation would have changed it. It
// reports whether m changed.
func stamped[V any](st *stamper, m map[string]V, name string, apply func(map[string]V) bool) bool {
	if st.keep(name) {
		if wouldChange(m, name, apply) {
			st.kept++
		}
		return false
	}
	c := apply(m)
	st.set(name, c)
	return c
}

// cloneFor is clone for Next of rec: the structures and payloads maps are
// copied only when rec carries operations on them, the groups map by Next
// when a group changes; otherwise next shares cur's (a state's maps are
// never written once it is computed, and Next writes only into the maps it
// copied). Most FLOPs change a scalar or one kind of collection, and a
// resend sends every group again mostly unchanged: copying all four maps
// was most of the allocation of Next.
func cloneFor(s *State, rec *sis.FlightRecord) *State {
	if s == nil {
		return clone(nil)
	}
	c := *s
	// The scalars as well (a few dozen values): a FLOP of a list alone copied them for nothing.
	c.Scalars = cloneIf(s.Scalars, rec.FFID.Op != sis.Unchanged || rec.Scalars.Len() > 0)
	c.Structs = cloneIf(s.Structs, rec.Structs.Len() > 0)
	c.Groups = cloneIf(s.Groups, false) // Next copies it on the first group that changes
	c.Payloads = cloneIf(s.Payloads, rec.Payloads.Len() > 0)
	return &c
}

// Delete marks a flight DELETED (soft delete until the history sweep) and
// stamps its lifecycle with by's DTTM. A flight already deleted is
// unchanged (an incremental delete still moves the stamp). A snapshot's
// prune never deletes a flight a newer message changed: the caller checks
// Stamps.NewerThan first (rule 19).
func Delete(cur *State, msgID int64, now time.Time, by Sent) Result {
	next := clone(cur)
	changed := next.Lifecycle != Deleted
	if changed {
		next.Lifecycle = Deleted
		next.DeletedAt = &now
	}
	st := &stamper{by: by, stamps: next.Stamps}
	st.set(StampLifecycle, changed)
	next.Stamps = st.stamps
	r := finish(cur, next, changed, msgID, now)
	r.Write = r.Write || st.moved
	return r
}

// SetSnapshotDay records the snapshot day the flight now belongs to. It is
// bookkeeping: the row is written, but no version or event follows from it.
func SetSnapshotDay(r *Result, fday time.Time) {
	if r.Next.FDay == nil || !r.Next.FDay.Equal(fday) {
		d := fday
		r.Next.FDay = &d
		r.Write = true
	}
}

func finish(cur, next *State, changed bool, msgID int64, now time.Time) Result {
	if !changed {
		return Result{Next: next}
	}
	if cur == nil {
		next.StateVersion = 1
		next.CreatedAt = now
	} else {
		next.StateVersion = cur.StateVersion + 1
	}
	next.LastMessageID = msgID
	next.UpdatedAt = now
	return Result{Next: next, Changed: true, Write: true}
}

// setOperationDay fixes the operation day from SODT: set once, never changed.
func setOperationDay(cur, next *State) error {
	sodt, ok := next.Scalars["SODT"]
	if !ok || sodt.Time == nil {
		if cur == nil {
			return &RuleError{FLID: next.FLID, Reason: "a new flight needs SODT to fix its operation day"}
		}
		return nil
	}
	if prev, had := cur.scalar("SODT"); had && prev.Raw == sodt.Raw {
		// Unchanged: keep the day. (A state read back from the database holds
		// its times in UTC, where LocalDay would be the wrong calendar date.)
		next.OperationDay = cur.OperationDay
		return nil
	}
	day := LocalDay(*sodt.Time)
	if cur != nil && !cur.OperationDay.Equal(day) {
		return &RuleError{FLID: next.FLID, Reason: fmt.Sprintf("SODT %q moves the operation day from %s to %s",
			sodt.Raw, cur.OperationDay.Format(time.DateOnly), day.Format(time.DateOnly))}
	}
	next.OperationDay = day
	return nil
}

// scalar returns a scalar of a state that may be nil.
func (s *State) scalar(name string) (Value, bool) {
	if s == nil {
		return Value{}, false
	}
	v, ok := s.Scalars[name]
	return v, ok
}

// LocalDay is the calendar date of t in its own (airport) zone, as midnight UTC.
func LocalDay(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

func value(f sis.Field) Value {
	v := Value{Raw: f.Raw}
	switch f.Type {
	case sis.TypeTime:
		t := f.Time
		v.Time = &t
	case sis.TypeDuration:
		n := int32(f.Num)
		v.Minutes = &n
	case sis.TypeDayOffset:
		n := int32(f.Num)
		v.Days = &n
	}
	return v
}

// applyValue applies a scalar operation; reports whether the value changed.
func applyValue(into map[string]Value, name string, f sis.Field) bool {
	old, had := into[name]
	switch f.Op {
	case sis.Set:
		if had && sameValue(old, f) {
			return false // the value kept: no copy of the record's
		}
		into[name] = value(f)
		return true
	case sis.Clear:
		delete(into, name)
		return had
	}
	return false
}

func applyStruct(into map[string]Struct, name string, op sis.StructOp) bool {
	old, had := into[name]
	switch op.Op {
	case sis.Set:
		s := Struct{}
		if op.Text != "" {
			text := op.Text
			s.Text = &text
		}
		for _, a := range op.Attrs {
			if a.Op == sis.Set {
				if s.Attrs == nil {
					s.Attrs = map[string]string{}
				}
				s.Attrs[a.Name] = a.Raw
			}
		}
		if s.Text == nil && s.Attrs == nil {
			delete(into, name)
			return had
		}
		into[name] = s
		return !had || !old.Equal(s)
	case sis.Clear:
		delete(into, name)
		return had
	}
	return false
}

func applyGroup(into map[string][]Item, name string, op sis.GroupOp) bool {
	if op.Op != sis.Replace {
		return false
	}
	old := into[name]
	if len(op.Items) > 0 && sameItems(old, op.Items) {
		// A list sent again unchanged (every snapshot's resend) keeps the
		// current items: no map built per item only to compare it.
		return false
	}
	items := make([]Item, 0, len(op.Items))
	for i := range op.Items {
		items = append(items, item(&op.Items[i]))
	}
	if len(items) == 0 {
		delete(into, name)
	} else {
		into[name] = items
	}
	return !itemsEqual(old, items)
}

func item(it *sis.Item) Item {
	out := Item{Fields: make(map[string]Value, len(it.Fields)+len(it.Attrs)+1)}
	if it.HasSeq {
		seq := it.Seq
		out.SourceSeq = &seq
	}
	for _, f := range it.Fields {
		if f.Op == sis.Set {
			out.Fields[f.Name] = value(f.Field)
		}
	}
	for _, f := range it.Attrs {
		if f.Op == sis.Set {
			out.Fields[f.Name] = value(f.Field)
		}
	}
	if it.Text.Op == sis.Set {
		out.Fields["REASON"] = value(it.Text)
	}
	return out
}

func applyPayload(into map[string]Payload, kind string, op sis.PayloadOp) bool {
	if op.Op != sis.Replace {
		return false
	}
	old, had := into[kind]
	if op.Count == 0 {
		delete(into, kind)
		return had
	}
	p := Payload{Format: "xml", Content: op.XML}
	into[kind] = p
	return !had || old != p
}
