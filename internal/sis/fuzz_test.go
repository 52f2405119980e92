package sis

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"strings"
	"testing"
)

// FuzzDecode: Decode never panics; every error is a classified *Error;
// a success implies encoding/xml agrees the input is well-formed, and no
// value was dropped: every non-blank leaf text and every attribute value
// (collected independently with encoding/xml) appears in the output JSON,
// and no clear marker carries data (a marker's data would not be stored).
//
// Longer runs: go test ./internal/sis -run=^$ -fuzz=FuzzDecode -fuzztime=10m
func FuzzDecode(f *testing.F) {
	for _, file := range fixtures(f) {
		f.Add(mustRead(f, file))
	}
	f.Add(buildDNLD(3))
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := Decode(raw, DefaultOptions())
		if err != nil {
			se, ok := err.(*Error)
			if !ok || se.Class == "" || se.Reason == "" {
				t.Fatalf("unclassified error %T %v", err, err)
			}
			if m != nil && m.Meta.Type == "" {
				t.Fatalf("partial message without TYPE")
			}
			return
		}
		out, jerr := marshal(m)
		if jerr != nil {
			t.Fatalf("JSON: %v", jerr)
		}
		if xerr := xmlWellFormed(raw); xerr != nil {
			t.Fatalf("decoded, but encoding/xml rejects the input: %v", xerr)
		}
		if m.Kind == KindIgnored || m.Kind == KindUnsupported {
			return
		}
		checkNoDroppedValue(t, raw, string(out))
		checkMarkersCarryNoData(t, m)
	})
}

// checkMarkersCarryNoData: a group or payload cleared by its marker had
// nothing but (at most) a sequence number; data is never a clear.
func checkMarkersCarryNoData(t *testing.T, m *Message) {
	t.Helper()
	var recs []*FlightRecord
	if m.Schedule != nil {
		recs = m.Schedule.Flights
	}
	if m.FlightOps != nil {
		recs = append(recs, m.FlightOps.Records...)
	}
	for _, r := range recs {
		for g, op := range r.Groups.All() {
			if cm := op.ClearMarker; cm != nil && (len(cm.Fields) > 0 || len(cm.Attrs) > 0 || cm.Text.Op == Set) {
				t.Fatalf("FLID %d: the <%s> clear marker carries data: %+v", r.FLID, GroupID(g), *cm)
			}
		}
		for p, op := range r.Payloads.All() {
			cm, seqAttrs := op.ClearMarker, 0
			if payloadSpecs[p].seqAttr != "" {
				seqAttrs = 1
			}
			if cm != "" && (strings.Count(cm, "<") != 1 || strings.Count(cm, "=") > seqAttrs) {
				t.Fatalf("FLID %d: the <%s> clear marker carries data: %s", r.FLID, PayloadID(p), cm)
			}
		}
	}
}

// checkNoDroppedValue looks every input value up in the JSON, as a JSON
// string either plain (scalars, fields) or XML-escaped (payload XML).
func checkNoDroppedValue(t *testing.T, raw []byte, out string) {
	t.Helper()
	for _, v := range inputValues(t, raw) {
		found := false
		for _, form := range []string{v.text, xmlEscaped(v.text, v.attr)} {
			js, _ := marshal(form)
			if strings.Contains(out, string(js[1:len(js)-1])) {
				found = true
				break
			}
		}
		if !found {
			t.Fatalf("value %q of <%s> is missing from the output:\n%s", v.text, v.name, out)
		}
	}
}

type inputValue struct {
	name, text string
	attr       bool
}

func xmlEscaped(s string, attr bool) string {
	var b strings.Builder
	escapeXML(&b, s, attr)
	return b.String()
}

// inputValues collects non-blank leaf texts and attribute values with
// encoding/xml, independently of the codec's own scanner.
func inputValues(t *testing.T, raw []byte) []inputValue {
	d := xml.NewDecoder(bytes.NewReader(raw))
	d.Strict = true
	type frame struct {
		name     string
		text     strings.Builder
		children bool
	}
	var stack []*frame
	var vals []inputValue
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			return vals
		}
		if err != nil {
			t.Fatalf("encoding/xml: %v", err)
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			if len(stack) > 0 {
				stack[len(stack)-1].children = true
			}
			name := tk.Name.Local
			if tk.Name.Space != "" {
				name = tk.Name.Space + ":" + name
			}
			for _, a := range tk.Attr {
				if !isBlank(a.Value) { // blank (XML white space only) = Clear, shown as such
					vals = append(vals, inputValue{name + "@" + a.Name.Local, a.Value, true})
				}
			}
			stack = append(stack, &frame{name: name})
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text.Write(tk)
			}
		case xml.EndElement:
			fr := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if !fr.children && !isBlank(fr.text.String()) {
				vals = append(vals, inputValue{fr.name, fr.text.String(), false})
			}
		}
	}
}

// The fixtures pass the same no-drop check as fuzzed inputs.
func TestFixturesDropNothing(t *testing.T) {
	for _, file := range fixtures(t) {
		raw := mustRead(t, file)
		m, err := Decode(raw, DefaultOptions())
		if err != nil || m.Kind == KindIgnored || m.Kind == KindUnsupported {
			continue
		}
		out, _ := json.Marshal(m)
		var buf bytes.Buffer
		_ = WriteJSON(&buf, m)
		_ = out
		t.Run(file, func(t *testing.T) {
			checkNoDroppedValue(t, raw, buf.String())
			checkMarkersCarryNoData(t, m)
		})
	}
}
