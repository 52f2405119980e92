package sis

// fields returns an empty slice of capacity n carved from the arena.
func (d *decoder) fields(n int) []NamedField {
	if cap(d.fieldChunk)-len(d.fieldChunk) < n {
		d.fieldChunk = make([]NamedField, 0, max(grow(cap(d.fieldChunk), 16, 4096), n))
	}
	l := len(d.fieldChunk)
	d.fieldChunk = d.fieldChunk[:l+n]
	return d.fieldChunk[l : l : l+n]
}

// items copies src into a slice carved from the arena.
func (d *decoder) items(src []Item) []Item {
	n := len(src)
	if cap(d.itemChunk)-len(d.itemChunk) < n {
		d.itemChunk = make([]Item, 0, max(grow(cap(d.itemChunk), 4, 1024), n))
	}
	l := len(d.itemChunk)
	d.itemChunk = append(d.itemChunk, src...)
	return d.itemChunk[l : l+n : l+n]
}

// grow doubles a chunk size from first up to limit: small messages stay
// small, large ones amortise.
func grow(prev, first, limit int) int {
	if prev == 0 {
		return first
	}
	return min(2*prev, limit)
}

func (d *decoder) newRecord() *FlightRecord {
	if len(d.recChunk) == cap(d.recChunk) {
		d.recChunk = make([]FlightRecord, 0, grow(cap(d.recChunk), 1, 64))
	}
	d.recChunk = d.recChunk[:len(d.recChunk)+1]
	return &d.recChunk[len(d.recChunk)-1]
}
