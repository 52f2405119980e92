package flight

import (
	"reflect"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// detachedFlight is fullFlight with a structure (attributes and text) and a
// verbatim payload: every kind of string a state takes from its message.
func detachedFlight(t *testing.T) *State {
	t.Helper()
	cur := fullFlight(t)
	cur = apply(t, cur, decodeFLOP(t, "FDIV", `<FDIV DDES="HKG" DDIR="TO">weather</FDIV>`), 2).Next
	cur = apply(t, cur, decodeFLOP(t, "SRVT", `<SRVT><SRTC>ATN</SRTC><SRQT>2</SRQT></SRVT>`), 3).Next
	require.NotEmpty(t, cur.Structs["FDIV"].Attrs)
	require.NotEmpty(t, cur.Payloads["SRVT"].Content)
	return cur
}

// stringsOf calls fn with every string a state holds, keys included.
func stringsOf(s *State, fn func(string)) {
	value := func(k string, v Value) { fn(k); fn(v.Raw) }
	for k, v := range s.Scalars {
		value(k, v)
	}
	for k, v := range s.Structs {
		fn(k)
		if v.Text != nil {
			fn(*v.Text)
		}
		for a, x := range v.Attrs {
			fn(a)
			fn(x)
		}
	}
	for k, items := range s.Groups {
		fn(k)
		for _, it := range items {
			for f, v := range it.Fields {
				value(f, v)
			}
		}
	}
	for k, p := range s.Payloads {
		fn(k)
		fn(p.Format)
		fn(p.Content)
	}
	for k := range s.Stamps {
		fn(k)
	}
}

// A detached copy is the same state (same event payload, same fields) and
// shares no string with the original's messages: none of its strings
// points into the memory of any string of the original that came from a
// message.
func TestDetachedSharesNoMemoryWithItsMessages(t *testing.T) {
	cur := detachedFlight(t)
	want, err := EventPayload(cur)
	require.NoError(t, err)

	c := cur.Detached()
	got, err := EventPayload(c)
	require.NoError(t, err)
	require.JSONEq(t, string(want), string(got))
	bare := *cur
	bare.groupsJSON = nil
	require.True(t, reflect.DeepEqual(&bare, c), "the same state, field by field")

	type span struct{ from, to uintptr }
	var orig []span
	stringsOf(cur, func(s string) {
		if s != "" {
			p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
			orig = append(orig, span{p, p + uintptr(len(s))})
		}
	})
	n := 0
	stringsOf(c, func(s string) {
		if s == "" {
			return
		}
		n++
		p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		for _, o := range orig {
			require.False(t, p < o.to && o.from < p+uintptr(len(s)), "%q shares memory with the original", s)
		}
	})
	require.Greater(t, n, 40)

	// Pointers too: changing the copy's values leaves the original alone.
	*c.Scalars["SODT"].Time = c.Scalars["SODT"].Time.AddDate(1, 0, 0)
	*c.Groups[GroupGates][0].SourceSeq = 99
	c.Groups[GroupGates][0].Fields["GATE"] = Value{Raw: "Z"}
	c.Scalars["STND"] = Value{Raw: "X"}
	after, err := EventPayload(cur)
	require.NoError(t, err)
	require.Equal(t, string(want), string(after))
}

func TestDetachedOfNilAndEmpty(t *testing.T) {
	require.Nil(t, (*State)(nil).Detached())
	s := &State{FLID: 3, Lifecycle: Active}
	require.Equal(t, s, s.Detached())
}
