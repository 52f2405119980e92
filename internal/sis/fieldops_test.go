package sis

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"
)

// Property tests for field operations (spec §5): random records whose
// every scalar is absent / set / empty / self-closing / blank, and every
// group absent / replaced (sequence numbers 0 included: data is data) /
// cleared by one empty element / cleared by one empty item with any
// sequence number, decode to exactly the operations that were written.

type scalarCase struct {
	state int // 0 absent, 1 set, 2 <X></X>, 3 <X/>, 4 blank
	raw   string
}

type groupCase struct {
	state int // 0 absent, 1 replace, 2 one empty element, 3 one empty item with a sequence number
	items []itemCase
}

type itemCase struct {
	seq    string
	fields []NamedField
}

var textAlphabet = []string{"A", "b", "7", " ", "&", "<", ">", "\"", "'", "登", "机", "-", "/"}

func randText(r *rand.Rand) string {
	var b strings.Builder
	b.WriteString("x")
	for i := r.Intn(6); i > 0; i-- {
		b.WriteString(textAlphabet[r.Intn(len(textAlphabet))])
	}
	return b.String()
}

func randValue(r *rand.Rand, spec fieldSpec) string {
	switch spec.typ {
	case TypeTime:
		tm := time.Date(2000+r.Intn(60), time.Month(1+r.Intn(12)), 1+r.Intn(28), r.Intn(24), r.Intn(60), 0, 0, time.UTC)
		s := FormatRecordTime(tm)
		if r.Intn(4) == 0 {
			s = s[:7] // date only
		}
		if r.Intn(3) == 0 {
			s = strings.ToLower(s)
		}
		return s
	case TypeDuration:
		return fmt.Sprintf("%02d%02d", r.Intn(100), r.Intn(60))
	case TypeDayOffset:
		return []string{"+1", "-1", "0", "+2"}[r.Intn(4)]
	case TypeEnum:
		return spec.enum[r.Intn(len(spec.enum))]
	}
	return randText(r)
}

func xmlText(s string) string {
	var b strings.Builder
	escapeXML(&b, s, false)
	return b.String()
}

func TestFieldOperationsProperty(t *testing.T) {
	r := rand.New(rand.NewSource(42))
	for iter := 0; iter < 400; iter++ {
		var body strings.Builder
		var scalars [numScalars]scalarCase
		var groups [numGroups]groupCase
		body.WriteString("<FLTR><FLID>9</FLID>")
		for id := range scalars {
			sc := scalarCase{state: r.Intn(5)}
			name := scalarSpecs[id].name
			switch sc.state {
			case 1:
				sc.raw = randValue(r, scalarSpecs[id])
				fmt.Fprintf(&body, "<%s>%s</%s>", name, xmlText(sc.raw), name)
			case 2:
				fmt.Fprintf(&body, "<%s></%s>", name, name)
			case 3:
				fmt.Fprintf(&body, "<%s/>", name)
			case 4:
				fmt.Fprintf(&body, "<%s> \n\t</%s>", name, name)
			}
			scalars[id] = sc
		}
		for g := range groups {
			spec := &groupSpecs[g]
			gc := groupCase{state: r.Intn(4)}
			if spec.seqAttr == "" && gc.state == 3 {
				gc.state = 2
			}
			switch gc.state {
			case 1:
				for k := r.Intn(5); k >= 0; k-- {
					it := itemCase{seq: fmt.Sprint(r.Intn(4))} // 0, duplicates and gaps on purpose
					for _, cs := range append(spec.children, spec.attrs...) {
						if r.Intn(3) > 0 {
							it.fields = append(it.fields, NamedField{cs.name, Field{Op: Set, Raw: randValue(r, cs)}})
						}
					}
					if len(it.fields) == 0 && spec.text {
						it.fields = append(it.fields, NamedField{"CODE", Field{Op: Set, Raw: "YY"}})
					}
					if len(it.fields) == 0 {
						it.fields = append(it.fields, NamedField{spec.children[0].name, Field{Op: Set, Raw: randValue(r, spec.children[0])}})
					}
					gc.items = append(gc.items, it)
					writeItem(&body, spec, it)
				}
			case 2:
				fmt.Fprintf(&body, "<%s></%s>", spec.name, spec.name)
			case 3:
				fmt.Fprintf(&body, `<%s %s="%d"/>`, spec.name, spec.seqAttr, r.Intn(3))
			}
			groups[g] = gc
		}
		body.WriteString("</FLTR>")
		raw := `<MSG><META><SNDR>AODB</SNDR><SEQN>5</SEQN><DTTM>20211212090311</DTTM><TYPE>SCHD</TYPE><STYP>UPD</STYP></META><SCHD>` +
			body.String() + `</SCHD></MSG>`
		m, err := Decode([]byte(raw), DefaultOptions())
		if err != nil {
			t.Fatalf("iteration %d: %v\n%s", iter, err, raw)
		}
		rec := m.Schedule.Flights[0]
		for id, sc := range scalars {
			got := rec.Scalars.Get(ScalarID(id))
			want := []Op{Unchanged, Set, Clear, Clear, Clear}[sc.state]
			if got.Op != want || (want == Set && got.Raw != sc.raw) {
				t.Fatalf("iteration %d %s: got %v %q, want %v %q", iter, ScalarID(id), got.Op, got.Raw, want, sc.raw)
			}
		}
		for g, gc := range groups {
			got := rec.Groups.Get(GroupID(g))
			switch gc.state {
			case 0:
				if got.Op != Unchanged || got.Items != nil {
					t.Fatalf("iteration %d %s: absent group is %v", iter, GroupID(g), got.Op)
				}
			case 2, 3:
				if got.Op != Replace || len(got.Items) != 0 || got.ClearMarker == nil {
					t.Fatalf("iteration %d %s: clear is %v with %d items", iter, GroupID(g), got.Op, len(got.Items))
				}
			case 1:
				if got.Op != Replace || len(got.Items) != len(gc.items) {
					t.Fatalf("iteration %d %s: %v with %d items, want %d", iter, GroupID(g), got.Op, len(got.Items), len(gc.items))
				}
				for k, want := range gc.items {
					it := got.Items[k]
					if it.Ordinal != k+1 || (groupSpecs[g].seqAttr != "" && it.SeqRaw != want.seq) {
						t.Fatalf("iteration %d %s[%d]: ordinal %d seq %q", iter, GroupID(g), k, it.Ordinal, it.SeqRaw)
					}
					for _, wf := range want.fields {
						if f := it.Get(wf.Name); f.Op != Set || f.Raw != wf.Raw {
							t.Fatalf("iteration %d %s[%d].%s: got %v %q want %q", iter, GroupID(g), k, wf.Name, f.Op, f.Raw, wf.Raw)
						}
					}
					if n := len(it.Fields) + len(it.Attrs); n != len(want.fields) {
						t.Fatalf("iteration %d %s[%d]: %d fields, want %d", iter, GroupID(g), k, n, len(want.fields))
					}
				}
			}
		}
	}
}

func writeItem(b *strings.Builder, spec *groupSpec, it itemCase) {
	b.WriteString("<" + spec.name)
	if spec.seqAttr != "" {
		fmt.Fprintf(b, ` %s = "%s"`, spec.seqAttr, it.seq)
	}
	for _, f := range it.fields {
		if _, ok := findSpec(spec.attrs, f.Name); ok {
			b.WriteString(" " + f.Name + `="`)
			escapeXML(b, f.Raw, true)
			b.WriteString(`"`)
		}
	}
	b.WriteString(">")
	for _, f := range it.fields {
		if _, ok := findSpec(spec.children, f.Name); ok {
			fmt.Fprintf(b, "<%s>%s</%s>", f.Name, xmlText(f.Raw), f.Name)
		}
	}
	b.WriteString("</" + spec.name + ">")
}

// Two gates with the same GATE and GTNO stay two gates, in input order.
func TestGroupsNeverMerge(t *testing.T) {
	raw := `<MSG><META><SNDR>AODB</SNDR><SEQN>5</SEQN><DTTM>20211212090311</DTTM><TYPE>FLOP</TYPE><STYP>GTDT</STYP></META>
<FLOP><FLID>1</FLID>
<GTDT GTNO="2"><GATE>G1</GATE><GTYP>D</GTYP></GTDT>
<GTDT GTNO="2"><GATE>G1</GATE><GTYP>I</GTYP></GTDT>
<GTDT GTNO="9"><GATE>G1</GATE></GTDT>
</FLOP></MSG>`
	m, err := Decode([]byte(raw), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	items := m.FlightOps.Records[0].Groups.Get(GTDT).Items
	if len(items) != 3 || items[0].Get("GTYP").Raw != "D" || items[1].Get("GTYP").Raw != "I" || items[2].Seq != 9 {
		t.Fatalf("items %+v", items)
	}
}

// Struct ops: attributes only, text only, empty → Clear.
func TestStructOps(t *testing.T) {
	dec := func(inner string) StructOp {
		raw := `<MSG><META><SNDR>A</SNDR><SEQN>1</SEQN><DTTM>20211212090311</DTTM><TYPE>FLOP</TYPE><STYP>FDIV</STYP></META><FLOP><FLID>1</FLID>` + inner + `</FLOP></MSG>`
		m, err := Decode([]byte(raw), DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		return m.FlightOps.Records[0].Structs.Get(FDIV)
	}
	if s := dec(`<FDIV/>`); s.Op != Clear {
		t.Errorf("empty FDIV: %v", s.Op)
	}
	if s := dec(`<FDIV DDIR="from"/>`); s.Op != Set || s.Attr("DDIR").Raw != "from" || s.Text != "" {
		t.Errorf("attribute-only FDIV: %+v", s)
	}
	if s := dec(`<FDIV>fog</FDIV>`); s.Op != Set || s.Text != "fog" {
		t.Errorf("text-only FDIV: %+v", s)
	}
}
