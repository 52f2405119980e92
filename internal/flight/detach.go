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
	c := *s
	c.groupsJSON = nil // keyed by the lists' arrays, which the copy may not share
	var b strings.Builder
	own := func(v string) string {
		if v == "" {
			return ""
		}
		start := b.Len()
		b.WriteString(v)
		// The builder only appends: what String returned stays as it was,
		// also after the buffer grows.
		return b.String()[start:]
	}
	ownValue := func(v Value) Value {
		v.Raw = own(v.Raw)
		return v
	}
	c.Scalars = detachMap(s.Scalars, base.Scalars, func(v, old Value, had bool) Value {
		if had && v == old {
			return old
		}
		return ownValue(v)
	})
	c.Groups = detachMap(s.Groups, base.Groups, func(items, old []Item, had bool) []Item {
		if had && len(items) == len(old) && (len(items) == 0 || &items[0] == &old[0]) {
			return old // a list is never changed once in a state: the same array is the same items
		}
		out := make([]Item, len(items))
		for i, it := range items {
			out[i] = Item{SourceSeq: it.SourceSeq, Fields: detachMap(it.Fields, nil, func(v, _ Value, _ bool) Value { return ownValue(v) })}
		}
		return out
	})
	c.Structs = detachMap(s.Structs, base.Structs, func(v, _ Struct, _ bool) Struct {
		if v.Text != nil {
			t := own(*v.Text)
			v.Text = &t
		}
		v.Attrs = detachMap(v.Attrs, nil, func(a, _ string, _ bool) string { return own(a) })
		return v
	})
	c.Payloads = detachMap(s.Payloads, base.Payloads, func(p, old Payload, had bool) Payload {
		if had && p == old {
			return old
		}
		return Payload{Format: p.Format, Content: own(p.Content)}
	})
	return &c
}

// detachMap is m itself when it is base's map, else a copy of m whose
// values go through value (with base's value under the same key, if any);
// a nil map stays nil.
func detachMap[V any](m, base map[string]V, value func(v, old V, had bool) V) map[string]V {
	if m == nil || reflect.ValueOf(m).UnsafePointer() == reflect.ValueOf(base).UnsafePointer() {
		return m
	}
	out := make(map[string]V, len(m))
	for k, v := range m {
		old, had := base[k]
		out[k] = value(v, old, had)
	}
	return out
}
