package flight

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The hand-written Value.MarshalJSON writes exactly what encoding/json writes
// for the plain struct with Time in UTC (the former implementation), also
// when embedded in a state, where encoding/json re-checks marshaler output.
func TestValueMarshalJSONMatchesEncodingJSON(t *testing.T) {
	type plain struct {
		Raw     string     `json:"raw"`
		Time    *time.Time `json:"time,omitempty"`
		Minutes *int32     `json:"minutes,omitempty"`
		Days    *int32     `json:"days,omitempty"`
	}
	var raws []string
	for c := range 0x80 {
		raws = append(raws, "a"+string(rune(c))+"b")
	}
	raws = append(raws, "", "02DEC261040", `<A&B> "q" \ /`, "é漢字😀", "\u2028x\u2029", "bad\xffutf8\xc3", "\x00\x1f\x7f")
	shanghai := time.FixedZone("CST", 8*3600)
	at := time.Date(2026, 12, 2, 10, 40, 0, 0, shanghai)
	nanos := time.Date(2026, 1, 2, 3, 4, 5, 123450000, time.UTC)
	min, days := int32(-90), int32(1)
	var values []Value
	for _, r := range raws {
		values = append(values, Value{Raw: r})
	}
	values = append(values,
		Value{Raw: "x", Time: &at}, Value{Raw: "x", Time: &nanos, Minutes: &min, Days: &days},
		Value{Raw: "x", Minutes: &min}, Value{Raw: "x", Days: &days})
	for _, v := range values {
		p := plain(v)
		if p.Time != nil {
			u := p.Time.UTC()
			p.Time = &u
		}
		want, err := json.Marshal(p)
		require.NoError(t, err)
		got, err := json.Marshal(v)
		require.NoError(t, err)
		require.Equal(t, string(want), string(got), "%q", v.Raw)
		direct, err := v.MarshalJSON()
		require.NoError(t, err)
		require.Equal(t, string(want), string(direct))
	}
	far := time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	_, err := json.Marshal(Value{Raw: "x", Time: &far})
	require.Error(t, err, "a time encoding/json refuses is refused too")
}

// EventPayload writes exactly what json.Marshal writes for the state.
func TestEventPayloadMatchesEncodingJSON(t *testing.T) {
	shanghai := time.FixedZone("CST", 8*3600)
	at := time.Date(2026, 12, 2, 10, 40, 0, 123000, shanghai)
	day := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	seq, min := int64(5), int32(90)
	text := `<b>&"x"`
	full := &State{
		FLID: 42,
		Scalars: map[string]Value{
			"STND": {Raw: "201"}, "ESTT": {Raw: "02DEC261040", Time: &at}, "SCHT": {Raw: "0130", Minutes: &min},
			"REMC": {Raw: "a\u2028b<>&\x01é"}, "": {Raw: ""},
		},
		Structs: map[string]Struct{
			"FDIV": {Text: &text, Attrs: map[string]string{"DDIR": "TO", "DDES": "PEK<"}},
			"FRET": {Text: &text}, "FLAB": {Attrs: map[string]string{"ARES": "O"}}, "X": {}, "Y": {Attrs: map[string]string{}},
		},
		Groups: map[string][]Item{
			GroupGates:  {{SourceSeq: &seq, Fields: map[string]Value{"GATE": {Raw: "A1"}, "PGOT": {Raw: "02DEC260800", Time: &at}}}, {Fields: map[string]Value{}}},
			GroupDelays: {{Fields: nil}},
			GroupRoute:  {},
			GroupChutes: nil,
			"ZZZZ":      {{Fields: map[string]Value{"GATE": {Raw: "not a known group"}}}}, // written the general way
		},
		Payloads:     map[string]Payload{"SRVT": {Format: "xml", Content: "<SRVT a=\"1\">&amp;</SRVT>"}, "VIPF": {Format: "json", Content: `{"a":[1,2]}`}},
		Stamps:       Stamps{"STND": at, StampLifecycle: at.UTC(), StampDefault: day},
		OperationDay: day, FDay: &day, Lifecycle: Deleted, DeletedAt: &at,
		StateVersion: 7, LastMessageID: 123456789, CreatedAt: at.In(time.UTC), UpdatedAt: at,
	}
	// More keys than appendMap sorts on the stack.
	wide := map[string]Value{}
	for i := range 20 {
		wide[string(rune('Z'-i))+"K"] = Value{Raw: strconv.Itoa(i)}
	}
	stamps := Stamps{}
	for k := range wide {
		stamps[k] = day.Add(time.Duration(len(stamps)) * time.Second)
	}
	many := &State{FLID: 2, Scalars: wide, Groups: map[string][]Item{GroupRoute: {{Fields: wide}}}, Stamps: stamps}
	for _, s := range []*State{full, fullFlight(t), many, {}, {FLID: 1, Scalars: map[string]Value{}, Structs: map[string]Struct{}, Groups: map[string][]Item{}, Payloads: map[string]Payload{}}} {
		want, err := json.Marshal(s)
		require.NoError(t, err)
		got, err := EventPayload(s)
		require.NoError(t, err)
		require.Equal(t, string(want), string(got))
		for range 2 { // the lists written, then the lists kept
			got, err = ChangePayload(s, nil)
			require.NoError(t, err)
			require.Equal(t, string(want), string(got))
		}
	}
	far := time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	_, err := EventPayload(&State{UpdatedAt: far})
	require.Error(t, err)
	_, err = EventPayload(&State{Stamps: Stamps{"STND": far}})
	require.Error(t, err, "a stamp encoding/json refuses is refused too")
	odd := time.Date(2026, 12, 2, 0, 0, 0, 0, time.FixedZone("", 24*3600))
	_, err = EventPayload(&State{CreatedAt: odd})
	require.Error(t, err, "an offset of a day, which encoding/json refuses, is refused too")
	// A value that fails inside a group item fails the payload, named as
	// the general way names it.
	failing := &State{Groups: map[string][]Item{GroupGates: {{Fields: map[string]Value{"GOTM": {Raw: "far", Time: &far}}}}}}
	_, err = EventPayload(failing)
	require.ErrorContains(t, err, `value "far"`)
	_, err = ChangePayload(failing, nil)
	require.ErrorContains(t, err, `value "far"`)
	require.Nil(t, failing.groupsJSON, "a failed payload keeps nothing")
}

// ChangePayload reuses the JSON of the lists a change left alone and never
// serves a list's JSON for another: after every change, whatever the
// states before it kept, its payload is EventPayload's and json.Marshal's.
func TestChangePayloadNeverServesAReplacedList(t *testing.T) {
	marshal := func(s *State) string {
		t.Helper()
		want, err := json.Marshal(s)
		require.NoError(t, err)
		direct, err := EventPayload(s)
		require.NoError(t, err)
		require.Equal(t, string(want), string(direct))
		got, err := ChangePayload(s, nil)
		require.NoError(t, err)
		require.Equal(t, string(want), string(got))
		return string(got)
	}
	next := func(cur *State, styp, inner string) *State {
		t.Helper()
		r, err := Next(cur, decodeFLOP(t, styp, inner), false, cur.LastMessageID+1, now, Sent{})
		require.NoError(t, err)
		require.True(t, r.Changed)
		return r.Next
	}
	gatesOf := func(codes ...string) string {
		var sb strings.Builder
		for i, c := range codes {
			fmt.Fprintf(&sb, `<GTDT GTNO="%d"><GATE>%s</GATE></GTDT>`, i+1, c)
		}
		return sb.String()
	}

	s0 := fullFlight(t)
	p0 := marshal(s0)
	require.Contains(t, p0, `"GATE":{"raw":"A3"}`)

	// A change of one group shows in the next payload; a scalar change
	// keeps every list's JSON (the kept entries are the same).
	s1 := next(s0, "GTDT", gatesOf("B1", "B2"))
	p1 := marshal(s1)
	require.Contains(t, p1, `"GATE":{"raw":"B2"}`)
	require.NotContains(t, p1, `"GATE":{"raw":"A1"}`)
	s2 := next(s1, "STND", "<STND>301</STND>")
	require.Contains(t, marshal(s2), `"GATE":{"raw":"B2"}`)
	require.Equal(t, len(s1.groupsJSON), len(s2.groupsJSON))
	require.Same(t, &s1.groupsJSON[0], &s2.groupsJSON[0], "a change of no group keeps the JSON kept before")

	// A flight changed twice in one batch: the second change builds on the
	// first's state, the second message replaces the same group again.
	s3 := next(s2, "GTDT", gatesOf("C1"))
	require.Contains(t, marshal(s3), `"GATE":{"raw":"C1"}`)
	s4 := next(s3, "GTDT", gatesOf("D1", "D2", "D3"))
	p4 := marshal(s4)
	require.Contains(t, p4, `"GATE":{"raw":"D3"}`)
	require.NotContains(t, p4, `"GATE":{"raw":"C1"}`)

	// A state computed without a payload in between (the records of one
	// message before its last): the list it replaced is not the kept one.
	s5 := next(s4, "CKDT", `<CKDT CKNO="1"><CHKC>555</CHKC></CKDT>`)
	s6 := next(s5, "REMC", "<REMC>after</REMC>")
	p6 := marshal(s6)
	require.Contains(t, p6, `"CHKC":{"raw":"555"}`)
	require.NotContains(t, p6, `"CHKC":{"raw":"101"}`)

	// Lists changed by hand on a copy that shares the kept JSON: the same
	// array shorter, another array of the same length, a list removed, a
	// list added under a new name (the identity, not the name, decides).
	gates := s4.Groups[GroupGates]
	c := *s4
	c.Groups = cloneMap(s4.Groups)
	c.Groups[GroupGates] = gates[:2]
	require.NotContains(t, marshal(&c), `"GATE":{"raw":"D3"}`)
	c.Groups[GroupGates] = []Item{{Fields: map[string]Value{"GATE": {Raw: "E1"}}}, gates[1], gates[2]}
	require.Contains(t, marshal(&c), `"GATE":{"raw":"E1"}`)
	delete(c.Groups, GroupGates)
	require.NotContains(t, marshal(&c), `"GTDT"`)
	c.Groups["ZZZZ"] = gates
	require.Contains(t, marshal(&c), `"ZZZZ":[{"source_seq":1,"fields":{"GATE":{"raw":"D1"}}}`)
	c.Groups[GroupRoute], c.Groups[GroupDelays] = []Item{}, nil
	marshal(&c)

	// What the later states kept never changes the earlier ones' payloads.
	require.Equal(t, p0, marshal(s0))
	require.Equal(t, p1, marshal(s1))
	require.Equal(t, p4, marshal(s4))
}

// A change's payload buffer is sized by the payload of the state it was
// computed from, not for a full flight: the pump builds one per changed
// flight, and a FLOP's flight is rarely the size the default assumes.
func TestChangePayloadSizedByTheStateBefore(t *testing.T) {
	s0 := fullFlight(t)
	p0, err := ChangePayload(s0, nil)
	require.NoError(t, err)
	require.Equal(t, payloadCap(&State{}, false), cap(p0), "the first: room for a full flight")
	r, err := Next(s0, decodeFLOP(t, "STND", "<STND>301</STND>"), false, s0.LastMessageID+1, now, Sent{})
	require.NoError(t, err)
	p1, err := ChangePayload(r.Next, nil)
	require.NoError(t, err)
	require.Equal(t, len(p0)+256, cap(p1), "the next: the payload before and room for the change")
	require.Equal(t, len(p1), r.Next.payloadLen)
	b, err := EventPayload(r.Next)
	require.NoError(t, err)
	require.Equal(t, string(b), string(p1))
}

// ChangePayload writes into the buffer it is given when the buffer has the
// room it wants (apply's arena), else into an array of its own; the bytes
// are the same.
func TestChangePayloadWritesIntoItsBuffer(t *testing.T) {
	s := fullFlight(t)
	want, err := EventPayload(s)
	require.NoError(t, err)
	roomy := make([]byte, 3, ChangePayloadRoom(s))
	got, err := ChangePayload(s, roomy)
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))
	require.Same(t, &roomy[:1][0], &got[0], "written from the buffer's start")
	small := make([]byte, 0, ChangePayloadRoom(s)-1)
	got, err = ChangePayload(s, small)
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))
	require.NotSame(t, &small[:1][0], &got[0], "a buffer without the room is left alone")
}
