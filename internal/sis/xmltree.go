package sis

import (
	"strconv"
	"strings"
)

// Reading the element tree built by the scanner: error paths, attributes,
// canonical XML.

// path names node n as MSG/FLOP[2]/FDIV; the index appears only when the
// parent has several children of that name. Computed only for errors.
func (t *tree) path(n int32) string {
	var parts []string
	for x := n; x >= 0; x = t.nodes[x].parent {
		nd := &t.nodes[x]
		seg := t.name(x)
		if nd.parent >= 0 {
			idx, total := 0, 0
			for c := t.nodes[nd.parent].first; c >= 0; c = t.nodes[c].next {
				if t.name(c) == seg {
					total++
					if c == x {
						idx = total
					}
				}
			}
			if total > 1 {
				seg += "[" + strconv.Itoa(idx) + "]"
			}
		}
		parts = append(parts, seg)
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, "/")
}

func (t *tree) markMixed(n int32) {
	t.nodes[n].mixed = true
	if t.firstMixed < 0 {
		t.firstMixed = n
	}
}

// attrsOf copies the attributes of n (for the rare paths; hot loops
// index t.attr directly).
func (t *tree) attrsOf(n int32) []Attr {
	nd := &t.nodes[n]
	if nd.nattr == 0 {
		return nil
	}
	out := make([]Attr, 0, nd.nattr)
	for i := nd.attr0; i < nd.attr0+nd.nattr; i++ {
		out = append(out, t.attr(i))
	}
	return out
}

// canon writes node n as canonical XML: attributes in input order with
// double quotes, blank text between elements dropped, leaf text kept
// exactly (escaped), empty elements as <X/>.
func (t *tree) canon(b *strings.Builder, n int32) {
	nd := &t.nodes[n]
	t.openTag(b, n)
	if nd.nchild == 0 && nd.textLen == 0 {
		b.WriteString("/>")
		return
	}
	b.WriteByte('>')
	if nd.nchild == 0 {
		escapeXML(b, t.text(n), false)
	}
	for c := nd.first; c >= 0; c = t.nodes[c].next {
		t.canon(b, c)
	}
	b.WriteString("</")
	b.WriteString(t.name(n))
	b.WriteByte('>')
}

// canonEmpty writes node n, an element without children whose text is
// blank (a clear marker), as <X .../>: blank text is no value (spec §5), so
// the marker reads the same however the AODB wrote its emptiness.
func (t *tree) canonEmpty(b *strings.Builder, n int32) {
	t.openTag(b, n)
	b.WriteString("/>")
}

// openTag writes "<name" and the attributes in input order, double-quoted.
func (t *tree) openTag(b *strings.Builder, n int32) {
	nd := &t.nodes[n]
	b.WriteByte('<')
	b.WriteString(t.name(n))
	for i := nd.attr0; i < nd.attr0+nd.nattr; i++ {
		a := t.attr(i)
		b.WriteByte(' ')
		b.WriteString(a.Name)
		b.WriteString(`="`)
		escapeXML(b, a.Value, true)
		b.WriteByte('"')
	}
}

func escapeXML(b *strings.Builder, s string, attr bool) {
	last := 0
	for i := 0; i < len(s); i++ {
		var rep string
		switch s[i] {
		case '&':
			rep = "&amp;"
		case '<':
			rep = "&lt;"
		case '>':
			rep = "&gt;"
		case '"':
			if !attr {
				continue
			}
			rep = "&quot;"
		case '\r':
			rep = "&#xD;"
		case '\n', '\t':
			if !attr {
				continue
			}
			rep = "&#x" + strconv.FormatInt(int64(s[i]), 16) + ";"
		default:
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(rep)
		last = i + 1
	}
	b.WriteString(s[last:])
}
