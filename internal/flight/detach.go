package flight

import (
	"reflect"
	"strings"
)

// Detach makes s keep no message alive. A state computed from a decoded
// message holds substrings of the message's XML (its raw values and
// verbatim payloads), so keeping it keeps the whole message alive: the pump
// caches the states a large message wrote (a download of thousands of
// flights) detached.
//
// base is the state s was computed from, or nil; it must keep no large
// message alive itself (a detached state, one read from the store, or one
// of a small message). A map s shares with base is left alone; in the
// others, a value equal to base's under the same name becomes base's, and
// every other string is replaced by a copy, all copies in one buffer.
//
// Detach writes into s's maps, the one exception to a state's maps never
// being written once computed, and a harmless one: every value keeps its
// content, so whoever else holds those maps (the states computed on the way
// to s) sees the same state; only the memory behind the strings changes.
// Names (the maps' keys: the schema's strings), stamps and the parsed forms
// of values hold nothing of a message and are left as they are.
func (s *State) Detach(base *State) {
	if base == nil {
		base = &State{}
	}
	d := detacher{base: base}
	d.buf.Grow(d.size(s)) // one buffer for every string copied
	if !sameMap(s.Scalars, base.Scalars) {
		for k, v := range s.Scalars {
			if d.keepScalar(k, v) {
				s.Scalars[k] = base.Scalars[k]
			} else {
				s.Scalars[k] = d.value(v)
			}
		}
	}
	if !sameMap(s.Groups, base.Groups) {
		for k, items := range s.Groups {
			if d.keepList(k, items) {
				continue // base's very list
			}
			for _, it := range items {
				for f, v := range it.Fields {
					it.Fields[f] = d.value(v)
				}
			}
		}
	}
	if !sameMap(s.Structs, base.Structs) {
		for k, v := range s.Structs {
			if v.Text != nil {
				t := d.own(*v.Text)
				v.Text = &t
			}
			for a, x := range v.Attrs {
				v.Attrs[a] = d.own(x)
			}
			s.Structs[k] = v
		}
	}
	if !sameMap(s.Payloads, base.Payloads) {
		for k, p := range s.Payloads {
			if d.keepPayload(k, p) {
				s.Payloads[k] = base.Payloads[k]
			} else {
				s.Payloads[k] = Payload{Format: p.Format, Content: d.own(p.Content)}
			}
		}
	}
}

// detacher copies the strings of one state into one buffer, taking from
// base what the state holds equal to it.
type detacher struct {
	base *State
	buf  strings.Builder
}

// The parts of a state taken from base: a value or payload equal to base's
// under the same name, a group list that is base's very list (a list is
// never changed once in a state: the same array is the same items).
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

// size is the length of the strings Detach copies out of s.
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

// sameMap: a and b are the same map (not merely equal ones).
func sameMap[V any](a, b map[string]V) bool {
	return a != nil && reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}
