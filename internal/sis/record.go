package sis

import (
	"strconv"
	"strings"
)

// flightRecord decodes one FLTR/FLOP record. group is the element set of
// the FLOP subtype (nil in SCHD: every record element but FDEL allowed).
// skipMeta lets the standalone FDEL form use <MSG> itself as the record.
func (d *decoder) flightRecord(n int32, ord int, group []string, skipMeta bool) (*FlightRecord, *Error) {
	t := d.t
	if !skipMeta {
		if err := d.noAttrs(n); err != nil {
			return nil, err
		}
	}
	if err := d.container(n); err != nil {
		return nil, err
	}
	rec := d.newRecord()
	rec.Ordinal = ord
	for g := range d.scratch {
		d.scratch[g] = d.scratch[g][:0]
	}
	scalars, structs := d.scalarScratch[:0], d.structScratch[:0]
	hasFLID, inGroup := false, 0
	var payloads [numPayloads][]int32
	for c := t.nodes[n].first; c >= 0; c = t.nodes[c].next {
		name := t.name(c)
		if skipMeta && name == "META" {
			continue
		}
		ref, ok := recordElems[name]
		if !ok {
			return nil, newErr(ClassUnsupported, t.path(c), "", "unknown element <%s> in a flight record", name)
		}
		if ref.kind != elemFLID && ref.kind != elemFFID {
			if group != nil {
				if !contains(group, name) {
					return nil, newErr(ClassProtocol, t.path(c), "", "element <%s> is outside the FLOP group %s", name, strings.Join(group, " "))
				}
				inGroup++
			} else if ref.kind == elemFDEL {
				return nil, newErr(ClassProtocol, t.path(c), "", "<FDEL> is only valid in a FLOP/FDEL record")
			}
		}
		switch ref.kind {
		case elemFLID:
			if hasFLID {
				return nil, newErr(ClassProtocol, t.path(c), "", "duplicate <FLID>")
			}
			if err := d.leaf(c); err != nil {
				return nil, err
			}
			raw := t.text(c)
			v, err := strconv.ParseInt(trim(raw), 10, 64)
			if err != nil || v < 0 || trim(raw)[0] == '+' {
				return nil, newErr(ClassProtocol, t.path(c), raw, "%q is not a numeric FLID", raw)
			}
			rec.FLID, rec.FLIDRaw, hasFLID = v, raw, true
		case elemFFID:
			if rec.FFID.Op != Unchanged {
				return nil, newErr(ClassProtocol, t.path(c), "", "duplicate <FFID>")
			}
			f, err := d.field(c, &fieldSpec{name: "FFID"})
			if err != nil {
				return nil, err
			}
			rec.FFID = f
		case elemScalar:
			if has(scalars, ScalarID(ref.id)) {
				return nil, newErr(ClassProtocol, t.path(c), "", "duplicate <%s>", name)
			}
			f, err := d.field(c, &scalarSpecs[ref.id])
			if err != nil {
				return nil, err
			}
			scalars = append(scalars, Entry[ScalarID, Field]{ScalarID(ref.id), f})
		case elemGroup:
			it, err := d.groupItem(c, GroupID(ref.id), len(d.scratch[ref.id])+1)
			if err != nil {
				return nil, err
			}
			d.scratch[ref.id] = append(d.scratch[ref.id], it)
		case elemStruct:
			if has(structs, StructID(ref.id)) {
				return nil, newErr(ClassProtocol, t.path(c), "", "duplicate <%s>", name)
			}
			s, err := d.structOp(c, StructID(ref.id))
			if err != nil {
				return nil, err
			}
			structs = append(structs, Entry[StructID, StructOp]{StructID(ref.id), s})
		case elemPayload:
			payloads[ref.id] = append(payloads[ref.id], c)
		case elemFDEL:
			if rec.Delete {
				return nil, newErr(ClassProtocol, t.path(c), "", "duplicate <FDEL>")
			}
			nd := &t.nodes[c]
			if nd.nchild > 0 || nd.nattr > 0 || !isBlank(t.text(c)) {
				return nil, newErr(ClassProtocol, t.path(c), t.text(c), "<FDEL> must be empty")
			}
			rec.Delete = true
		}
	}
	if !hasFLID {
		return nil, newErr(ClassProtocol, t.path(n), "", "record has no FLID")
	}
	if group != nil && inGroup == 0 && group[0] != "FDEL" {
		return nil, newErr(ClassProtocol, t.path(n), "", "record carries no element of its FLOP group %s", strings.Join(group, " "))
	}
	groups := d.groupScratch[:0]
	for g := range d.scratch {
		if len(d.scratch[g]) == 0 {
			continue
		}
		op := GroupOp{Items: d.items(d.scratch[g])}
		if err := d.finishGroup(n, GroupID(g), &op); err != nil {
			return nil, err
		}
		groups = append(groups, Entry[GroupID, GroupOp]{GroupID(g), op})
	}
	pays := d.payloadScratch[:0]
	for p, nodes := range payloads {
		if len(nodes) == 0 {
			continue
		}
		op, err := d.payload(PayloadID(p), nodes)
		if err != nil {
			return nil, err
		}
		pays = append(pays, Entry[PayloadID, PayloadOp]{PayloadID(p), op})
	}
	rec.Scalars = ops(&d.scalarChunk, scalars, 4096)
	rec.Structs = ops(&d.structChunk, structs, 1024)
	rec.Groups = ops(&d.groupChunk, groups, 1024)
	rec.Payloads = ops(&d.payloadChunk, pays, 1024)
	d.scalarScratch, d.structScratch, d.groupScratch, d.payloadScratch = scalars, structs, groups, pays
	return rec, nil
}

// has reports whether entries hold id.
func has[K ~uint8, V any](entries []Entry[K, V], id K) bool {
	for _, e := range entries {
		if e.ID == id {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// field decodes a leaf element into a field operation: blank is Clear,
// anything else Set with the raw text kept exactly and parsed per spec.
func (d *decoder) field(n int32, spec *fieldSpec) (Field, *Error) {
	if err := d.leaf(n); err != nil {
		return Field{}, err
	}
	return d.value(d.t.text(n), spec, n, "")
}

// value parses raw per spec; the error path (node n, attribute attr if
// not "") is computed only for an error.
func (d *decoder) value(raw string, spec *fieldSpec, n int32, attr string) (Field, *Error) {
	path := func() string {
		if attr != "" {
			return d.t.path(n) + "@" + attr
		}
		return d.t.path(n)
	}
	f := Field{Type: spec.typ}
	if isBlank(raw) {
		f.Op = Clear
		return f, nil
	}
	f.Op, f.Raw = Set, raw
	switch spec.typ {
	case TypeTime:
		tm, dateOnly, err := ParseRecordTime(raw, d.loc)
		if err != nil {
			return f, newErr(ClassProtocol, path(), raw, "%q is not a time ddMONyyHHmm or ddMONyy", raw)
		}
		f.Time, f.DateOnly = tm, dateOnly
	case TypeDuration:
		v, err := ParseHHMM(raw)
		if err != nil {
			return f, newErr(ClassProtocol, path(), raw, "%q is not a duration HHMM", raw)
		}
		f.Num = v
	case TypeDayOffset:
		v, err := ParseDayOffset(raw)
		if err != nil {
			return f, newErr(ClassProtocol, path(), raw, "%q is not a day offset such as +1 or -1", raw)
		}
		f.Num = v
	case TypeInt:
		v, err := strconv.ParseInt(trim(raw), 10, 64)
		if err != nil {
			return f, newErr(ClassProtocol, path(), raw, "%q is not an integer", raw)
		}
		f.Num = v
	case TypeEnum:
		v := trim(raw)
		ok := false
		for _, e := range spec.enum {
			if strings.EqualFold(v, e) {
				ok = true
				break
			}
		}
		if !ok {
			return f, newErr(ClassProtocol, path(), raw, "%q is not %s", raw, orList(spec.enum))
		}
	}
	return f, nil
}

func orList(vals []string) string {
	if len(vals) == 1 {
		return vals[0]
	}
	return strings.Join(vals[:len(vals)-1], ", ") + " or " + vals[len(vals)-1]
}

// seq parses a source sequence number attribute (non-negative integer).
func (d *decoder) seq(n int32, a Attr) (int64, *Error) {
	v, err := strconv.ParseInt(trim(a.Value), 10, 64)
	if err != nil || v < 0 || trim(a.Value)[0] == '+' {
		return 0, newErr(ClassProtocol, d.t.path(n)+"@"+a.Name, a.Value, "%q is not a sequence number", a.Value)
	}
	return v, nil
}

func (d *decoder) groupItem(n int32, g GroupID, ord int) (Item, *Error) {
	t := d.t
	spec := &groupSpecs[g]
	it := Item{Ordinal: ord}
	nd := &t.nodes[n]
	if err := d.checkMixed(n); err != nil {
		return it, err
	}
	for i := nd.attr0; i < nd.attr0+nd.nattr; i++ {
		a := t.attr(i)
		if a.Name == spec.seqAttr && spec.seqAttr != "" {
			v, err := d.seq(n, a)
			if err != nil {
				return it, err
			}
			it.HasSeq, it.Seq, it.SeqRaw = true, v, a.Value
			continue
		}
		fs, ok := findSpec(spec.attrs, a.Name)
		if !ok {
			return it, newErr(ClassUnsupported, t.path(n)+"@"+a.Name, a.Value, "unknown attribute %s", a.Name)
		}
		f, err := d.value(a.Value, fs, n, a.Name)
		if err != nil {
			return it, err
		}
		it.Attrs = append(it.Attrs, NamedField{fs.name, f}) // the schema's name: see fields below
	}
	if nd.nchild > 0 {
		it.Fields = d.fields(int(nd.nchild))
	}
	for c := nd.first; c >= 0; c = t.nodes[c].next {
		name := t.name(c)
		fs, ok := findSpec(spec.children, name)
		if !ok {
			return it, newErr(ClassUnsupported, t.path(c), "", "unknown element <%s> in <%s>", name, spec.name)
		}
		for _, prev := range it.Fields {
			if prev.Name == name {
				return it, newErr(ClassProtocol, t.path(c), "", "duplicate <%s>", name)
			}
		}
		f, err := d.field(c, fs)
		if err != nil {
			return it, err
		}
		// The schema's name, not the message's text of it: a flight state
		// keeps the names as keys, and a substring of the message would
		// keep the whole message alive with the state.
		it.Fields = append(it.Fields, NamedField{fs.name, f})
	}
	switch {
	case spec.text:
		it.Text = Field{}
		if nd.nchild == 0 {
			f, _ := d.value(t.text(n), &fieldSpec{name: spec.name}, n, "")
			it.Text = f
		}
		it.empty = len(it.Attrs) == 0 && it.Text.Op != Set
	case nd.nchild == 0 && !isBlank(t.text(n)):
		return it, newErr(ClassCodec, t.path(n), t.text(n), "text directly inside <%s> is not handled", spec.name)
	default:
		it.empty = nd.nchild == 0
	}
	return it, nil
}

func findSpec(list []fieldSpec, name string) (*fieldSpec, bool) {
	for i := range list {
		if list[i].name == name {
			return &list[i], true
		}
	}
	return nil, false
}

// finishGroup applies the clear marker rule (docs/decode.md): a group sent
// as exactly one item with no content at all (no child element, no text,
// no attribute besides the sequence number, whatever that number is) is
// Replace(empty). An item that carries data is data, sequence number 0
// included. An empty item next to other items is neither a clear nor data
// (storing it would invent a blank row), so the message is refused.
func (d *decoder) finishGroup(rec int32, g GroupID, op *GroupOp) *Error {
	if len(op.Items) == 0 {
		return nil
	}
	op.Op = Replace
	if len(op.Items) == 1 && op.Items[0].empty {
		marker := op.Items[0]
		op.ClearMarker, op.Items = &marker, nil
		return nil
	}
	for i := range op.Items {
		if it := &op.Items[i]; it.empty {
			return newErr(ClassProtocol, d.itemPath(rec, g, i), it.SeqRaw,
				"an empty <%s> next to other items (only a lone empty <%s> clears the group)", g, g)
		}
	}
	return nil
}

// itemPath names the i-th (0-based) item of group g in record rec.
func (d *decoder) itemPath(rec int32, g GroupID, i int) string {
	k := 0
	for c := d.node(rec).first; c >= 0; c = d.node(c).next {
		if d.t.name(c) == groupSpecs[g].name {
			if k == i {
				return d.t.path(c)
			}
			k++
		}
	}
	return d.t.path(rec)
}

func (d *decoder) structOp(n int32, s StructID) (StructOp, *Error) {
	t := d.t
	nd := &t.nodes[n]
	if nd.nchild > 0 {
		return StructOp{}, newErr(ClassCodec, t.path(nd.first), "", "element <%s> inside <%s> is not handled", t.name(nd.first), t.name(n))
	}
	op := StructOp{Op: Set}
	for i := nd.attr0; i < nd.attr0+nd.nattr; i++ {
		a := t.attr(i)
		fs, ok := findSpec(structSpecs[s].attrs, a.Name)
		if !ok {
			return op, newErr(ClassUnsupported, t.path(n)+"@"+a.Name, a.Value, "unknown attribute %s", a.Name)
		}
		f, err := d.value(a.Value, fs, n, a.Name)
		if err != nil {
			return op, err
		}
		op.Attrs = append(op.Attrs, NamedField{fs.name, f}) // the schema's name, as an item's
	}
	if txt := t.text(n); !isBlank(txt) {
		op.Text = txt
	}
	if len(op.Attrs) == 0 && op.Text == "" {
		op.Op = Clear
	}
	return op, nil
}
