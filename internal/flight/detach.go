package flight

import (
	"reflect"
	"strings"
)

// Detached returns a copy of s that keeps no message alive. A state
// computed from a decoded message holds substrings of the message's XML
// (its raw values and verbatim payloads), so keeping it keeps the whole
// message alive: the pump caches the states a large message wrote (a
// download of thousands of flights) as detached copies.
//
// base is the state s was computed from, or nil; it must keep no large
// message alive itself (a detached copy, a state read from the store, or
// one of a small message). What s shares with base, or holds equal to it,
// is taken from base, so the copy of a resend that changed a value or two
// costs those values; the rest is copied, every string into one buffer.
// Names (the maps' keys: the schema's strings), stamps and the parsed forms
// of values hold nothing of a message and are shared.
func (s *State) Detached(base *State) *State {
	if s == nil {
		return nil
	}
	if base == nil {
		base = &State{}
	}
	d := detacher{base: base}
	d.buf.Grow(d.size(s)) // one buffer for every string copied
	c := *s
	c.groupsJSON = nil // keyed by the lists' arrays, which the copy may not share
	c.Scalars = detachMap(s.Scalars, base.Scalars, func(k string, v Value) Value {
		if d.keepScalar(k, v) {
			return base.Scalars[k]
		}
		return d.value(v)
	})
	c.Groups = detachMap(s.Groups, base.Groups, func(k string, items []Item) []Item {
		if d.keepList(k, items) {
			return base.Groups[k]
		}
		out := make([]Item, len(items))
		for i, it := range items {
			out[i] = Item{SourceSeq: it.SourceSeq, Fields: detachMap(it.Fields, nil, func(_ string, v Value) Value { return d.value(v) })}
		}
		return out
	})
	c.Structs = detachMap(s.Structs, base.Structs, func(_ string, v Struct) Struct {
		if v.Text != nil {
			t := d.own(*v.Text)
			v.Text = &t
		}
		v.Attrs = detachMap(v.Attrs, nil, func(_ string, a string) string { return d.own(a) })
		return v
	})
	c.Payloads = detachMap(s.Payloads, base.Payloads, func(k string, p Payload) Payload {
		if d.keepPayload(k, p) {
			return base.Payloads[k]
		}
		return Payload{Format: p.Format, Content: d.own(p.Content)}
	})
	return &c
}

// detacher copies the strings of one state into one buffer, taking from
// base what the state holds equal to it.
type detacher struct {
	base *State
	buf  strings.Builder
}

// The parts of a state taken from base: a value or payload equal to base's
// under the same name, a group list that is base's very list (a list is
// never changed once in a state: the same array is the same items). A map
// that is base's map is shared whole (detachMap).
func (d *detacher) keepScalar(k string, v Value) bool {
	old, had := d.base.Scalars[k]
	return had && old == v
}

func (d *detacher) keepList(k string, items []Item) bool {
	old, had := d.base.Groups[k]
	return had && len(old) == len(items) && (len(items) == 0 || &old[0] == &items[0])
}

func (d *detacher) keepPayload(k string, p Payload) bool {
	old, had := d.base.Payloads[k]
	return had && old == p
}

// size is the length of the strings Detached copies out of s.
func (d *detacher) size(s *State) int {
	n := 0
	if !sameMap(s.Scalars, d.base.Scalars) {
		for k, v := range s.Scalars {
			if !d.keepScalar(k, v) {
				n += len(v.Raw)
			}
		}
	}
	if !sameMap(s.Groups, d.base.Groups) {
		for k, items := range s.Groups {
			if !d.keepList(k, items) {
				for _, it := range items {
					for _, v := range it.Fields {
						n += len(v.Raw)
					}
				}
			}
		}
	}
	if !sameMap(s.Structs, d.base.Structs) {
		for _, v := range s.Structs {
			if v.Text != nil {
				n += len(*v.Text)
			}
			for _, a := range v.Attrs {
				n += len(a)
			}
		}
	}
	if !sameMap(s.Payloads, d.base.Payloads) {
		for k, p := range s.Payloads {
			if !d.keepPayload(k, p) {
				n += len(p.Content)
			}
		}
	}
	return n
}

// own copies v into the buffer. The builder only appends: what String
// returned stays as it was (and size made room for every copy).
func (d *detacher) own(v string) string {
	if v == "" {
		return ""
	}
	start := d.buf.Len()
	d.buf.WriteString(v)
	return d.buf.String()[start:]
}

func (d *detacher) value(v Value) Value {
	v.Raw = d.own(v.Raw)
	return v
}

// detachMap is m itself when it is base's map, else a copy of m whose
// values go through value; a nil map stays nil.
func detachMap[V any](m, base map[string]V, value func(k string, v V) V) map[string]V {
	if m == nil || sameMap(m, base) {
		return m
	}
	out := make(map[string]V, len(m))
	for k, v := range m {
		out[k] = value(k, v)
	}
	return out
}

// sameMap: a and b are the same map (not merely equal ones).
func sameMap[V any](a, b map[string]V) bool {
	return a != nil && reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}
