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
	b := make([]byte, 0, 2048+36*len(s.Stamps))
	b = append(b, `{"flid":`...)
	b = strconv.AppendInt(b, s.FLID, 10)
	var err error
	b = append(b, `,"scalars":`...)
	if b, err = appendMap(b, s.Scalars, appendValue); err != nil {
		return nil, err
	}
	b = append(b, `,"structs":`...)
	if b, err = appendMap(b, s.Structs, appendStruct); err != nil {
		return nil, err
	}
	b = append(b, `,"groups":`...)
	if b, err = appendMap(b, s.Groups, appendItems); err != nil {
		return nil, err
	}
	b = append(b, `,"payloads":`...)
	if b, err = appendMap(b, s.Payloads, func(b []byte, p Payload) ([]byte, error) {
		b = append(b, `{"format":`...)
		b = jsonstr.Append(b, p.Format)
		b = append(b, `,"content":`...)
		return append(jsonstr.Append(b, p.Content), '}'), nil
	}); err != nil {
		return nil, err
	}
	if len(s.Stamps) > 0 {
		b = append(b, `,"stamps":`...)
		if b, err = appendMap(b, s.Stamps, appendTime); err != nil {
			return nil, err
		}
	}
	b = append(b, `,"operation_day":`...)
	if b, err = appendTime(b, s.OperationDay); err != nil {
		return nil, err
	}
	if s.FDay != nil {
		b = append(b, `,"fday":`...)
		if b, err = appendTime(b, *s.FDay); err != nil {
			return nil, err
		}
	}
	b = append(b, `,"lifecycle":`...)
	b = jsonstr.Append(b, s.Lifecycle)
	if s.DeletedAt != nil {
		b = append(b, `,"deleted_at":`...)
		if b, err = appendTime(b, *s.DeletedAt); err != nil {
			return nil, err
		}
	}
	b = append(b, `,"state_version":`...)
	b = strconv.AppendInt(b, s.StateVersion, 10)
	b = append(b, `,"last_message_id":`...)
	b = strconv.AppendInt(b, s.LastMessageID, 10)
	b = append(b, `,"created_at":`...)
	if b, err = appendTime(b, s.CreatedAt); err != nil {
		return nil, err
	}
	b = append(b, `,"updated_at":`...)
	if b, err = appendTime(b, s.UpdatedAt); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
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
	for i := 1; i < n; i++ { // insertion sort: a handful of keys
		for j := i; j > 0 && keys[order[j]] < keys[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
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
