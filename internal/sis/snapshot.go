package sis

// uniqueFlights refuses a snapshot (DNLD/RESP) that names a flight twice
// (docs/design.md rule 15): a snapshot is the set of a day's flights, so a
// second record of one FLID has no meaning there (and its generation's
// membership could not hold it). Other schedule subtypes and FLOP apply
// repeated records in order.
func (d *decoder) uniqueFlights(body int32, s *Schedule) *Error {
	if !s.Snapshot() || len(s.Flights) < 2 {
		return nil
	}
	first := make(map[int64]int, len(s.Flights))
	for _, rec := range s.Flights {
		if ord, dup := first[rec.FLID]; dup {
			return newErr(ClassProtocol, d.t.path(d.nthChild(body, "FLTR", rec.Ordinal))+"/FLID", rec.FLIDRaw,
				"FLID %d is named twice in the %s snapshot (FLTR %d and %d)", rec.FLID, s.Subtype, ord, rec.Ordinal)
		}
		first[rec.FLID] = rec.Ordinal
	}
	return nil
}

// nthChild is the n-th (1-based) child of parent named name.
func (d *decoder) nthChild(parent int32, name string, n int) int32 {
	t := d.t
	for c := t.nodes[parent].first; c >= 0; c = t.nodes[c].next {
		if t.name(c) == name {
			if n--; n == 0 {
				return c
			}
		}
	}
	return parent
}
