package sis

import (
	"encoding/binary"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// The scanner builds a compact element tree (an arena of nodes indexed by
// int32) from the whole document. It accepts exactly the XML the feed uses:
// an optional BOM and prolog, comments, processing instructions, CDATA,
// the five predefined entities and character references, attributes with
// spaces around '='. It refuses DTDs and any other entity (no entity
// processing at all), invalid UTF-8, control characters, and nesting deeper
// than the configured maximum. Text is sliced from one string copy of the
// input, so most values cost no allocation.

// node and xattr are pointer-free (offsets into src, or into owned for
// text that had to be decoded): a 2 000-flight download has ~400 000
// nodes, and pointer-free arrays cost the garbage collector nothing.
type node struct {
	nameOff, nameLen int32
	textOff, textLen int32 // textLen < 0: the text is owned[textOff]
	parent           int32
	first            int32 // first child, -1 if none
	last             int32
	next             int32 // next sibling, -1 if none
	attr0            int32 // first attribute in tree.attrs
	nattr            int32
	nchild           int32
	mixed            bool // non-blank text next to element children
}

type xattr struct {
	nameOff, nameLen int32
	valOff, valLen   int32 // valLen < 0: the value is owned[valOff]
}

// Attr is one XML attribute, name and value as sent (entities decoded).
type Attr struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type tree struct {
	firstMixed int32 // first node with mixed content, -1 if none
	src        string
	nodes      []node
	attrs      []xattr
	owned      []string
}

func (t *tree) name(n int32) string {
	nd := &t.nodes[n]
	return t.src[nd.nameOff : nd.nameOff+nd.nameLen]
}

func (t *tree) text(n int32) string {
	nd := &t.nodes[n]
	if nd.textLen < 0 {
		return t.owned[nd.textOff]
	}
	return t.src[nd.textOff : nd.textOff+nd.textLen]
}

func (t *tree) attr(i int32) Attr {
	a := &t.attrs[i]
	v := ""
	if a.valLen < 0 {
		v = t.owned[a.valOff]
	} else {
		v = t.src[a.valOff : a.valOff+a.valLen]
	}
	return Attr{Name: t.src[a.nameOff : a.nameOff+a.nameLen], Value: v}
}

// setText stores s, a substring of src at off when exact, else owned.
func (t *tree) setText(n int32, s string, off int, exact bool) {
	nd := &t.nodes[n]
	if exact {
		nd.textOff, nd.textLen = int32(off), int32(len(s))
		return
	}
	nd.textOff, nd.textLen = int32(len(t.owned)), -1
	t.owned = append(t.owned, s)
}

type scanner struct {
	s        string
	i        int
	t        *tree
	maxDepth int
	// Text split by comments, PIs or CDATA sections is gathered here
	// (linear, however many pieces) and stored when the element's text is
	// complete (flushText).
	pend     []byte
	pendNode int32 // -1: nothing pending
	// Duplicate-attribute check of elements with many attributes.
	attrSet map[string]struct{}
}

func parseTree(src string, maxDepth int) (*tree, *Error) {
	if err := checkChars(src); err != nil {
		return nil, err
	}
	t := treePool.Get().(*tree)
	t.firstMixed, t.src = -1, src
	// Start tags = '<' minus end tags: an upper bound of the elements,
	// bounded by the (size-limited) input, never by a declared count.
	if est := countStartTags(src); cap(t.nodes) < est {
		t.nodes = make([]node, 0, est)
	}
	if est := strings.Count(src, "=") + 1; cap(t.attrs) < est {
		t.attrs = make([]xattr, 0, est)
	}
	p := &scanner{s: src, maxDepth: maxDepth, t: t, pendNode: -1}
	if strings.HasPrefix(src, "\uFEFF") {
		p.i = 3
	}
	err := p.misc()
	if err == nil && p.i >= len(p.s) {
		err = p.fail("no root element")
	}
	if err == nil {
		err = p.elements()
	}
	if err == nil {
		err = p.misc()
	}
	if err == nil && p.i < len(p.s) {
		err = p.fail("content after the root element")
	}
	if err != nil {
		t.release()
		return nil, err
	}
	return t, nil
}

// Trees are pooled: the node arena of a daily download is tens of MB, and
// allocating (and page-faulting) it anew for every message costs more than
// the parse. A decoded Message never points into a tree: values are
// substrings of src or strings of owned.
var treePool = sync.Pool{New: func() any { return new(tree) }}

// maxPooledNodes keeps pathological arenas out of the pool (~48 MB).
const maxPooledNodes = 1 << 20

func (t *tree) release() {
	if cap(t.nodes) > maxPooledNodes {
		return
	}
	clear(t.owned)
	t.nodes, t.attrs, t.owned, t.src = t.nodes[:0], t.attrs[:0], t.owned[:0], ""
	treePool.Put(t)
}

func (p *scanner) fail(format string, args ...any) *Error {
	line := 1 + strings.Count(p.s[:min(p.i, len(p.s))], "\n")
	return newErr(ClassMalformed, "", "", "line %d: "+format, append([]any{line}, args...)...)
}

// misc skips whitespace, comments and processing instructions outside the
// root element; a DOCTYPE or any other declaration is refused.
func (p *scanner) misc() *Error {
	for {
		for p.i < len(p.s) && isSpace(p.s[p.i]) {
			p.i++
		}
		rest := p.s[p.i:]
		switch {
		case strings.HasPrefix(rest, "<?"):
			if err := p.skipPI(); err != nil {
				return err
			}
		case strings.HasPrefix(rest, "<!--"):
			if err := p.skipComment(); err != nil {
				return err
			}
		case strings.HasPrefix(rest, "<!"):
			return p.fail("DTD and declarations are not accepted")
		default:
			return nil
		}
	}
}

func (p *scanner) skipPI() *Error {
	j := strings.Index(p.s[p.i+2:], "?>")
	if j < 0 {
		return p.fail("unterminated processing instruction")
	}
	body := p.s[p.i+2 : p.i+2+j]
	p.i += 2
	target := p.name()
	if target == "" || (len(body) > len(target) && !isSpace(body[len(target)])) {
		return p.fail("invalid processing instruction")
	}
	if strings.EqualFold(target, "xml") {
		if err := p.xmlDecl(body[len(target):]); err != nil {
			return err
		}
	}
	p.i += j - len(target) + 2
	return nil
}

// xmlDecl checks the pseudo-attributes of an XML declaration: only
// version, encoding and standalone, each at most once, well formed
// (name = "value"), version 1.0 and UTF-8 only. Parsed strictly, not
// searched for: a value must never be mistaken for a pseudo-attribute.
func (p *scanner) xmlDecl(decl string) *Error {
	var seen [3]bool // version, encoding, standalone
	for {
		rest := strings.TrimLeft(decl, " \t\r\n")
		if rest == "" {
			return nil
		}
		if len(rest) == len(decl) {
			return p.fail("invalid XML declaration")
		}
		eq := strings.IndexByte(rest, '=')
		if eq < 0 {
			return p.fail("invalid XML declaration")
		}
		name := strings.TrimRight(rest[:eq], " \t\r\n")
		val := strings.TrimLeft(rest[eq+1:], " \t\r\n")
		if val == "" || (val[0] != '"' && val[0] != '\'') {
			return p.fail("invalid XML declaration")
		}
		end := strings.IndexByte(val[1:], val[0])
		if end < 0 {
			return p.fail("invalid XML declaration")
		}
		v := val[1 : 1+end]
		decl = val[end+2:]
		var k int // the attribute's slot in seen
		switch name {
		case "version":
			if k = 0; v != "1.0" {
				return p.fail("unsupported XML version %q", v)
			}
		case "encoding":
			if k = 1; !strings.EqualFold(v, "utf-8") {
				return p.fail("unsupported encoding %q (UTF-8 only)", v)
			}
		case "standalone":
			if k = 2; v != "yes" && v != "no" {
				return p.fail("invalid XML declaration: standalone=%q", v)
			}
		default:
			return p.fail("invalid XML declaration: unknown %q", name)
		}
		if seen[k] {
			return p.fail("invalid XML declaration: duplicate %s", name)
		}
		seen[k] = true
	}
}

// skipComment skips <!-- ... -->. XML forbids "--" inside a comment
// (and so a comment ending in "--->"): the first "--" must close it.
func (p *scanner) skipComment() *Error {
	body := p.s[p.i+4:]
	j := strings.Index(body, "--")
	if j < 0 || j+2 >= len(body) {
		return p.fail("unterminated comment")
	}
	if body[j+2] != '>' {
		return p.fail("'--' inside a comment")
	}
	p.i += 4 + j + 3
	return nil
}

// elements parses the root element and everything inside it, iteratively.
func (p *scanner) elements() *Error {
	cur := int32(-1)
	depth := 0
	for {
		if cur >= 0 {
			j := strings.IndexByte(p.s[p.i:], '<')
			if j < 0 {
				p.i = len(p.s)
				return p.fail("unexpected end of input inside <%s>", p.t.name(cur))
			}
			if j > 0 {
				if err := p.addText(cur, p.s[p.i:p.i+j], p.i, true); err != nil {
					return err
				}
				p.i += j
			}
		}
		if p.i+1 >= len(p.s) || p.s[p.i] != '<' {
			return p.fail("expected an element")
		}
		switch c := p.s[p.i+1]; {
		case c == '/':
			p.flushText()
			if cur < 0 {
				return p.fail("unexpected end tag")
			}
			p.i += 2
			name := p.name()
			for p.i < len(p.s) && isSpace(p.s[p.i]) {
				p.i++
			}
			if p.i >= len(p.s) || p.s[p.i] != '>' {
				return p.fail("malformed end tag </%s", name)
			}
			p.i++
			if open := p.t.name(cur); name != open {
				return p.fail("end tag </%s> does not match <%s>", name, open)
			}
			cur = p.t.nodes[cur].parent
			depth--
			if cur < 0 {
				return nil
			}
		case c == '!':
			if cur < 0 {
				return p.fail("DTD and declarations are not accepted")
			}
			switch rest := p.s[p.i:]; {
			case strings.HasPrefix(rest, "<!--"):
				if err := p.skipComment(); err != nil {
					return err
				}
			case strings.HasPrefix(rest, "<![CDATA["):
				j := strings.Index(rest, "]]>")
				if j < 0 {
					return p.fail("unterminated CDATA section")
				}
				if err := p.addText(cur, rest[9:j], p.i+9, false); err != nil {
					return err
				}
				p.i += j + 3
			default:
				return p.fail("DTD and declarations are not accepted")
			}
		case c == '?':
			if cur < 0 {
				return p.fail("expected the root element")
			}
			if err := p.skipPI(); err != nil {
				return err
			}
		default:
			p.flushText()
			n, selfClosing, err := p.startTag(cur)
			if err != nil {
				return err
			}
			if cur < 0 && selfClosing {
				return nil
			}
			if !selfClosing {
				depth++
				if depth > p.maxDepth {
					return newErr(ClassCodec, p.t.path(n), "", "nesting deeper than the limit of %d", p.maxDepth)
				}
				cur = n
			}
		}
	}
}

func (p *scanner) startTag(parent int32) (int32, bool, *Error) {
	p.i++
	nameOff := p.i
	name := p.name()
	if name == "" {
		return 0, false, p.fail("invalid element name")
	}
	t := p.t
	idx := int32(len(t.nodes))
	t.nodes = append(t.nodes, node{nameOff: int32(nameOff), nameLen: int32(len(name)), parent: parent,
		first: -1, last: -1, next: -1, attr0: int32(len(t.attrs))})
	if parent >= 0 {
		if t.nodes[parent].nchild == 0 && !isBlank(t.text(parent)) {
			t.markMixed(parent)
		}
		pn := &t.nodes[parent]
		pn.textOff, pn.textLen = 0, 0
		if pn.last >= 0 {
			t.nodes[pn.last].next = idx
		} else {
			pn.first = idx
		}
		pn.last = idx
		pn.nchild++
	}
	for {
		sp := p.i
		for p.i < len(p.s) && isSpace(p.s[p.i]) {
			p.i++
		}
		if p.i >= len(p.s) {
			return 0, false, p.fail("unexpected end of input in <%s>", name)
		}
		switch p.s[p.i] {
		case '>':
			p.i++
			return idx, false, nil
		case '/':
			if p.i+1 >= len(p.s) || p.s[p.i+1] != '>' {
				return 0, false, p.fail("malformed tag <%s>", name)
			}
			p.i += 2
			return idx, true, nil
		}
		if sp == p.i {
			return 0, false, p.fail("missing space before attribute in <%s>", name)
		}
		anOff := p.i
		an := p.name()
		if an == "" {
			return 0, false, p.fail("invalid attribute name in <%s>", name)
		}
		for p.i < len(p.s) && isSpace(p.s[p.i]) {
			p.i++
		}
		if p.i >= len(p.s) || p.s[p.i] != '=' {
			return 0, false, p.fail("attribute %s of <%s> has no value", an, name)
		}
		p.i++
		for p.i < len(p.s) && isSpace(p.s[p.i]) {
			p.i++
		}
		if p.i >= len(p.s) || (p.s[p.i] != '"' && p.s[p.i] != '\'') {
			return 0, false, p.fail("attribute %s of <%s> is not quoted", an, name)
		}
		q := p.s[p.i]
		j := strings.IndexByte(p.s[p.i+1:], q)
		if j < 0 {
			return 0, false, p.fail("unterminated attribute %s of <%s>", an, name)
		}
		raw := p.s[p.i+1 : p.i+1+j]
		if strings.IndexByte(raw, '<') >= 0 {
			return 0, false, p.fail("'<' in attribute %s of <%s>", an, name)
		}
		norm, exact := normalizeEOL(raw)
		val, ok := unescape(norm)
		if !ok {
			return 0, false, p.fail("invalid entity or character reference in attribute %s of <%s> (entities are not processed)", an, name)
		}
		n := &t.nodes[idx]
		if p.duplicateAttr(idx, an) {
			return 0, false, p.fail("duplicate attribute %s in <%s>", an, name)
		}
		xa := xattr{nameOff: int32(anOff), nameLen: int32(len(an)), valOff: int32(p.i + 1), valLen: int32(len(raw))}
		if !exact || len(val) != len(norm) {
			xa.valOff, xa.valLen = int32(len(t.owned)), -1
			t.owned = append(t.owned, val)
		}
		t.attrs = append(t.attrs, xa)
		n.nattr++
		p.i += j + 2
	}
}

// duplicateAttr reports whether element n already has attribute an:
// a linear scan for the usual few attributes, a set beyond (hostile
// input must not make the scan quadratic).
func (p *scanner) duplicateAttr(n int32, an string) bool {
	t := p.t
	nd := &t.nodes[n]
	const linear = 16
	if nd.nattr < linear {
		for i := nd.attr0; i < nd.attr0+nd.nattr; i++ {
			if a := &t.attrs[i]; t.src[a.nameOff:a.nameOff+a.nameLen] == an {
				return true
			}
		}
		return false
	}
	if nd.nattr == linear {
		if p.attrSet == nil {
			p.attrSet = make(map[string]struct{})
		}
		clear(p.attrSet)
		for i := nd.attr0; i < nd.attr0+nd.nattr; i++ {
			a := &t.attrs[i]
			p.attrSet[t.src[a.nameOff:a.nameOff+a.nameLen]] = struct{}{}
		}
	}
	if _, dup := p.attrSet[an]; dup {
		return true
	}
	p.attrSet[an] = struct{}{}
	return false
}

// flushText stores the text gathered in pend on its element.
func (p *scanner) flushText() {
	if p.pendNode >= 0 {
		p.t.setText(p.pendNode, string(p.pend), 0, false)
		p.pendNode, p.pend = -1, p.pend[:0]
	}
}

// addText appends character data to a node. Once a node has element
// children only blank text is allowed next to them (mixed content is
// flagged and reported by the decoder as CODEC_ERROR).
func (p *scanner) addText(cur int32, raw string, off int, decode bool) *Error {
	t := p.t
	// End-of-line handling first: a CR written as a character reference
	// (&#13;) is data and survives it.
	raw, exact := normalizeEOL(raw)
	if decode {
		if strings.IndexByte(raw, '>') >= 0 && strings.Contains(raw, "]]>") {
			return p.fail("']]>' in character data")
		}
		v, ok := unescape(raw)
		if !ok {
			return p.fail("invalid entity or character reference in <%s> (entities are not processed)", t.name(cur))
		}
		exact = exact && len(v) == len(raw)
		raw = v
	}
	if t.nodes[cur].nchild > 0 {
		if !isBlank(raw) {
			t.markMixed(cur)
		}
		return nil
	}
	if p.pendNode == cur {
		p.pend = append(p.pend, raw...)
		return nil
	}
	if prev := t.text(cur); prev != "" {
		p.pend = append(append(p.pend[:0], prev...), raw...)
		p.pendNode = cur
		return nil
	}
	t.setText(cur, raw, off, exact)
	return nil
}

// normalizeEOL applies XML end-of-line handling to literal text (before
// references are decoded): CRLF and a lone CR become LF. exact reports
// that s was unchanged.
func normalizeEOL(s string) (string, bool) {
	if strings.IndexByte(s, '\r') < 0 {
		return s, true
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n"), false
}

// name scans an XML name restricted to ASCII (all SIS names are ASCII).
func (p *scanner) name() string {
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_' || c == ':' ||
			p.i > start && (c >= '0' && c <= '9' || c == '-' || c == '.') {
			p.i++
			continue
		}
		break
	}
	name := p.s[start:p.i]
	// At most one namespace colon, never first or last (as encoding/xml).
	if c := strings.IndexByte(name, ':'); c >= 0 && (c == 0 || c == len(name)-1 || strings.IndexByte(name[c+1:], ':') >= 0) {
		return ""
	}
	return name
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isBlank(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isSpace(s[i]) {
			return false
		}
	}
	return true
}

// unescape decodes the predefined entities and character references; any
// other entity is refused (the codec does no entity processing).
func unescape(s string) (string, bool) {
	amp := strings.IndexByte(s, '&')
	if amp < 0 {
		return s, true
	}
	var b strings.Builder
	b.Grow(len(s))
	for amp >= 0 {
		b.WriteString(s[:amp])
		s = s[amp:]
		semi := strings.IndexByte(s, ';')
		if semi < 0 || semi > 12 {
			return "", false
		}
		ent := s[1:semi]
		switch ent {
		case "lt":
			b.WriteByte('<')
		case "gt":
			b.WriteByte('>')
		case "amp":
			b.WriteByte('&')
		case "apos":
			b.WriteByte('\'')
		case "quot":
			b.WriteByte('"')
		default:
			if len(ent) < 2 || ent[0] != '#' {
				return "", false
			}
			var v uint64
			var err error
			if ent[1] == 'x' {
				v, err = strconv.ParseUint(ent[2:], 16, 32)
			} else {
				v, err = strconv.ParseUint(ent[1:], 10, 32)
			}
			if err != nil || !isXMLChar(rune(v)) {
				return "", false
			}
			b.WriteRune(rune(v))
		}
		s = s[semi+1:]
		amp = strings.IndexByte(s, '&')
	}
	b.WriteString(s)
	return b.String(), true
}

func isXMLChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

// checkChars refuses invalid UTF-8 and characters XML 1.0 forbids. Eight
// bytes at a time while they are printable ASCII (the common case).
func checkChars(s string) *Error {
	const hi, lo20 = 0x8080808080808080, 0x2020202020202020
	for i := 0; i < len(s); {
		if i+8 <= len(s) {
			w := binary.LittleEndian.Uint64([]byte(s[i : i+8]))
			if w&hi == 0 && (w-lo20)&^w&hi == 0 {
				i += 8
				continue
			}
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
				return newErr(ClassMalformed, "", "", "line %d: control character 0x%02X", 1+strings.Count(s[:i], "\n"), c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return newErr(ClassMalformed, "", "", "line %d: invalid UTF-8", 1+strings.Count(s[:i], "\n"))
		}
		if !isXMLChar(r) {
			return newErr(ClassMalformed, "", "", "line %d: character U+%04X is not allowed in XML", 1+strings.Count(s[:i], "\n"), r)
		}
		i += size
	}
	return nil
}

// countStartTags counts '<' not followed by '/': an upper bound of the
// number of elements.
func countStartTags(s string) int {
	n := 0
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 || i+1 >= len(s) {
			return n + 1
		}
		if s[i+1] != '/' {
			n++
		}
		s = s[i+1:]
	}
}
