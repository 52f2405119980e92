package flight

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

// clone deep-copies the mutable parts of a state, so Apply never touches
// the caller's current state.
func clone(s *State) *State {
	if s == nil {
		return &State{Scalars: map[string]Value{}, Structs: map[string]Struct{}, Groups: map[string][]Item{}, Payloads: map[string]Payload{}}
	}
	c := *s
	c.Scalars = make(map[string]Value, len(s.Scalars))
	for k, v := range s.Scalars {
		c.Scalars[k] = v
	}
	c.Structs = make(map[string]Struct, len(s.Structs))
	for k, v := range s.Structs {
		c.Structs[k] = v
	}
	c.Groups = make(map[string][]Item, len(s.Groups))
	for k, v := range s.Groups {
		c.Groups[k] = v // items are never mutated in place, only replaced
	}
	c.Payloads = make(map[string]Payload, len(s.Payloads))
	for k, v := range s.Payloads {
		c.Payloads[k] = v
	}
	return &c
}
