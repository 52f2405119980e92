package sis

import (
	"strconv"
	"strings"
	"testing"
)

// Rules found by fuzzing the scanner against encoding/xml (the fuzz
// inputs are also kept under testdata/fuzz/FuzzDecode).

const remcHead = `<MSG><META><SNDR>A</SNDR><SEQN>1</SEQN><DTTM>20211212090311</DTTM><TYPE>FLOP</TYPE><STYP>FDIV</STYP></META>`

func decodeFDIV(t *testing.T, fdiv string) (*StructOp, error) {
	t.Helper()
	m, err := Decode([]byte(remcHead+`<FLOP><FLID>1</FLID>`+fdiv+`</FLOP></MSG>`), DefaultOptions())
	if err != nil {
		return nil, err
	}
	op := m.FlightOps.Records[0].Structs.Get(FDIV)
	return &op, nil
}

// XML end-of-line handling applies to the literal text, before references
// are decoded: CRLF and CR become LF (in text and attribute values alike),
// while a CR written as &#13; / &#xD; is data and is kept.
func TestEndOfLineBeforeReferences(t *testing.T) {
	cases := []struct{ in, text, ddes string }{
		{"<FDIV DDES=\"HKG\">a\r\nb</FDIV>", "a\nb", "HKG"},
		{"<FDIV DDES=\"HKG\">a\rb</FDIV>", "a\nb", "HKG"},
		{"<FDIV DDES=\"HKG\">a&#13;b</FDIV>", "a\rb", "HKG"},
		{"<FDIV DDES=\"HKG\"><![CDATA[a\r\nb]]></FDIV>", "a\nb", "HKG"},
		{"<FDIV DDES=\"H\r\nK\">x</FDIV>", "x", "H\nK"},
		{"<FDIV DDES=\"H\rK\">x</FDIV>", "x", "H\nK"},
		{"<FDIV DDES=\"H&#xD;K\">x</FDIV>", "x", "H\rK"},
	}
	for _, c := range cases {
		s, err := decodeFDIV(t, c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if s.Text != c.text || s.Attr("DDES").Raw != c.ddes {
			t.Errorf("%q: text %q DDES %q, want %q %q", c.in, s.Text, s.Attr("DDES").Raw, c.text, c.ddes)
		}
	}
}

// "--" may not occur inside a comment (so "--->" does not close one).
func TestCommentDoubleHyphen(t *testing.T) {
	for in, ok := range map[string]bool{
		"<!---->":             true,
		"<!-- a - b -->":      true,
		"<!-- a -- b -->":     false,
		"<!-- a --->":         false,
		"<!-- a ---->":        false,
		"<!--->-->":           true,
		"<!-- unterminated -": false,
	} {
		_, err := decodeFDIV(t, in+`<FDIV>x</FDIV>`)
		if ok && err != nil {
			t.Errorf("%q: %v", in, err)
		}
		if !ok && ClassOf(err) != ClassMalformed {
			t.Errorf("%q: got %v, want MALFORMED", in, err)
		}
	}
}

// The XML declaration is parsed, not searched: only version (1.0),
// encoding (UTF-8) and standalone (yes/no), well formed, each once.
func TestXMLDeclaration(t *testing.T) {
	body := remcHead + `<FLOP><FLID>1</FLID><FDIV>x</FDIV></FLOP></MSG>`
	for decl, ok := range map[string]bool{
		`<?xml version="1.0"?>`:                                   true,
		`<?xml version="1.0" encoding="UTF-8"?>`:                  true,
		`<?xml version = '1.0' encoding = 'utf-8' ?>`:             true,
		`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`: true,
		`<?xml encoding="UTF-8"?>`:                                true,
		`<?xml?>`:                                                 true,
		`<?xml version="1.1"?>`:                                   false,
		`<?xml version="1.0" encoding="GBK"?>`:                    false,
		`<?xml a="version" version="2.0"?>`:                       false,
		`<?xml version="1.0" a="encoding" encoding="latin1"?>`:    false,
		`<?xml version="1.0" version="1.0"?>`:                     false,
		`<?xml version="1.0"encoding="UTF-8"?>`:                   false,
		`<?xml version="1.0" encoding?>`:                          false,
		`<?xml version="1.0" standalone="maybe"?>`:                false,
	} {
		_, err := Decode([]byte(decl+body), DefaultOptions())
		if ok && err != nil {
			t.Errorf("%s: %v", decl, err)
		}
		if !ok && ClassOf(err) != ClassMalformed {
			t.Errorf("%s: got %v, want MALFORMED", decl, err)
		}
	}
}

// Hostile input: text split into many pieces (by comments) and elements
// with many attributes once cost quadratic time (a 600 KB message took
// minutes); at this size a quadratic decoder would hit the test timeout.
// The scaling figure itself is BenchmarkHostileInput's.
func TestHostileInputStaysLinear(t *testing.T) {
	const n = 200_000
	var b strings.Builder
	b.WriteString(remcHead + `<FLOP><FLID>1</FLID><FDIV>`)
	for i := 0; i < n; i++ {
		b.WriteString("abcdefgh<!---->")
	}
	b.WriteString(`</FDIV></FLOP></MSG>`)
	s, err := decodeFDIV(t, strings.TrimSuffix(strings.TrimPrefix(b.String(), remcHead+`<FLOP><FLID>1</FLID>`), `</FLOP></MSG>`))
	if err != nil || len(s.Text) != 8*n {
		t.Fatalf("split text: %v (len %d)", err, len(s.Text))
	}

	b.Reset()
	b.WriteString(`<MSG`)
	for i := 0; i < n; i++ {
		b.WriteString(` a`)
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(string(rune('A' + i%26)))
		b.WriteString(strconv.Itoa(i))
		b.WriteString(`=""`)
	}
	b.WriteString(` aA0=""></MSG>`) // a duplicate of the first
	if _, err := Decode([]byte(b.String()), DefaultOptions()); ClassOf(err) != ClassMalformed || !strings.Contains(err.Error(), "duplicate attribute") {
		t.Fatalf("many attributes: %v", err)
	}
}
