package sis

import (
	"strconv"
	"strings"
	"time"
)

// Defaults of Options.
const (
	DefaultMaxSize  = 16 << 20 // 16 MiB
	DefaultMaxDepth = 16       // deepest real path is MSG/FLOP/VIPF/VIPT/VSCD (5)
	DefaultZone     = "Asia/Shanghai"
)

// DefaultIgnoreTypes are the TYPEs skipped by rule (SKIPPED, never a failure).
var DefaultIgnoreTypes = []string{"LDM", "REGN", "RSTA", "EROR"}

// RefListTypes are the 22 reference list TYPEs.
var RefListTypes = []string{"ABDG", "ABNR", "AIRC", "AIRL", "ARPT", "BLST", "CHLT", "CITY",
	"CLST", "COUL", "DLYL", "FLTL", "GLST", "HLTR", "ORGN", "PLST", "REGL", "SLST", "STTS",
	"TLST", "VIPL", "VIPS"}

var refListSet = func() map[string]bool {
	m := make(map[string]bool, len(RefListTypes))
	for _, t := range RefListTypes {
		m[t] = true
	}
	return m
}()

// Options configure Decode. The zero value of a field means its default.
type Options struct {
	// Location is the airport zone all SIS times are in (default
	// Asia/Shanghai; never UTC by assumption).
	Location *time.Location
	// MaxSize is the largest accepted message in bytes (default 16 MiB).
	MaxSize int
	// MaxDepth is the deepest accepted element nesting (default 16).
	MaxDepth int
	// IgnoreTypes are TYPEs decoded as KindIgnored. nil means
	// DefaultIgnoreTypes; an empty non-nil slice ignores nothing.
	IgnoreTypes []string
	// IncludeDayBoundary appends |yyyy-MM-dd of DTTM to the identity.
	IncludeDayBoundary bool
}

var defaultLocation = func() *time.Location {
	if loc, err := time.LoadLocation(DefaultZone); err == nil {
		return loc
	}
	// No tzdata on the host: China has had no DST since 1991.
	return time.FixedZone(DefaultZone, 8*3600)
}()

// DefaultOptions returns the defaults: Asia/Shanghai, 16 MiB, depth 16,
// DefaultIgnoreTypes, no day boundary in the identity.
func DefaultOptions() Options {
	return Options{Location: defaultLocation, MaxSize: DefaultMaxSize, MaxDepth: DefaultMaxDepth,
		IgnoreTypes: append([]string(nil), DefaultIgnoreTypes...)}
}

func (o Options) withDefaults() Options {
	if o.Location == nil {
		o.Location = defaultLocation
	}
	if o.MaxSize <= 0 {
		o.MaxSize = DefaultMaxSize
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = DefaultMaxDepth
	}
	if o.IgnoreTypes == nil {
		o.IgnoreTypes = DefaultIgnoreTypes
	}
	return o
}

// maxAddressable keeps offsets inside int32 whatever MaxSize says.
const maxAddressable = 1<<31 - 1

// Decode decodes one SIS message. On failure the error is a *Error; the
// returned *Message is non-nil whenever META was readable (see Message).
func Decode(raw []byte, opt Options) (*Message, error) {
	m, err := decode(raw, opt)
	if err != nil {
		return m, err
	}
	return m, nil
}

func decode(raw []byte, opt Options) (*Message, *Error) {
	opt = opt.withDefaults()
	if len(raw) > opt.MaxSize || len(raw) > maxAddressable {
		return nil, newErr(ClassCodec, "", "", "message of %d bytes exceeds the size limit of %d bytes", len(raw), opt.MaxSize)
	}
	t, err := parseTree(string(raw), opt.MaxDepth)
	if err != nil {
		return nil, err
	}
	defer t.release()
	d := &decoder{t: t, loc: opt.Location, opt: opt}
	m, err := d.message()
	if m != nil {
		m.Footprint = footprint(m)
	}
	return m, err
}

type decoder struct {
	t   *tree
	loc *time.Location
	opt Options
	// Chunked arenas: a download has ~50 000 group items and ~250 000
	// item fields; carving them from shared chunks saves most allocations.
	fieldChunk []NamedField
	itemChunk  []Item
	recChunk   []FlightRecord
	// Entry arenas of the records' sparse operations.
	scalarChunk  []Entry[ScalarID, Field]
	groupChunk   []Entry[GroupID, GroupOp]
	structChunk  []Entry[StructID, StructOp]
	payloadChunk []Entry[PayloadID, PayloadOp]
	scratch      [numGroups][]Item // items of the current record, reused
	// Operations of the current record, reused.
	scalarScratch  []Entry[ScalarID, Field]
	groupScratch   []Entry[GroupID, GroupOp]
	structScratch  []Entry[StructID, StructOp]
	payloadScratch []Entry[PayloadID, PayloadOp]
}

func (d *decoder) node(n int32) *node { return &d.t.nodes[n] }

func (d *decoder) message() (*Message, *Error) {
	t := d.t
	root := int32(0)
	if t.name(root) != "MSG" {
		return nil, newErr(ClassMalformed, t.name(root), "", "root element is <%s>, not <MSG>", t.name(root))
	}
	if err := d.container(root); err != nil {
		return nil, err
	}
	meta := int32(-1)
	for c := t.nodes[root].first; c >= 0; c = t.nodes[c].next {
		if t.name(c) == "META" {
			if meta >= 0 {
				return nil, newErr(ClassMalformed, t.path(c), "", "more than one META")
			}
			meta = c
		}
	}
	if meta < 0 {
		return nil, newErr(ClassMalformed, "MSG", "", "no META")
	}
	m := &Message{}
	m.RootAttrs = append(m.RootAttrs, t.attrsOf(root)...)
	if err := d.meta(meta, m); err != nil {
		if m.Meta.Type == "" {
			return nil, err
		}
		return m, err
	}
	for _, a := range m.RootAttrs {
		if a.Name != "xmlns" && !strings.HasPrefix(a.Name, "xmlns:") && !strings.HasPrefix(a.Name, "xsi:") {
			return m, newErr(ClassUnsupported, "MSG@"+a.Name, a.Value, "unknown attribute %s", a.Name)
		}
	}
	typ, styp := m.Meta.Type, m.Meta.Subtype
	for _, ig := range d.opt.IgnoreTypes {
		if strings.EqualFold(strings.TrimSpace(ig), typ) {
			m.Kind, m.Note = KindIgnored, "ignored:"+typ
			return m, nil
		}
	}
	var err *Error
	if t.firstMixed >= 0 && interpretsBody(typ) {
		// Text mixed with elements would be lost by the element model:
		// refuse before interpreting anything.
		err = d.checkMixed(t.firstMixed)
	}
	switch {
	case err != nil:
	case typ == "SCHD":
		err = d.schedule(root, m)
	case typ == "FLOP" && styp == "FDEL":
		err = d.flightDelete(root, m, "FLOP/FDEL")
	case typ == "FLOP":
		err = d.flightOps(root, m)
	case typ == "FDEL":
		err = d.flightDelete(root, m, "FDEL")
	case refListSet[typ]:
		err = d.refList(root, m)
	case typ == "RQFD" || typ == "RQRD":
		err = d.request(root, m)
	case typ == "SCHS":
		m.Kind, m.Note = KindUnsupported, "unsupported:SCHS/"+styp+" seasonal schedule is out of scope"
	default:
		m.Kind, m.Note = KindUnsupported, "unsupported:"+typ+"/"+styp+" unknown TYPE"
	}
	if err != nil {
		m.Kind = ""
		m.Schedule, m.FlightOps, m.Delete, m.Ref, m.Request = nil, nil, nil, nil, nil
		return m, err
	}
	return m, nil
}

func interpretsBody(typ string) bool {
	switch typ {
	case "SCHD", "FLOP", "FDEL", "RQFD", "RQRD":
		return true
	}
	return refListSet[typ]
}

// unsupportedSubtype marks a known TYPE with a subtype the codec does not
// implement: decoded successfully as KindUnsupported (FAILED(UNSUPPORTED)).
func unsupportedSubtype(m *Message) {
	m.Kind = KindUnsupported
	m.Note = "unsupported:" + m.Meta.Type + "/" + m.Meta.Subtype + " unknown subtype"
}

func (d *decoder) meta(n int32, m *Message) *Error {
	t := d.t
	if err := d.noAttrs(n); err != nil {
		return err
	}
	if err := d.container(n); err != nil {
		return err
	}
	var seen [6]int32
	names := [6]string{"SNDR", "RCVR", "SEQN", "DTTM", "TYPE", "STYP"}
	for i := range seen {
		seen[i] = -1
	}
	var first *Error
	keep := func(e *Error) {
		if first == nil {
			first = e
		}
	}
	for c := t.nodes[n].first; c >= 0; c = t.nodes[c].next {
		name := t.name(c)
		k := -1
		for i, s := range names {
			if s == name {
				k = i
			}
		}
		if k < 0 {
			keep(newErr(ClassUnsupported, t.path(c), "", "unknown element <%s> in META", name))
			continue
		}
		if seen[k] >= 0 {
			keep(newErr(ClassProtocol, t.path(c), "", "duplicate <%s>", name))
			continue
		}
		seen[k] = c
		if err := d.leaf(c); err != nil {
			keep(err)
		}
	}
	mt := &m.Meta
	if c := seen[4]; c >= 0 {
		mt.TypeRaw = t.text(c)
		mt.Type = strings.ToUpper(trim(mt.TypeRaw))
	}
	if mt.Type == "" {
		return newErr(ClassMalformed, "MSG/META/TYPE", "", "no TYPE")
	}
	if c := seen[0]; c >= 0 {
		mt.SenderRaw = t.text(c)
		mt.Sender = trim(mt.SenderRaw)
	}
	if c := seen[1]; c >= 0 {
		mt.HasReceiver = true
		mt.ReceiverRaw = t.text(c)
		mt.Receiver = trim(mt.ReceiverRaw)
	}
	if c := seen[5]; c >= 0 {
		mt.SubtypeRaw = t.text(c)
		mt.Subtype = strings.ToUpper(trim(mt.SubtypeRaw))
	}
	if first != nil {
		return first
	}
	seqOK := false
	if c := seen[2]; c >= 0 {
		mt.SeqRaw = t.text(c)
		v, err := strconv.ParseInt(trim(mt.SeqRaw), 10, 64)
		if err != nil || v < 0 {
			return newErr(ClassProtocol, t.path(c), mt.SeqRaw, "%q is not a sequence number", mt.SeqRaw)
		}
		mt.Seq, seqOK = v, true
	}
	if c := seen[3]; c >= 0 {
		mt.SentRaw = t.text(c)
		tm, err := ParseDTTM(mt.SentRaw, d.loc)
		if err != nil {
			return newErr(ClassProtocol, t.path(c), mt.SentRaw, "%q is not a time yyyyMMddHHmmss", mt.SentRaw)
		}
		mt.Sent = tm
	}
	if mt.Sender != "" && mt.Subtype != "" && seqOK {
		// Appended into a stack buffer: one allocation, the identity.
		var buf [128]byte
		b := append(buf[:0], mt.Sender...)
		b = append(append(append(append(b, '|'), mt.Type...), '|'), mt.Subtype...)
		b = strconv.AppendInt(append(b, '|'), mt.Seq, 10)
		if d.opt.IncludeDayBoundary && mt.SentRaw != "" {
			b = mt.Sent.AppendFormat(append(b, '|'), "2006-01-02")
		}
		m.Identity = string(b)
	}
	for i, c := range seen {
		if c < 0 && i != 1 {
			return newErr(ClassProtocol, "MSG/META", "", "no %s", names[i])
		}
		if c >= 0 && i != 1 && isBlank(t.text(c)) {
			return newErr(ClassProtocol, t.path(c), "", "empty %s", names[i])
		}
	}
	return nil
}

// leaf checks that n carries only text: elements inside are a construct
// the codec does not handle (CODEC_ERROR), attributes are unknown
// (UNSUPPORTED).
func (d *decoder) leaf(n int32) *Error {
	nd := d.node(n)
	if nd.nchild > 0 {
		return newErr(ClassCodec, d.t.path(nd.first), "", "element <%s> inside the value <%s> is not handled", d.t.name(nd.first), d.t.name(n))
	}
	return d.noAttrs(n)
}

func (d *decoder) noAttrs(n int32) *Error {
	if nd := d.node(n); nd.nattr > 0 {
		a := d.t.attr(nd.attr0)
		return newErr(ClassUnsupported, d.t.path(n)+"@"+a.Name, a.Value, "unknown attribute %s", a.Name)
	}
	return nil
}

// container checks an element that holds elements only (MSG, META,
// SCHD, a record, a request body): text in it would be lost.
func (d *decoder) container(n int32) *Error {
	if err := d.checkMixed(n); err != nil {
		return err
	}
	if txt := d.t.text(n); d.node(n).nchild == 0 && !isBlank(txt) {
		return newErr(ClassCodec, d.t.path(n), txt, "text where elements are expected is not handled")
	}
	return nil
}

func (d *decoder) checkMixed(n int32) *Error {
	if d.node(n).mixed {
		return newErr(ClassCodec, d.t.path(n), "", "text mixed with elements is not handled")
	}
	return nil
}

// recs parses a RECS element: a non-negative count.
func (d *decoder) recs(n int32) (int, string, *Error) {
	if err := d.leaf(n); err != nil {
		return 0, "", err
	}
	raw := d.t.text(n)
	v, ok := digits(trim(raw))
	if !ok || len(trim(raw)) > 9 {
		return 0, raw, newErr(ClassProtocol, d.t.path(n), raw, "%q is not a record count", raw)
	}
	return v, raw, nil
}

func (d *decoder) recsMismatch(n int32, declared, got int, what string) *Error {
	raw := d.t.text(n)
	return newErr(ClassProtocol, d.t.path(n), raw, "declares %d records, the message has %d %s", declared, got, what)
}

func (d *decoder) unexpected(n int32, where string) *Error {
	return newErr(ClassProtocol, d.t.path(n), "", "unexpected element <%s> in %s", d.t.name(n), where)
}
