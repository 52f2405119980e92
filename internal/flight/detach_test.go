package flight

import (
	"encoding/json"
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

// A detached state is the same state (same event payload, same fields)
// and keeps none of its messages' value strings.
func TestDetachKeepsNoMessageMemory(t *testing.T) {
	cur := detachedFlight(t)
	want, err := EventPayload(cur)
	require.NoError(t, err)
	var values []string
	valuesOf(cur, func(s string) { values = append(values, s) })
	require.Greater(t, len(values), 30)
	before, err := json.Marshal(cur) // every exported field, through encoding/json
	require.NoError(t, err)

	cur.Detach(nil)
	got, err := EventPayload(cur)
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))
	after, err := json.Marshal(cur)
	require.NoError(t, err)
	require.Equal(t, string(before), string(after), "the same state, field by field")
	requireNoOverlap(t, cur, values)
}

// A state computed from a detached one is detached by copying only what
// its message changed: the lists, maps and values it kept are the base's,
// the new ones keep nothing of the message, and the base is left alone.
func TestDetachKeepsWhatItSharesWithItsBase(t *testing.T) {
	base := detachedFlight(t)
	base.Detach(nil)
	baseJSON, err := EventPayload(base)
	require.NoError(t, err)
	rec := decodeFLOP(t, "GTDT", `<GTDT GTNO="1"><GATE>B7</GATE></GTDT>`)
	rec.Scalars.Set(sis.STND, set("999"))
	next := apply(t, base, rec, 9).Next
	want, err := EventPayload(next)
	require.NoError(t, err)
	fromMessage := []string{next.Scalars["STND"].Raw, next.Groups[GroupGates][0].Fields["GATE"].Raw}

	next.Detach(base)
	got, err := EventPayload(next)
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))
	require.Same(t, &base.Groups[GroupCheckins][0], &next.Groups[GroupCheckins][0], "an unchanged list is the base's")
	require.Same(t, unsafe.StringData(base.Scalars["FLNO"].Raw), unsafe.StringData(next.Scalars["FLNO"].Raw), "an unchanged value is the base's")
	require.True(t, sameMap(base.Payloads, next.Payloads), "an unchanged map is the base's")
	requireNoOverlap(t, &State{Scalars: map[string]Value{"STND": next.Scalars["STND"]}, Groups: map[string][]Item{GroupGates: next.Groups[GroupGates]}}, fromMessage)
	after, err := EventPayload(base)
	require.NoError(t, err)
	require.Equal(t, string(baseJSON), string(after))
}

func TestDetachOfAnEmptyState(t *testing.T) {
	s := &State{FLID: 3, Lifecycle: Active}
	s.Detach(nil)
	require.Equal(t, &State{FLID: 3, Lifecycle: Active}, s)
}
