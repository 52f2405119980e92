package flight

import (
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/msgx-aodb/msgx/internal/jsonstr"
)

// EventPayload is the JSON of the full state, the payload of UPSERT events
// and of the read API: every scalar raw + parsed, every group in order.
// Built from the same computed state that is written (rule 7).
//
// It is written by hand, byte for byte what json.Marshal(s) writes (see
// TestEventPayloadMatchesEncodingJSON): the pump encodes one payload per
// changed flight, and reflection over the maps of a state was most of the
// CPU of a batch.
func EventPayload(s *State) ([]byte, error) {
	b, _, err := appendPayload(make([]byte, 0, payloadCap(s, false)), s, false)
	return b, err
}

// ChangePayload is EventPayload for the state a change computed, written
// by the one goroutine that owns s (the pump, before it shares the state):
// it keeps on s the JSON of s's group lists, and reuses the JSON kept on
// the state s was computed from for every list the change left alone.
//
// A FLOP replaces one group at most, and the next state shares the other
// lists (flight.Next copies the map, not the lists, and never writes into
// an item): writing each item's fields was most of the payload's work, a
// map iterated per item, the items scattered over the heap when the pump
// goes from flight to flight. A kept list is recognised by identity (its
// first item's address and its length; the kept entry holds that item, so
// the address is never reused meanwhile), never by name: a list a change
// replaced is encoded anew. The bytes are EventPayload's.
//
// The payload is written into buf (from its start) when buf has room for
// ChangePayloadRoom(s) bytes, else into a new array of that size; it
// outgrows buf into a new array only when larger (the caller, apply's
// payload arena, then keeps nothing of buf). buf may be nil.
func ChangePayload(s *State, buf []byte) ([]byte, error) {
	room := payloadCap(s, true)
	if cap(buf) < room {
		buf = make([]byte, 0, room)
	}
	b, kept, err := appendPayload(buf[:0], s, true)
	if err != nil {
		return nil, err
	}
	s.groupsJSON, s.payloadLen = kept, len(b)
	return b, nil
}

// ChangePayloadRoom is the room ChangePayload wants for the payload of s.
func ChangePayloadRoom(s *State) int { return payloadCap(s, true) }

// payloadCap is the capacity of a payload's buffer: with keep, the length
// of the payload of the state s was computed from and room for what a
// change adds (a FLOP changes a few values or one list); else, or before
// the first, room for a full flight.
func payloadCap(s *State, keep bool) int {
	if keep && s.payloadLen > 0 {
		return s.payloadLen + 256
	}
	return 2048 + 36*len(s.Stamps)
}

// appendPayload appends the payload of s to b; with keep it reuses
// s.groupsJSON and returns the group lists' JSON to keep.
func appendPayload(b []byte, s *State, keep bool) ([]byte, groupsJSON, error) {
	b = append(b, `{"flid":`...)
	b = strconv.AppendInt(b, s.FLID, 10)
	var err error
	b = append(b, `,"scalars":`...)
	if b, err = appendMap(b, s.Scalars, appendValue); err != nil {
		return nil, nil, err
	}
	b = append(b, `,"structs":`...)
	if b, err = appendMap(b, s.Structs, appendStruct); err != nil {
		return nil, nil, err
	}
	b = append(b, `,"groups":`...)
	var kept groupsJSON
	if keep {
		b, kept, err = appendGroups(b, s.Groups, s.groupsJSON)
	} else {
		b, err = appendMap(b, s.Groups, appendItems)
	}
	if err != nil {
		return nil, nil, err
	}
	b = append(b, `,"payloads":`...)
	if b, err = appendMap(b, s.Payloads, func(b []byte, p Payload) ([]byte, error) {
		b = append(b, `{"format":`...)
		b = jsonstr.Append(b, p.Format)
		b = append(b, `,"content":`...)
		return append(jsonstr.Append(b, p.Content), '}'), nil
	}); err != nil {
		return nil, nil, err
	}
	if len(s.Stamps) > 0 {
		b = append(b, `,"stamps":`...)
		if b, err = appendMap(b, s.Stamps, appendTime); err != nil {
			return nil, nil, err
		}
	}
	b = append(b, `,"operation_day":`...)
	if b, err = appendTime(b, s.OperationDay); err != nil {
		return nil, nil, err
	}
	if s.FDay != nil {
		b = append(b, `,"fday":`...)
		if b, err = appendTime(b, *s.FDay); err != nil {
			return nil, nil, err
		}
	}
	b = append(b, `,"lifecycle":`...)
	b = jsonstr.Append(b, s.Lifecycle)
	if s.DeletedAt != nil {
		b = append(b, `,"deleted_at":`...)
		if b, err = appendTime(b, *s.DeletedAt); err != nil {
			return nil, nil, err
		}
	}
	b = append(b, `,"state_version":`...)
	b = strconv.AppendInt(b, s.StateVersion, 10)
	b = append(b, `,"last_message_id":`...)
	b = strconv.AppendInt(b, s.LastMessageID, 10)
	b = append(b, `,"created_at":`...)
	if b, err = appendTime(b, s.CreatedAt); err != nil {
		return nil, nil, err
	}
	b = append(b, `,"updated_at":`...)
	if b, err = appendTime(b, s.UpdatedAt); err != nil {
		return nil, nil, err
	}
	return append(b, '}'), kept, nil
}

// appendMap writes a map with sorted keys like encoding/json; nil is null.
//
// The keys and values of a map of up to 16 keys are copied into arrays on
// the stack and an index is sorted: indexed stores into a local array need
// no write barrier, while sorting a slice of strings pays one per swap
// whenever the collector runs (most of the time while the pump writes), and
// the value comes with the key instead of a second lookup.
func appendMap[V any](b []byte, m map[string]V, value func([]byte, V) ([]byte, error)) ([]byte, error) {
	if m == nil {
		return append(b, "null"...), nil
	}
	const small = 16
	if len(m) > small {
		return appendMapSorted(b, m, value)
	}
	var (
		keys  [small]string
		vals  [small]V
		order [small]uint8
	)
	n := 0
	for k, v := range m {
		keys[n], vals[n], order[n] = k, v, uint8(n)
		n++
	}
	sortOrder(order[:n], keys[:])
	b = append(b, '{')
	var err error
	for i, o := range order[:n] {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonstr.Append(b, keys[o])
		b = append(b, ':')
		if b, err = value(b, vals[o]); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendMapSorted is appendMap for a map of many keys.
func appendMapSorted[V any](b []byte, m map[string]V, value func([]byte, V) ([]byte, error)) ([]byte, error) {
	keys := slices.Sorted(maps.Keys(m))
	b = append(b, '{')
	var err error
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonstr.Append(b, k)
		b = append(b, ':')
		if b, err = value(b, m[k]); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

func appendStruct(b []byte, s Struct) ([]byte, error) {
	b = append(b, '{')
	if s.Text != nil {
		b = append(b, `"text":`...)
		b = jsonstr.Append(b, *s.Text)
	}
	if len(s.Attrs) > 0 {
		if s.Text != nil {
			b = append(b, ',')
		}
		b = append(b, `"attrs":`...)
		b, _ = appendMap(b, s.Attrs, func(b []byte, v string) ([]byte, error) { return jsonstr.Append(b, v), nil })
	}
	return append(b, '}'), nil
}

func appendItems(b []byte, items []Item) ([]byte, error) {
	if items == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	var err error
	for i, it := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '{')
		if it.SourceSeq != nil {
			b = append(b, `"source_seq":`...)
			b = strconv.AppendInt(b, *it.SourceSeq, 10)
			b = append(b, ',')
		}
		b = append(b, `"fields":`...)
		if b, err = appendMap(b, it.Fields, appendValue); err != nil {
			return nil, err
		}
		b = append(b, '}')
	}
	return append(b, ']'), nil
}

// groupsJSON is the JSON of a state's non-empty group lists (ChangePayload),
// in key order; shared by the states copied from it, never written once
// made.
type groupsJSON []groupJSON

// groupJSON is one list's JSON (`[...]`) and the list it encoded, by
// identity: a list is never changed once in a state (a change replaces
// it), and two lists with the same first item and length are the same
// items.
type groupJSON struct {
	first *Item // &list[0]: keeps the list's array, so no other list starts there
	n     int
	json  []byte
}

// of returns the JSON kept for the list items, nil when none: items is
// a list since replaced, or empty. The entries are in key order as the
// lists are written: the search starts at the hint, the entry after the
// last one found.
func (g groupsJSON) of(items []Item, hint int) (json []byte, next int) {
	if len(items) == 0 {
		return nil, hint
	}
	first := &items[0]
	for k := range g {
		i := (hint + k) % len(g)
		if g[i].first == first && g[i].n == len(items) {
			return g[i].json, i + 1
		}
	}
	return nil, hint
}

// sortOrder sorts order, indexes into keys, by key: an insertion sort, for
// a handful of keys, that moves only the indexes.
func sortOrder(order []uint8, keys []string) {
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && keys[order[j]] < keys[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
}

// appendGroups writes groups as appendMap(b, groups, appendItems) does,
// copying each list's JSON from kept where kept encoded that very list,
// and returns the JSON of the lists to keep now: kept itself when it was
// exactly theirs (a change of no group), else a new one. A map of more
// groups than it sorts on the stack (none the SIS sends) is written the
// general way and keeps nothing.
func appendGroups(b []byte, groups map[string][]Item, kept groupsJSON) ([]byte, groupsJSON, error) {
	const small = 16
	if groups == nil || len(groups) > small {
		b, err := appendMap(b, groups, appendItems)
		return b, nil, err
	}
	var (
		names [small]string
		lists [small][]Item
		order [small]uint8
		enc   [small][]byte // a list's JSON, kept or just written
		fresh [small]bool   // written here (a non-empty list not kept)
	)
	n := 0
	for k, v := range groups {
		names[n], lists[n], order[n] = k, v, uint8(n)
		n++
	}
	sortOrder(order[:n], names[:])
	b = append(b, '{')
	reused, size, entries, hint := 0, 0, 0, 0
	var err error
	for i, o := range order[:n] {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonstr.Append(b, names[o])
		b = append(b, ':')
		items := lists[o]
		if len(items) > 0 {
			entries++
		}
		var j []byte
		if j, hint = kept.of(items, hint); j != nil {
			b = append(b, j...)
			enc[o] = j
			reused++
			continue
		}
		start := len(b)
		if b, err = appendItems(b, items); err != nil {
			return nil, nil, err
		}
		if len(items) > 0 {
			enc[o], fresh[o] = b[start:], true
			size += len(b) - start
		}
	}
	b = append(b, '}')
	if reused == len(kept) && entries == reused {
		return b, kept, nil
	}
	// The lists written here are copied into one array of their own: the
	// payload goes to the store, and a state must not keep it whole.
	buf := make([]byte, 0, size)
	out := make(groupsJSON, 0, entries)
	for _, o := range order[:n] {
		items := lists[o]
		if len(items) == 0 {
			continue
		}
		j := enc[o]
		if fresh[o] {
			at := len(buf)
			buf = append(buf, j...)
			j = buf[at:len(buf):len(buf)]
		}
		out = append(out, groupJSON{first: &items[0], n: len(items), json: j})
	}
	return b, out, nil
}

// appendTime writes t as encoding/json does (RFC 3339 in t's own zone),
// without time.Time.MarshalJSON's allocation per call (a payload has four
// times and dozens of stamps): the same bytes for a time in years 0-9999,
// and MarshalJSON itself (its error) outside them or for an offset of a day
// or more.
func appendTime(b []byte, t time.Time) ([]byte, error) {
	if _, off := t.Zone(); t.Year() < 0 || t.Year() > 9999 || off <= -24*60*60 || off >= 24*60*60 {
		j, err := t.MarshalJSON()
		if err != nil {
			return nil, err
		}
		return append(b, j...), nil
	}
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"'), nil
}

func appendValue(b []byte, v Value) ([]byte, error) { return v.appendJSON(b) }
