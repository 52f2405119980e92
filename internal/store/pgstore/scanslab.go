package pgstore

import (
	"time"

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
