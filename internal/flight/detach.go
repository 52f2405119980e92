package flight

import (
	"strings"
	"time"
)

// Detached returns a deep copy of s that shares no memory with it or with
// the message it was computed from. A state computed from a decoded message
// holds substrings of the message's XML (every raw value, attribute and
// verbatim payload), so keeping it keeps the whole message alive: the pump
// caches the states a large message wrote (a download of thousands of
// flights) as detached copies. Every string of the copy is in one buffer of
// its own, so the copy costs a few allocations per map, not one per value.
func (s *State) Detached() *State {
	if s == nil {
		return nil
	}
	c := *s
	c.groupsJSON = nil // keyed by the lists' arrays, which the copy does not share
	var b strings.Builder
	b.Grow(s.stringBytes())
	own := func(v string) string {
		if v == "" {
			return ""
		}
		start := b.Len()
		b.WriteString(v)
		// The builder only ever appends: what String returned stays as it
		// was, also after the buffer grows (and Grow sized it for all).
		return b.String()[start:]
	}
	ownValue := func(v Value) Value {
		v.Raw = own(v.Raw)
		v.Time = clonePtr(v.Time)
		v.Minutes = clonePtr(v.Minutes)
		v.Days = clonePtr(v.Days)
		return v
	}
	c.Scalars = detachMap(s.Scalars, own, ownValue)
	c.Structs = detachMap(s.Structs, own, func(v Struct) Struct {
		if v.Text != nil {
			t := own(*v.Text)
			v.Text = &t
		}
		v.Attrs = detachMap(v.Attrs, own, own)
		return v
	})
	c.Groups = detachMap(s.Groups, own, func(items []Item) []Item {
		out := make([]Item, len(items))
		for i, it := range items {
			out[i] = Item{SourceSeq: clonePtr(it.SourceSeq), Fields: detachMap(it.Fields, own, ownValue)}
		}
		return out
	})
	c.Payloads = detachMap(s.Payloads, own, func(p Payload) Payload {
		return Payload{Format: own(p.Format), Content: own(p.Content)}
	})
	c.Stamps = detachMap(s.Stamps, own, func(t time.Time) time.Time { return t })
	c.FDay = clonePtr(s.FDay)
	c.DeletedAt = clonePtr(s.DeletedAt)
	return &c
}

// stringBytes is the length of every string Detached copies.
func (s *State) stringBytes() int {
	n := 0
	value := func(k string, v Value) { n += len(k) + len(v.Raw) }
	for k, v := range s.Scalars {
		value(k, v)
	}
	for k, v := range s.Structs {
		n += len(k)
		if v.Text != nil {
			n += len(*v.Text)
		}
		for a, t := range v.Attrs {
			n += len(a) + len(t)
		}
	}
	for k, items := range s.Groups {
		n += len(k)
		for _, it := range items {
			for f, v := range it.Fields {
				value(f, v)
			}
		}
	}
	for k, p := range s.Payloads {
		n += len(k) + len(p.Format) + len(p.Content)
	}
	for k := range s.Stamps {
		n += len(k)
	}
	return n
}

// detachMap copies m, its keys through own and its values through value; a
// nil map stays nil.
func detachMap[V any](m map[string]V, own func(string) string, value func(V) V) map[string]V {
	if m == nil {
		return nil
	}
	out := make(map[string]V, len(m))
	for k, v := range m {
		out[own(k)] = value(v)
	}
	return out
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
