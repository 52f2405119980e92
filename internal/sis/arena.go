package sis

import "slices"

// fields returns an empty slice of capacity n carved from the arena.
func (d *decoder) fields(n int) []NamedField {
	if cap(d.fieldChunk)-len(d.fieldChunk) < n {
		d.fieldChunk = make([]NamedField, 0, max(grow(cap(d.fieldChunk), n, 4096), n))
	}
	l := len(d.fieldChunk)
	d.fieldChunk = d.fieldChunk[:l+n]
	return d.fieldChunk[l : l : l+n]
}

// items copies src into a slice carved from the arena.
func (d *decoder) items(src []Item) []Item { return carve(&d.itemChunk, src, 1024) }

// carve copies src into a slice carved from *chunk, starting a chunk of the
// next size when it is full: a record's entries share their chunk's array
// instead of allocating one each. The first chunk is the first record's
// size: a message of one record (a FLOP) allocates what it holds, not a
// chunk for many.
func carve[T any](chunk *[]T, src []T, limit int) []T {
	n := len(src)
	if n == 0 {
		return nil
	}
	if cap(*chunk)-len(*chunk) < n {
		*chunk = make([]T, 0, max(grow(cap(*chunk), n, limit), n))
	}
	l := len(*chunk)
	*chunk = append(*chunk, src...)
	return (*chunk)[l : l+n : l+n]
}

// ops carves src, sorted by id in place, into Ops.
func ops[K ~uint8, V any](chunk *[]Entry[K, V], src []Entry[K, V], limit int) Ops[K, V] {
	slices.SortFunc(src, func(a, b Entry[K, V]) int { return int(a.ID) - int(b.ID) })
	return Ops[K, V]{entries: carve(chunk, src, limit)}
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
