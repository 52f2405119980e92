package pgstore

import (
	"time"
	"unsafe"

	"github.com/jackc/pgx/v5/pgtype"
)

// slabLen is how many values of a type one allocation holds when nullable
// columns are read. Small: the values a long-lived state keeps (the pump's
// cache) keep their whole slab alive.
const slabLen = 16

// tryPointerSlab scans a nullable column into a generated row's pointer
// field (**string, **time.Time, **int32, **int64) from a slab of values,
// where pgx's own plan (pgtype.TryPointerPointerScanPlan) allocates each
// value alone: a flight read back is ~50 non-NULL nullable columns over its
// row and detail rows, a quarter of what a resend allocates (issue #34).
// The plan is the connection's (pgx memoizes plans per type map), used by
// one query at a time; each value is handed out once, never written again.
func tryPointerSlab(target any) (plan pgtype.WrappedScanPlanNextSetter, nextTarget any, ok bool) {
	switch target.(type) {
	case **string:
		return &slabScanPlan[string]{}, (*string)(nil), true
	case **time.Time:
		return &slabScanPlan[time.Time]{}, (*time.Time)(nil), true
	case **int32:
		return &slabScanPlan[int32]{}, (*int32)(nil), true
	case **int64:
		return &slabScanPlan[int64]{}, (*int64)(nil), true
	}
	return nil, nil, false
}

type slabScanPlan[T any] struct {
	next pgtype.ScanPlan
	free []T
}

func (p *slabScanPlan[T]) SetNext(next pgtype.ScanPlan) { p.next = next }

func (p *slabScanPlan[T]) Scan(src []byte, dst any) error {
	d := dst.(**T)
	if src == nil {
		*d = nil
		return nil
	}
	if len(p.free) == 0 {
		p.free = make([]T, slabLen)
	}
	v := &p.free[0]
	if err := p.next.Scan(src, v); err != nil {
		*v = *new(T) // not handed out: the next value reuses it
		return err
	}
	p.free = p.free[1:]
	*d = v
	return nil
}

// textSlabLen is the size of a slab of text bytes; a value over an eighth
// of it is allocated alone.
const textSlabLen = 1024

// textCodec is pgx's TextCodec (text, varchar, bpchar, name) but for a
// nullable column read into a *string field, whose string and bytes it takes
// from slabs (textSlabPlan): pgx's plan allocates both for each value.
type textCodec struct{ pgtype.TextCodec }

func (c textCodec) PlanScan(m *pgtype.Map, oid uint32, format int16, target any) pgtype.ScanPlan {
	if _, ok := target.(**string); ok && (format == pgtype.TextFormatCode || format == pgtype.BinaryFormatCode) {
		return &textSlabPlan{}
	}
	return c.TextCodec.PlanScan(m, oid, format, target)
}

// textSlabPlan scans text, in either format the bytes themselves (as
// TextCodec does), into a **string. A slab's bytes are appended to, never
// written again: the strings handed out stay as they were read.
type textSlabPlan struct {
	values slabScanPlan[string]
	bytes  []byte
}

func (p *textSlabPlan) Scan(src []byte, dst any) error {
	d := dst.(**string)
	if src == nil {
		*d = nil
		return nil
	}
	if len(p.values.free) == 0 {
		p.values.free = make([]string, slabLen)
	}
	v := &p.values.free[0]
	p.values.free = p.values.free[1:]
	switch {
	case len(src) == 0:
		*v = ""
	case len(src) > textSlabLen/8:
		*v = string(src)
	default:
		if cap(p.bytes)-len(p.bytes) < len(src) {
			p.bytes = make([]byte, 0, textSlabLen)
		}
		at := len(p.bytes)
		p.bytes = append(p.bytes, src...)
		*v = unsafe.String(&p.bytes[at], len(src))
	}
	*d = v
	return nil
}

// registerTextSlabs puts textCodec in place of m's TextCodec for the text
// types.
func registerTextSlabs(m *pgtype.Map) {
	for _, oid := range []uint32{pgtype.TextOID, pgtype.VarcharOID, pgtype.BPCharOID, pgtype.NameOID} {
		if t, ok := m.TypeForOID(oid); ok {
			if _, plain := t.Codec.(pgtype.TextCodec); plain {
				m.RegisterType(&pgtype.Type{Name: t.Name, OID: t.OID, Codec: textCodec{}})
			}
		}
	}
}
