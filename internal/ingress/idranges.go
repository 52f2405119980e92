package ingress

// idRange is the ids from..to, both included.
type idRange struct{ from, to int64 }

// idRanges is a set of ids kept as sorted, disjoint, non-adjacent ranges:
// what the poller has seen behind its watermark (a drain of consecutive ids
// is one range).
type idRanges []idRange

// add puts from..to in the set.
func (s *idRanges) add(from, to int64) {
	if n := len(*s); n > 0 && (*s)[n-1].to >= from-1 && (*s)[n-1].from <= from {
		(*s)[n-1].to = max((*s)[n-1].to, to) // the usual case: the next ids
		return
	}
	out := make(idRanges, 0, len(*s)+1)
	i := 0
	for ; i < len(*s) && (*s)[i].to < from-1; i++ {
		out = append(out, (*s)[i])
	}
	r := idRange{from, to}
	for ; i < len(*s) && (*s)[i].from <= to+1; i++ {
		r.from, r.to = min(r.from, (*s)[i].from), max(r.to, (*s)[i].to)
	}
	out = append(out, r)
	*s = append(out, (*s)[i:]...)
}

// trimBelow drops the ids below lo.
func (s *idRanges) trimBelow(lo int64) {
	i := 0
	for i < len(*s) && (*s)[i].to < lo {
		i++
	}
	*s = (*s)[i:]
	if len(*s) > 0 && (*s)[0].from < lo {
		(*s)[0].from = lo
	}
}

// unseen lists the runs of ids in from..to that are not in the set.
func (s idRanges) unseen(from, to int64) []idRange {
	var out []idRange
	next := from
	for _, r := range s {
		if r.to < next {
			continue
		}
		if r.from > to {
			break
		}
		if r.from > next {
			out = append(out, idRange{next, r.from - 1})
		}
		next = r.to + 1
	}
	if next <= to {
		out = append(out, idRange{next, to})
	}
	return out
}
