package sis

import "strings"

// payload validates every element of one payload kind in a record and
// keeps them, in input order, as canonical XML (spec §3: collections kept
// as raw payload, validated on input). The clear marker rule is the one of
// groups (finishGroup): one element with no content at all clears; an
// element with data is data, PSHN="0" included.
func (d *decoder) payload(p PayloadID, nodes []int32) (PayloadOp, *Error) {
	spec := payloadSpecs[p]
	emptyAt := -1
	for i, n := range nodes {
		empty, err := d.validatePayload(n, spec, 0)
		if err != nil {
			return PayloadOp{}, err
		}
		if empty && emptyAt < 0 {
			emptyAt = i
		}
	}
	var b strings.Builder
	if emptyAt >= 0 {
		if len(nodes) > 1 {
			return PayloadOp{}, newErr(ClassProtocol, d.t.path(nodes[emptyAt]), "",
				"an empty <%s> next to other items (only a lone empty <%s> clears the collection)", spec.name, spec.name)
		}
		d.t.canonEmpty(&b, nodes[0])
		return PayloadOp{Op: Replace, ClearMarker: b.String()}, nil
	}
	for _, n := range nodes {
		d.t.canon(&b, n)
	}
	return PayloadOp{Op: Replace, Count: len(nodes), XML: b.String()}, nil
}

// validatePayload checks one payload element against its spec: known
// children only, time leaves parse, sequence attribute numeric. empty: no
// child, no text and no attribute besides the sequence number.
func (d *decoder) validatePayload(n int32, spec *payloadSpec, depth int) (empty bool, err *Error) {
	t := d.t
	nd := &t.nodes[n]
	if e := d.checkMixed(n); e != nil {
		return false, e
	}
	seqAttrs := int32(0)
	for i := nd.attr0; i < nd.attr0+nd.nattr; i++ {
		a := t.attr(i)
		switch {
		case a.Name == spec.seqAttr && spec.seqAttr != "":
			if _, e := d.seq(n, a); e != nil {
				return false, e
			}
			seqAttrs++
		case spec.generic:
		default:
			return false, newErr(ClassUnsupported, t.path(n)+"@"+a.Name, a.Value, "unknown attribute %s", a.Name)
		}
	}
	if nd.nchild == 0 {
		if txt := t.text(n); !isBlank(txt) {
			return false, newErr(ClassCodec, t.path(n), txt, "text directly inside <%s> is not handled", spec.name)
		}
		return nd.nattr == seqAttrs, nil
	}
	for c := nd.first; c >= 0; c = t.nodes[c].next {
		cn := &t.nodes[c]
		if spec.generic {
			if cn.nchild > 0 {
				if depth > 0 {
					return false, newErr(ClassCodec, t.path(cn.first), "", "nesting inside <%s> is not handled", spec.name)
				}
				if _, e := d.validatePayload(c, spec, depth+1); e != nil {
					return false, e
				}
			}
			continue
		}
		if fs, ok := findSpec(spec.leaves, t.name(c)); ok {
			if _, e := d.field(c, fs); e != nil {
				return false, e
			}
			continue
		}
		found := false
		for _, ns := range spec.nested {
			if ns.name == t.name(c) {
				if _, e := d.validatePayload(c, ns, depth+1); e != nil {
					return false, e
				}
				found = true
			}
		}
		if !found {
			return false, newErr(ClassUnsupported, t.path(c), "", "unknown element <%s> in <%s>", t.name(c), spec.name)
		}
	}
	return false, nil
}
