package flight

import (
	"reflect"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/sis"
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

// valuesOf calls fn with every value string a state holds (not the names,
// which are the schema's).
func valuesOf(s *State, fn func(string)) {
	for _, v := range s.Scalars {
		fn(v.Raw)
	}
	for _, v := range s.Structs {
		if v.Text != nil {
			fn(*v.Text)
		}
		for _, x := range v.Attrs {
			fn(x)
		}
	}
	for _, items := range s.Groups {
		for _, it := range items {
			for _, v := range it.Fields {
				fn(v.Raw)
			}
		}
	}
	for _, p := range s.Payloads {
		fn(p.Content)
	}
}

type span struct{ from, to uintptr }

func spanOf(s string) span {
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	return span{p, p + uintptr(len(s))}
}

// requireNoOverlap fails when a value string of c lies in the memory of
// one of from's.
func requireNoOverlap(t *testing.T, c *State, from []string) {
	t.Helper()
	n := 0
	valuesOf(c, func(s string) {
		if s == "" {
			return
		}
		n++
		got := spanOf(s)
		for _, f := range from {
			if o := spanOf(f); f != "" && got.from < o.to && o.from < got.to {
				t.Fatalf("%q shares memory with %q", s, f)
			}
		}
	})
	require.Positive(t, n)
}

// A detached copy is the same state (same event payload, same fields) and
// shares no value string with its messages.
func TestDetachedSharesNoMemoryWithItsMessages(t *testing.T) {
	cur := detachedFlight(t)
	want, err := EventPayload(cur)
	require.NoError(t, err)

	c := cur.Detached(nil)
	got, err := EventPayload(c)
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))
	bare := *cur
	bare.groupsJSON = nil
	require.True(t, reflect.DeepEqual(&bare, c), "the same state, field by field")
	var values []string
	valuesOf(cur, func(s string) { values = append(values, s) })
	require.Greater(t, len(values), 30)
	requireNoOverlap(t, c, values)

	// Changing the copy's maps leaves the original alone.
	c.Groups[GroupGates][0].Fields["GATE"] = Value{Raw: "Z"}
	c.Scalars["STND"] = Value{Raw: "X"}
	after, err := EventPayload(cur)
	require.NoError(t, err)
	require.Equal(t, string(want), string(after))
}

// A state computed from a detached one is detached by copying only what
// its message changed: the lists and values it kept are the base's, the
// new ones share nothing with the message.
func TestDetachedKeepsWhatItSharesWithItsBase(t *testing.T) {
	base := detachedFlight(t).Detached(nil)
	rec := decodeFLOP(t, "GTDT", `<GTDT GTNO="1"><GATE>B7</GATE></GTDT>`)
	rec.Scalars.Set(sis.STND, set("999"))
	next := apply(t, base, rec, 9).Next
	want, err := EventPayload(next)
	require.NoError(t, err)

	c := next.Detached(base)
	got, err := EventPayload(c)
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))
	require.Same(t, &base.Groups[GroupCheckins][0], &c.Groups[GroupCheckins][0], "an unchanged list is the base's")
	require.Same(t, unsafe.StringData(base.Scalars["FLNO"].Raw), unsafe.StringData(c.Scalars["FLNO"].Raw), "an unchanged value is the base's")
	require.Equal(t, reflect.ValueOf(base.Payloads).UnsafePointer(), reflect.ValueOf(c.Payloads).UnsafePointer(), "an unchanged map is the base's")
	requireNoOverlap(t, &State{Scalars: map[string]Value{"STND": c.Scalars["STND"]}, Groups: map[string][]Item{GroupGates: c.Groups[GroupGates]}},
		[]string{next.Scalars["STND"].Raw, next.Groups[GroupGates][0].Fields["GATE"].Raw})
}

func TestDetachedOfNilAndEmpty(t *testing.T) {
	require.Nil(t, (*State)(nil).Detached(nil))
	s := &State{FLID: 3, Lifecycle: Active}
	require.Equal(t, s, s.Detached(nil))
}
