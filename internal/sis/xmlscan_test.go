package sis

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"
)

const quirkHead = `<MSG><META><SNDR>AODB</SNDR><SEQN>1</SEQN><DTTM>20211212090311</DTTM><TYPE>FLOP</TYPE><STYP>ERUT</STYP></META>`

// Attribute quirks of the real feed all decode to the same value.
func TestAttributeQuirks(t *testing.T) {
	for _, attr := range []string{`RTNO="1"`, `RTNO = "1"`, `RTNO	=	'1'`, "RTNO\r\n=\"1\"", `RTNO="&#49;"`, `RTNO=" 1 "`} {
		raw := quirkHead + `<FLOP><FLID>1</FLID><ERUT ` + attr + ` ><APCD>PEK</APCD></ERUT></FLOP></MSG>`
		m, err := Decode([]byte(raw), DefaultOptions())
		if err != nil {
			t.Errorf("%s: %v", attr, err)
			continue
		}
		if it := m.FlightOps.Records[0].Groups.Get(ERUT).Items[0]; it.Seq != 1 {
			t.Errorf("%s: seq %d", attr, it.Seq)
		}
	}
	for _, attr := range []string{`RTNO=1`, `RTNO`, `RTNO="1" RTNO="2"`, `RTNO="1"RTNO2="2"`, `RTNO="<1"`, `RTNO="&x;"`} {
		raw := quirkHead + `<FLOP><FLID>1</FLID><ERUT ` + attr + `><APCD>PEK</APCD></ERUT></FLOP></MSG>`
		if _, err := Decode([]byte(raw), DefaultOptions()); ClassOf(err) != ClassMalformed {
			t.Errorf("%s: got %v, want MALFORMED", attr, err)
		}
	}
}

// encoding/xml itself accepts spaces around '=' (what the brief asked to verify).
func TestEncodingXMLAcceptsSpacedAttributes(t *testing.T) {
	d := xml.NewDecoder(strings.NewReader(`<ROUT RTNO = "1"><APCD>PEK</APCD></ROUT>`))
	d.Strict = true
	tok, err := d.Token()
	if err != nil {
		t.Fatal(err)
	}
	if se := tok.(xml.StartElement); se.Attr[0].Value != "1" {
		t.Fatalf("attr %v", se.Attr)
	}
}

// <X/> and <X></X> are the same; BOM, prolog, comments, PIs, CDATA are fine.
func TestSyntaxLeniency(t *testing.T) {
	body := `<FLOP><FLID>1</FLID><ERUT RTNO="1"><APCD><![CDATA[P&K]]></APCD><SCAT/><SCDT></SCDT></ERUT></FLOP></MSG>`
	for _, pre := range []string{"", "\uFEFF", `<?xml version="1.0" encoding="UTF-8"?>` + "\r\n", "<!-- c -->\n<?pi x?>\n"} {
		m, err := Decode([]byte(pre+quirkHead+"<!-- inside -->"+body+"\n<!-- after -->\n"), DefaultOptions())
		if err != nil {
			t.Fatalf("%q: %v", pre, err)
		}
		it := m.FlightOps.Records[0].Groups.Get(ERUT).Items[0]
		if it.Get("APCD").Raw != "P&K" || it.Get("SCAT").Op != Clear || it.Get("SCDT").Op != Clear {
			t.Fatalf("%q: %+v", pre, it)
		}
	}
}

// Hostile input: DTDs, external entities, undefined entities, bad
// characters, trailing garbage are MALFORMED; size and depth limits hold.
func TestHostileInput(t *testing.T) {
	cases := map[string]string{
		"doctype":      `<!DOCTYPE MSG SYSTEM "http://x/">` + quirkHead + `</MSG>`,
		"entity decl":  `<!DOCTYPE MSG [<!ENTITY a "aaaa">]><MSG/>`,
		"inner decl":   `<MSG><!ENTITY a "b"></MSG>`,
		"undefined":    `<MSG>&a;</MSG>`,
		"bad charref":  `<MSG>&#0;</MSG>`,
		"nul":          "<MSG>\x00</MSG>",
		"bad utf8":     "<MSG>\xc3\x28</MSG>",
		"two roots":    `<MSG></MSG><MSG></MSG>`,
		"trailing":     `<MSG></MSG>text`,
		"unclosed":     `<MSG><META>`,
		"cdata end":    `<MSG>a]]>b</MSG>`,
		"no root":      `<?xml version="1.0"?>`,
		"lt in attr":   `<MSG a="<"/>`,
		"unterminated": `<MSG a="1`,
	}
	for name, raw := range cases {
		if _, err := Decode([]byte(raw), DefaultOptions()); ClassOf(err) != ClassMalformed {
			t.Errorf("%s: got %v, want MALFORMED", name, err)
		}
	}
	opt := DefaultOptions()
	opt.MaxSize = 100
	big := quirkHead + strings.Repeat(" ", 200) + `</MSG>`
	if _, err := Decode([]byte(big), opt); ClassOf(err) != ClassCodec {
		t.Errorf("size limit: %v", err)
	}
	deep := strings.Repeat("<A>", 10000) + strings.Repeat("</A>", 10000)
	if _, err := Decode([]byte(deep), DefaultOptions()); ClassOf(err) != ClassCodec {
		t.Errorf("depth limit: %v", err)
	}
}

// A huge declared RECS costs nothing: nothing is preallocated from it.
func TestHugeRecsDoesNotAllocate(t *testing.T) {
	raw := []byte(`<MSG><META><SNDR>A</SNDR><SEQN>1</SEQN><DTTM>20211212090311</DTTM><TYPE>SCHD</TYPE><STYP>DNLD</STYP></META><SCHD><RECS>999999999</RECS></SCHD></MSG>`)
	allocs := testing.AllocsPerRun(10, func() { _, _ = Decode(raw, DefaultOptions()) })
	if allocs > 50 {
		t.Errorf("%v allocations", allocs)
	}
	if _, err := Decode(raw, DefaultOptions()); ClassOf(err) != ClassProtocol {
		t.Errorf("got %v", err)
	}
}

// The scanner never accepts a document encoding/xml (strict) rejects.
func TestScannerAgreesWithEncodingXML(t *testing.T) {
	for _, f := range fixtures(t) {
		raw := mustRead(t, f)
		_, err := parseTree(string(raw), 64)
		xerr := xmlWellFormed(raw)
		if err == nil && xerr != nil {
			t.Errorf("%s: scanner accepts, encoding/xml: %v", f, xerr)
		}
	}
}

func xmlWellFormed(raw []byte) error {
	d := xml.NewDecoder(bytes.NewReader(raw))
	d.Strict = true
	for {
		_, err := d.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
