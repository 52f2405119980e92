package compare

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/msgx-aodb/msgx/internal/flight"
)

// Values as text for a report line; nil is NULL.

func str(s string) *string { return &s }

func opt(s string, ok bool) *string {
	if !ok {
		return nil
	}
	return &s
}

func num(n int64) *string { return str(strconv.FormatInt(n, 10)) }

func num32(n *int32) *string {
	if n == nil {
		return nil
	}
	return num(int64(*n))
}

func seq(n *int64) *string {
	if n == nil {
		return nil
	}
	return num(*n)
}

// stamp renders an instant in UTC (the two sides may hold it in other zones).
func stamp(t *time.Time) *string {
	if t == nil {
		return nil
	}
	return str(t.UTC().Format(time.RFC3339Nano))
}

func raw(v *flight.Value) *string {
	if v == nil {
		return nil
	}
	return &v.Raw
}

func scalar(s *flight.State, name string) *flight.Value {
	if v, ok := s.Scalars[name]; ok {
		return &v
	}
	return nil
}

func field(it flight.Item, name string) *flight.Value {
	if v, ok := it.Fields[name]; ok {
		return &v
	}
	return nil
}

func attrOf(s flight.Struct, name string) *string {
	if v, ok := s.Attrs[name]; ok {
		return &v
	}
	return nil
}

// structAttrs are the known attributes of a structure, then any other either
// side has (sorted): nothing present is left out.
func structAttrs(name string, a, b flight.Struct) []string {
	return withExtra(flight.StructAttrs[name], a.Attrs, b.Attrs)
}

// itemFields are the group's known fields, then any other either item has.
func itemFields(g string, a, b flight.Item) []string {
	return withExtra(flight.GroupFields[g], a.Fields, b.Fields)
}

func withExtra[V any](known []string, a, b map[string]V) []string {
	out := slices.Clone(known)
	var extra []string
	for _, m := range []map[string]V{a, b} {
		for k := range m {
			if !slices.Contains(out, k) && !slices.Contains(extra, k) {
				extra = append(extra, k)
			}
		}
	}
	slices.Sort(extra)
	return append(out, extra...)
}

// itemText renders a whole item: SOURCE_SEQ and every field present, raw
// with its parsed forms, e.g. `SOURCE_SEQ=2 GATE="G2" PGOT="010800"(time=...)`.
func itemText(g string, it flight.Item) string {
	var b strings.Builder
	b.WriteString("SOURCE_SEQ=")
	if it.SourceSeq == nil {
		b.WriteString("NULL")
	} else {
		b.WriteString(strconv.FormatInt(*it.SourceSeq, 10))
	}
	for _, f := range itemFields(g, it, flight.Item{}) {
		v, ok := it.Fields[f]
		if !ok {
			continue
		}
		b.WriteString(" " + f + "=" + strconv.Quote(v.Raw))
		if v.Time != nil {
			b.WriteString("(time=" + v.Time.UTC().Format(time.RFC3339Nano) + ")")
		}
		if v.Minutes != nil {
			b.WriteString("(minutes=" + strconv.Itoa(int(*v.Minutes)) + ")")
		}
		if v.Days != nil {
			b.WriteString("(days=" + strconv.Itoa(int(*v.Days)) + ")")
		}
	}
	return b.String()
}

// listText renders a list in order: "1: item; 2: item".
func listText(g string, items []flight.Item) string {
	parts := make([]string, len(items))
	for i, it := range items {
		parts[i] = strconv.Itoa(i+1) + ": " + itemText(g, it)
	}
	return strings.Join(parts, "; ")
}
