package sis

import "iter"

// Ops are a record's operations on one kind of element (scalars, groups,
// structures or payloads), by element id. Only the elements the record
// carries are held, in id order: a record costs what it carries, not the
// width of the schema (53 scalars, 10 groups, 3 structures, 6 payloads), so
// a FLOP record of one value holds one entry. The zero value holds none; an
// id the record does not carry reads as the zero operation (Unchanged).
type Ops[K ~uint8, V any] struct {
	entries []Entry[K, V]
}

// Entry is one operation of Ops.
type Entry[K ~uint8, V any] struct {
	ID K
	Op V
}

// Get returns the operation on id (the zero value, Unchanged, if absent).
func (o Ops[K, V]) Get(id K) V {
	for _, e := range o.entries {
		if e.ID == id {
			return e.Op
		}
		if e.ID > id {
			break
		}
	}
	var zero V
	return zero
}

// Set sets the operation on id, keeping id order. It writes a fresh array:
// the entries may be shared with a copy of the record or carved from a
// decoder's arena.
func (o *Ops[K, V]) Set(id K, v V) {
	i := 0
	for ; i < len(o.entries) && o.entries[i].ID < id; i++ {
	}
	rest := o.entries[i:]
	if len(rest) > 0 && rest[0].ID == id {
		rest = rest[1:]
	}
	entries := make([]Entry[K, V], 0, i+1+len(rest))
	entries = append(entries, o.entries[:i]...)
	entries = append(entries, Entry[K, V]{id, v})
	o.entries = append(entries, rest...)
}

// Has reports whether the record carries an operation on id.
func (o Ops[K, V]) Has(id K) bool {
	for _, e := range o.entries {
		if e.ID == id {
			return true
		}
	}
	return false
}

// All yields the operations the record carries, in id order.
func (o Ops[K, V]) All() iter.Seq2[K, V] {
	return func(yield func(K, V) bool) {
		for _, e := range o.entries {
			if !yield(e.ID, e.Op) {
				return
			}
		}
	}
}

// Len is the number of operations the record carries.
func (o Ops[K, V]) Len() int { return len(o.entries) }
