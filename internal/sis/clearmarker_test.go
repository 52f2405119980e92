package sis

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// The clear marker rule (docs/decode.md): a group or payload collection
// sent as exactly one element with no content at all, whatever its
// sequence number, is Replace(empty); an element that carries data is data,
// sequence number 0 included; an empty element next to others is PROTOCOL.

// decodeUPD decodes one SCHD UPD record made of FLID 1 and inner.
func decodeUPD(t *testing.T, inner string) (*FlightRecord, error) {
	t.Helper()
	raw := `<MSG><META><SNDR>AODB</SNDR><SEQN>5</SEQN><DTTM>20211212090311</DTTM><TYPE>SCHD</TYPE><STYP>UPD</STYP></META>` +
		`<SCHD><FLTR><FLID>1</FLID>` + inner + `</FLTR></SCHD></MSG>`
	m, err := Decode([]byte(raw), DefaultOptions())
	if err != nil {
		return nil, err
	}
	return m.Schedule.Flights[0], nil
}

// dataItem is one item of group g with sequence number seq (none when "")
// and its first text child (or, for DELY, its reason text) set to val.
func dataItem(g GroupID, seq, val string) string {
	spec := &groupSpecs[g]
	var b strings.Builder
	b.WriteString("<" + spec.name)
	if seq != "" {
		fmt.Fprintf(&b, ` %s="%s"`, spec.seqAttr, seq)
	}
	if spec.text {
		fmt.Fprintf(&b, ">%s</%s>", val, spec.name)
		return b.String()
	}
	c := textChild(g)
	fmt.Fprintf(&b, "><%s>%s</%s></%s>", c.name, val, c.name, spec.name)
	return b.String()
}

func textChild(g GroupID) fieldSpec {
	for _, c := range groupSpecs[g].children {
		if c.typ == TypeText {
			return c
		}
	}
	panic("no text child in " + g.String())
}

func TestSeqZeroWithDataIsData(t *testing.T) {
	for g := GroupID(0); g < numGroups; g++ {
		if g.SeqAttr() == "" {
			continue
		}
		t.Run(g.String(), func(t *testing.T) {
			rec, err := decodeUPD(t, dataItem(g, "0", "B02"))
			if err != nil {
				t.Fatal(err)
			}
			op := rec.Groups.Get(g)
			if op.Op != Replace || len(op.Items) != 1 || op.ClearMarker != nil {
				t.Fatalf("%s seq 0 with data: op %v, %d items, marker %v", g, op.Op, len(op.Items), op.ClearMarker)
			}
			it := op.Items[0]
			if !it.HasSeq || it.Seq != 0 || it.Get(textChild(g).name).Raw != "B02" {
				t.Fatalf("item %+v", it)
			}
		})
	}
}

func TestBridgeOpWithSeqZeroKeepsEveryField(t *testing.T) {
	rec, err := decodeUPD(t, `<ABTM ASNO="0"><ABDG>B02</ABDG><ABOP>A</ABOP><AOTM>12DEC211346</AOTM></ABTM>`)
	if err != nil {
		t.Fatal(err)
	}
	items := rec.Groups.Get(ABTM).Items
	if len(items) != 1 || items[0].Get("ABDG").Raw != "B02" || items[0].Get("ABOP").Raw != "A" || items[0].Get("AOTM").Op != Set {
		t.Fatalf("ABTM items %+v", items)
	}
}

func TestRouteSeqZeroThenOneDecodesBoth(t *testing.T) {
	for _, g := range []GroupID{ROUT, ERUT} {
		rec, err := decodeUPD(t, dataItem(g, "0", "PEK")+dataItem(g, "1", "SHA"))
		if err != nil {
			t.Fatalf("%s: %v", g, err)
		}
		items := rec.Groups.Get(g).Items
		if len(items) != 2 || items[0].Seq != 0 || items[0].Get("APCD").Raw != "PEK" ||
			items[1].Seq != 1 || items[1].Get("APCD").Raw != "SHA" || items[1].Ordinal != 2 {
			t.Fatalf("%s items %+v", g, items)
		}
	}
}

func TestLoneEmptyItemClears(t *testing.T) {
	for g := GroupID(0); g < numGroups; g++ {
		name, seq := g.String(), g.SeqAttr()
		forms := []string{"<" + name + "/>", "<" + name + "></" + name + ">", "<" + name + "> \n\t</" + name + ">"}
		if seq != "" {
			forms = append(forms,
				fmt.Sprintf(`<%s %s="0"/>`, name, seq),
				fmt.Sprintf(`<%s %s="7"></%s>`, name, seq, name))
		}
		for _, form := range forms {
			rec, err := decodeUPD(t, form)
			if err != nil {
				t.Fatalf("%s: %v", form, err)
			}
			op := rec.Groups.Get(g)
			if op.Op != Replace || len(op.Items) != 0 || op.ClearMarker == nil {
				t.Fatalf("%s: op %v, %d items, marker %v", form, op.Op, len(op.Items), op.ClearMarker)
			}
		}
	}
}

// An empty item among others is neither the clear marker (not alone) nor
// data (nothing to store): the message is refused, naming the item.
func TestEmptyItemAmongItemsIsProtocol(t *testing.T) {
	for g := GroupID(0); g < numGroups; g++ {
		name, seq := g.String(), g.SeqAttr()
		seqOf := func(s string) string {
			if seq == "" {
				return ""
			}
			return s
		}
		empties := []string{"<" + name + "/>"}
		if seq != "" {
			empties = append(empties, fmt.Sprintf(`<%s %s="0"/>`, name, seq), fmt.Sprintf(`<%s %s="2"></%s>`, name, seq, name))
		}
		for _, empty := range empties {
			for _, inner := range []string{empty + dataItem(g, seqOf("1"), "X"), dataItem(g, seqOf("1"), "X") + empty} {
				_, err := decodeUPD(t, inner)
				var se *Error
				if !errors.As(err, &se) || se.Class != ClassProtocol || !strings.Contains(se.Reason, "an empty <"+name+"> next to other items") {
					t.Fatalf("%s: %v", inner, err)
				}
			}
		}
	}
}

func TestPayloadClearMarker(t *testing.T) {
	psht := `<PSHT PSHN="0"><PSTM>12DEC211346</PSTM><PSID>IN</PSID></PSHT>`
	cases := []struct {
		inner  string
		count  int
		marker string // the clear marker, "" for data
	}{
		{psht, 1, ""}, // PSHN="0" with data is data
		{psht + `<PSHT PSHN="1"><PSID>OUT</PSID></PSHT>`, 2, ""},
		{`<PSHT PSHN="0"/>`, 0, `<PSHT PSHN="0"/>`},
		{`<PSHT PSHN="4"></PSHT>`, 0, `<PSHT PSHN="4"/>`}, // whatever its sequence number
		{`<PSHT/>`, 0, `<PSHT/>`},
		{`<SRVT></SRVT>`, 0, `<SRVT/>`},
		// blank text is no value (spec §5): the marker is the empty element
		{"<PORT> </PORT>", 0, `<PORT/>`},
		{"<PSHT PSHN=\"2\">\r\n\t</PSHT>", 0, `<PSHT PSHN="2"/>`},
		{`<MAFL KIND="x"/>`, 1, ""}, // an attribute is data
	}
	for _, c := range cases {
		rec, err := decodeUPD(t, c.inner)
		if err != nil {
			t.Fatalf("%s: %v", c.inner, err)
		}
		var op PayloadOp
		for _, p := range rec.Payloads.All() {
			if p.Op != Unchanged {
				op = p
			}
		}
		if op.Op != Replace || op.Count != c.count || op.ClearMarker != c.marker || (op.XML == "") != (c.marker != "") {
			t.Fatalf("%s: %+v", c.inner, op)
		}
	}
	for _, inner := range []string{psht + `<PSHT PSHN="1"/>`, `<PSHT/>` + psht, `<SRVT/><SRVT><SRTC>A</SRTC></SRVT>`} {
		_, err := decodeUPD(t, inner)
		var se *Error
		if !errors.As(err, &se) || se.Class != ClassProtocol || !strings.Contains(se.Reason, "next to other items") {
			t.Fatalf("%s: %v", inner, err)
		}
	}
}
