package sis

// Message bodies: SCHD, FLOP, FDEL and our own requests (reference
// lists are in reflist.go, flight records in record.go).

func (d *decoder) schedule(root int32, m *Message) *Error {
	styp := m.Meta.Subtype
	switch styp {
	case "DNLD", "RESP", "ADFT", "UPD", "DEL":
	default:
		unsupportedSubtype(m)
		return nil
	}
	t := d.t
	s := &Schedule{Subtype: styp}
	body, recsNode := int32(-1), int32(-1)
	for c := t.nodes[root].first; c >= 0; c = t.nodes[c].next {
		switch t.name(c) {
		case "META":
		case "SCHD":
			if body >= 0 {
				return newErr(ClassProtocol, t.path(c), "", "more than one SCHD body")
			}
			body = c
		case "RECS": // lenient: RECS next to SCHD instead of inside it
			if recsNode >= 0 {
				return newErr(ClassProtocol, t.path(c), "", "duplicate RECS")
			}
			recsNode = c
		default:
			return d.unexpected(c, "a SCHD message")
		}
	}
	if body < 0 {
		return newErr(ClassProtocol, "MSG", "", "no SCHD body")
	}
	if err := d.noAttrs(body); err != nil {
		return err
	}
	if err := d.container(body); err != nil {
		return err
	}
	ord := 0
	for c := t.nodes[body].first; c >= 0; c = t.nodes[c].next {
		switch t.name(c) {
		case "RECS":
			if recsNode >= 0 {
				return newErr(ClassProtocol, t.path(c), "", "duplicate RECS")
			}
			recsNode = c
		case "FLTR":
			ord++
			rec, err := d.flightRecord(c, ord, nil, false)
			if err != nil {
				return err
			}
			s.Flights = append(s.Flights, rec)
		default:
			return d.unexpected(c, "SCHD")
		}
	}
	if recsNode >= 0 {
		v, raw, err := d.recs(recsNode)
		if err != nil {
			return err
		}
		s.HasRecs, s.Recs, s.RecsRaw = true, v, raw
		if v != len(s.Flights) {
			return d.recsMismatch(recsNode, v, len(s.Flights), "FLTR")
		}
	} else if s.Snapshot() {
		return newErr(ClassProtocol, "MSG/SCHD", "", "no RECS in a %s snapshot", styp)
	}
	if err := d.uniqueFlights(body, s); err != nil {
		return err
	}
	m.Kind, m.Schedule = KindSchedule, s
	return nil
}

func (d *decoder) flightOps(root int32, m *Message) *Error {
	styp := m.Meta.Subtype
	group, ok := flopSubtypes[styp]
	if !ok {
		unsupportedSubtype(m)
		return nil
	}
	t := d.t
	// Most FLOPs carry one record: the ops and a list of one in one
	// allocation (a second record grows the list as append does).
	withOne := &struct {
		ops FlightOps
		one [1]*FlightRecord
	}{ops: FlightOps{Group: styp}}
	ops := &withOne.ops
	ops.Records = withOne.one[:0]
	for c := t.nodes[root].first; c >= 0; c = t.nodes[c].next {
		switch t.name(c) {
		case "META":
		case "FLOP":
			rec, err := d.flightRecord(c, len(ops.Records)+1, group, false)
			if err != nil {
				return err
			}
			ops.Records = append(ops.Records, rec)
		default:
			return d.unexpected(c, "a FLOP message")
		}
	}
	if len(ops.Records) == 0 {
		return newErr(ClassProtocol, "MSG", "", "no FLOP record")
	}
	m.Kind, m.FlightOps = KindFlightOps, ops
	return nil
}

// flightDelete reads FLOP/FDEL (records <FLOP>) and the standalone
// TYPE=FDEL (records <FLOP> or <FDEL>, or FLID/FFID directly under MSG).
func (d *decoder) flightDelete(root int32, m *Message, form string) *Error {
	t := d.t
	del := &FlightDelete{Form: form}
	add := func(c int32, skipMeta bool) *Error {
		rec, err := d.flightRecord(c, len(del.Records)+1, flopSubtypes["FDEL"], skipMeta)
		if err != nil {
			return err
		}
		del.Records = append(del.Records, DeleteRecord{Ordinal: rec.Ordinal, FLID: rec.FLID, FLIDRaw: rec.FLIDRaw, FFID: rec.FFID})
		return nil
	}
	flat := false
	for c := t.nodes[root].first; c >= 0; c = t.nodes[c].next {
		name := t.name(c)
		switch {
		case name == "META":
		case name == "FLOP" || (form == "FDEL" && name == "FDEL"):
			if err := add(c, false); err != nil {
				return err
			}
		case form == "FDEL" && (name == "FLID" || name == "FFID"):
			flat = true
		default:
			return d.unexpected(c, "a "+form+" message")
		}
	}
	if flat {
		if len(del.Records) > 0 {
			return newErr(ClassProtocol, "MSG", "", "FLID directly under MSG next to FDEL records")
		}
		if err := add(root, true); err != nil {
			return err
		}
	}
	if len(del.Records) == 0 {
		return newErr(ClassProtocol, "MSG", "", "no flight to delete")
	}
	m.Kind, m.Delete = KindFlightDelete, del
	return nil
}

func (d *decoder) request(root int32, m *Message) *Error {
	t := d.t
	typ := m.Meta.Type
	req := &Request{Type: typ}
	body := int32(-1)
	for c := t.nodes[root].first; c >= 0; c = t.nodes[c].next {
		switch t.name(c) {
		case "META":
		case typ:
			if body >= 0 {
				return newErr(ClassProtocol, t.path(c), "", "more than one %s body", typ)
			}
			body = c
		default:
			return d.unexpected(c, "a "+typ+" message")
		}
	}
	if body < 0 {
		return newErr(ClassProtocol, "MSG", "", "no %s body", typ)
	}
	if err := d.noAttrs(body); err != nil {
		return err
	}
	if err := d.container(body); err != nil {
		return err
	}
	for c := t.nodes[body].first; c >= 0; c = t.nodes[c].next {
		var dst *Field
		typ2 := TypeTime
		switch name := t.name(c); {
		case typ == "RQFD" && name == "STDB":
			dst = &req.Begin
		case typ == "RQFD" && name == "STDE":
			dst = &req.End
		case typ == "RQRD" && name == "RTYP":
			dst, typ2 = &req.ListCode, TypeText
		default:
			return newErr(ClassUnsupported, t.path(c), "", "unknown element <%s> in %s", name, typ)
		}
		if dst.Op != Unchanged {
			return newErr(ClassProtocol, t.path(c), "", "duplicate <%s>", t.name(c))
		}
		f, err := d.field(c, &fieldSpec{name: t.name(c), typ: typ2})
		if err != nil {
			return err
		}
		*dst = f
	}
	m.Kind, m.Request = KindRequest, req
	return nil
}
