package flight

import (
	"maps"

	"github.com/msgx-aodb/msgx/internal/sis"
)

// Equal compares two values: raw text and every parsed form (times by instant).
func (v Value) Equal(o Value) bool {
	return v.Raw == o.Raw && eqTime(v, o) && eqInt(v.Minutes, o.Minutes) && eqInt(v.Days, o.Days)
}

func eqTime(a, b Value) bool {
	if a.Time == nil || b.Time == nil {
		return a.Time == nil && b.Time == nil
	}
	return a.Time.Equal(*b.Time)
}

func eqInt(a, b *int32) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// Equal compares two structures.
func (s Struct) Equal(o Struct) bool {
	if (s.Text == nil) != (o.Text == nil) || (s.Text != nil && *s.Text != *o.Text) || len(s.Attrs) != len(o.Attrs) {
		return false
	}
	for k, v := range s.Attrs {
		if w, ok := o.Attrs[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func itemsEqual(a, b []Item) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}

// Equal compares two group items, order of fields aside.
func (it Item) Equal(o Item) bool {
	if (it.SourceSeq == nil) != (o.SourceSeq == nil) || (it.SourceSeq != nil && *it.SourceSeq != *o.SourceSeq) {
		return false
	}
	if len(it.Fields) != len(o.Fields) {
		return false
	}
	for k, v := range it.Fields {
		if w, ok := o.Fields[k]; !ok || !v.Equal(w) {
			return false
		}
	}
	return true
}

// sameValue reports whether f, set, is v: value(f).Equal(v) without
// building value(f).
func sameValue(v Value, f sis.Field) bool {
	isTime, isDuration, isDays := f.Type == sis.TypeTime, f.Type == sis.TypeDuration, f.Type == sis.TypeDayOffset
	return v.Raw == f.Raw &&
		(v.Time != nil) == isTime && (!isTime || v.Time.Equal(f.Time)) &&
		(v.Minutes != nil) == isDuration && (!isDuration || *v.Minutes == int32(f.Num)) &&
		(v.Days != nil) == isDays && (!isDays || *v.Days == int32(f.Num))
}

// sameItems reports whether the items item builds from recs equal cur,
// without building them.
func sameItems(cur []Item, recs []sis.Item) bool {
	if len(cur) != len(recs) {
		return false
	}
	for i := range recs {
		if !sameItem(cur[i], &recs[i]) {
			return false
		}
	}
	return true
}

func sameItem(cur Item, it *sis.Item) bool {
	if (cur.SourceSeq != nil) != it.HasSeq || (it.HasSeq && *cur.SourceSeq != it.Seq) {
		return false
	}
	// Every field it sets is in cur with that value ...
	for _, f := range it.Fields {
		if v, ok := cur.Fields[f.Name]; f.Op == sis.Set && (!ok || !sameValue(v, f.Field)) {
			return false
		}
	}
	for _, f := range it.Attrs {
		if v, ok := cur.Fields[f.Name]; f.Op == sis.Set && (!ok || !sameValue(v, f.Field)) {
			return false
		}
	}
	if v, ok := cur.Fields["REASON"]; it.Text.Op == sis.Set && (!ok || !sameValue(v, it.Text)) {
		return false
	}
	// ... and every field of cur is set by it.
	for name := range cur.Fields {
		if !setsField(it, name) {
			return false
		}
	}
	return true
}

// setsField reports whether item(it) holds name.
func setsField(it *sis.Item, name string) bool {
	for _, f := range it.Fields {
		if f.Name == name && f.Op == sis.Set {
			return true
		}
	}
	for _, f := range it.Attrs {
		if f.Name == name && f.Op == sis.Set {
			return true
		}
	}
	return name == "REASON" && it.Text.Op == sis.Set
}

// clone deep-copies the mutable parts of a state, so Next never touches
// the caller's current state.
func clone(s *State) *State {
	if s == nil {
		return &State{Scalars: map[string]Value{}, Structs: map[string]Struct{}, Groups: map[string][]Item{}, Payloads: map[string]Payload{}}
	}
	c := *s
	// maps.Clone copies a map's table whole, far cheaper than re-inserting
	// every key; a nil map becomes an empty one, as Next writes into them.
	c.Scalars = cloneMap(s.Scalars)
	c.Structs = cloneMap(s.Structs)
	c.Groups = cloneMap(s.Groups) // items are never mutated in place, only replaced
	c.Payloads = cloneMap(s.Payloads)
	return &c
}

// cloneIf is cloneMap(m) when write, else m itself (nil becomes empty, as
// clone makes it).
func cloneIf[V any](m map[string]V, write bool) map[string]V {
	if write || m == nil {
		return cloneMap(m)
	}
	return m
}

func cloneMap[V any](m map[string]V) map[string]V {
	if m == nil {
		return map[string]V{}
	}
	return maps.Clone(m)
}
