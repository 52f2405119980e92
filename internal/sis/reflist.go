package sis

import "strings"

// refList decodes a reference list message: RECS directly under MSG, then
// repeated <TYPE> records, each kept whole (canonical XML) with its key.
// Reference records have no fixed schema here: every child is kept, in
// order, so unknown children are never dropped.
func (d *decoder) refList(root int32, m *Message) *Error {
	typ, styp := m.Meta.Type, m.Meta.Subtype
	switch styp {
	case "DNLD", "RESP", "ADD", "UPD", "DEL":
	default:
		unsupportedSubtype(m)
		return nil
	}
	t := d.t
	rl := &RefList{Type: typ, Subtype: styp}
	recsNode := int32(-1)
	for c := t.nodes[root].first; c >= 0; c = t.nodes[c].next {
		switch t.name(c) {
		case "META":
		case "RECS":
			if recsNode >= 0 {
				return newErr(ClassProtocol, t.path(c), "", "duplicate RECS")
			}
			recsNode = c
		case typ:
			r, err := d.refRecord(c, len(rl.Records)+1)
			if err != nil {
				return err
			}
			rl.Records = append(rl.Records, r)
		default:
			return d.unexpected(c, "a "+typ+" list message")
		}
	}
	if recsNode >= 0 {
		v, raw, err := d.recs(recsNode)
		if err != nil {
			return err
		}
		rl.HasRecs, rl.Recs, rl.RecsRaw = true, v, raw
		if v != len(rl.Records) {
			return d.recsMismatch(recsNode, v, len(rl.Records), typ)
		}
	} else if styp == "DNLD" || styp == "RESP" {
		return newErr(ClassProtocol, "MSG", "", "no RECS in a %s %s list", typ, styp)
	}
	m.Kind, m.Ref = KindReference, rl
	return nil
}

func (d *decoder) refRecord(n int32, ord int) (RefRecord, *Error) {
	t := d.t
	nd := &t.nodes[n]
	r := RefRecord{Ordinal: ord}
	if err := d.checkMixed(n); err != nil {
		return r, err
	}
	if nd.nchild == 0 {
		return r, newErr(ClassProtocol, t.path(n), t.text(n), "reference record has no key element")
	}
	r.Attrs = append(r.Attrs, t.attrsOf(n)...)
	r.Fields = make([]RefField, 0, nd.nchild)
	for c := nd.first; c >= 0; c = t.nodes[c].next {
		cn := &t.nodes[c]
		if err := d.checkMixed(c); err != nil {
			return r, err
		}
		f := RefField{Name: t.name(c), Value: t.text(c)}
		if cn.nattr > 0 {
			f.Attrs = append(f.Attrs, t.attrsOf(c)...)
		}
		if cn.nchild > 0 {
			var b strings.Builder
			t.canon(&b, c)
			f.XML = b.String()
		}
		r.Fields = append(r.Fields, f)
	}
	r.KeyName, r.Key = t.name(nd.first), trim(t.text(nd.first))
	if r.Key == "" {
		return r, newErr(ClassProtocol, t.path(nd.first), t.text(nd.first), "reference record key <%s> is empty", r.KeyName)
	}
	var b strings.Builder
	t.canon(&b, n)
	r.XML = b.String()
	return r, nil
}
