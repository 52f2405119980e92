// Package compare checks two sets of flight states field by field (the
// cutover "对拍" of docs/reporting.md): every scalar raw and parsed, every
// structure, every detail list (count, order, ORDINAL, SOURCE_SEQ, each
// attribute), every payload, lifecycle, the bookkeeping columns and, when
// given, each flight's latest published KAFKA:msg event. NULL (a value
// never sent or cleared) and an empty value are different. Nothing is
// skipped unless an Options field says so, and the report lists every such
// rule, so a report can never be "green" by omission (msgx compare leaves
// the bookkeeping out unless --strict, and says so).
//
// Compare is pure: the states come from the databases (Load, one snapshot
// per database) or from a DNLD/RESP file (FromSnapshot).
package compare

import (
	"slices"
	"time"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/mapkeys"
)

// Kinds of difference.
const (
	KindValue = "value" // both sides have a value, and they differ
	KindNull  = "null"  // one side has no value (NULL / absent), the other has one (empty included)
	KindCount = "count" // a detail list has a different number of items
	KindOrder = "order" // a detail list has the same items in another order
	KindExtra = "extra" // an item (by ORDINAL) exists on one side only
	KindOnlyA = "only_in_a"
	KindOnlyB = "only_in_b"
)

// GroupFlight names the flight row itself (scalars, lifecycle, bookkeeping);
// GroupPayload the verbatim payload collections. Structures and detail lists
// go by their SIS names (FDIV, GTDT, ...).
const (
	GroupFlight  = "FLIGHT"
	GroupPayload = "PAYLOAD"
)

// Bookkeeping are the columns two independently fed databases legitimately
// disagree on (versions count their own messages, timestamps are their own
// write times, message ids their own mailbox). They are compared unless
// Options.Ignore names them; so are the payload fields of the same names.
var Bookkeeping = []string{"state_version", "last_message_id", "created_at", "updated_at", "deleted_at"}

// Diff is one difference. A and B are the two values as text; nil is NULL
// (absent). Item is the ORDINAL (1-based) for detail lists, 0 otherwise.
type Diff struct {
	FLID  int64   `json:"flid"`
	Group string  `json:"group"`
	Item  int     `json:"item,omitempty"`
	Field string  `json:"field"`
	Kind  string  `json:"kind"`
	A     *string `json:"a"`
	B     *string `json:"b"`
}

// Mask limits the comparison of one flight to what a side actually carries
// (a DNLD record): only the named scalars, structures, groups and payloads,
// plus lifecycle and operation day. Nil compares everything.
type Mask struct {
	Scalars, Structs, Groups, Payloads map[string]bool
}

// Options are the comparison's exclusions; each is printed in the summary.
type Options struct {
	// Ignore names bookkeeping columns (of Bookkeeping) not to compare.
	Ignore []string
	// Masks, per FLID of B, limit what is compared to what B carries; a
	// flight of A without a mask is compared whole. Set by FromSnapshot.
	Masks map[int64]*Mask
	// OutboundA and OutboundB, when both set, are the sides' latest
	// KAFKA:msg events by FLID (Side.Outbound): a flight on both sides is
	// compared by its event too, the Ignore'd bookkeeping fields of the
	// payload left out like the columns.
	OutboundA, OutboundB map[int64]Outbound
	// Progress, when set, is called once per flight compared.
	Progress func()
}

// Summary counts the outcome. Flights is every FLID of either side.
type Summary struct {
	Flights     int `json:"flights"`
	Equal       int `json:"equal"`
	Differing   int `json:"differing"`
	OnlyInA     int `json:"only_in_a"`
	OnlyInB     int `json:"only_in_b"`
	Differences int `json:"differences"`
}

// Compare returns every difference between a and b (keyed by FLID), in FLID
// order and, within a flight, in the order of the state model.
func Compare(a, b map[int64]*flight.State, opt Options) ([]Diff, Summary) {
	ignore := map[string]bool{}
	for _, f := range opt.Ignore {
		ignore[f] = true
	}
	flids := mapkeys.Union(a, b)

	var diffs []Diff
	sum := Summary{Flights: len(flids)}
	for _, id := range flids {
		sa, sb := a[id], b[id]
		switch {
		case sb == nil:
			sum.OnlyInA++
			diffs = append(diffs, Diff{FLID: id, Group: GroupFlight, Field: "flight", Kind: KindOnlyA, A: str(sa.Lifecycle)})
		case sa == nil:
			sum.OnlyInB++
			diffs = append(diffs, Diff{FLID: id, Group: GroupFlight, Field: "flight", Kind: KindOnlyB, B: str(sb.Lifecycle)})
		default:
			d := flightDiffs(id, sa, sb, opt.Masks[id], ignore)
			if opt.OutboundA != nil && opt.OutboundB != nil {
				c := &collector{flid: id}
				c.outbound(outboundOf(opt.OutboundA, id), outboundOf(opt.OutboundB, id), ignore)
				d = append(d, c.diffs...)
			}
			if len(d) == 0 {
				sum.Equal++
			} else {
				sum.Differing++
				diffs = append(diffs, d...)
			}
		}
		if opt.Progress != nil {
			opt.Progress()
		}
	}
	sum.Differences = len(diffs)
	return diffs, sum
}

// flightDiffs compares two states of one flight.
func flightDiffs(id int64, a, b *flight.State, mask *Mask, ignore map[string]bool) []Diff {
	c := &collector{flid: id}
	c.group = GroupFlight
	c.text("lifecycle", str(a.Lifecycle), str(b.Lifecycle))
	c.text("operation_day", day(&a.OperationDay), day(&b.OperationDay))
	if mask == nil {
		c.text("fday", day(a.FDay), day(b.FDay))
		book := map[string][2]*string{
			"state_version":   {num(a.StateVersion), num(b.StateVersion)},
			"last_message_id": {num(a.LastMessageID), num(b.LastMessageID)},
			"created_at":      {stamp(&a.CreatedAt), stamp(&b.CreatedAt)},
			"updated_at":      {stamp(&a.UpdatedAt), stamp(&b.UpdatedAt)},
			"deleted_at":      {stamp(a.DeletedAt), stamp(b.DeletedAt)},
		}
		for _, f := range Bookkeeping {
			if !ignore[f] {
				c.text(f, book[f][0], book[f][1])
			}
		}
	}
	for _, name := range flight.ScalarNames {
		if mask == nil || mask.Scalars[name] {
			c.value(name, scalar(a, name), scalar(b, name))
		}
	}
	for _, name := range flight.Structs {
		if mask == nil || mask.Structs[name] {
			c.structure(name, a.Structs[name], b.Structs[name])
		}
	}
	for _, g := range flight.Groups {
		if mask == nil || mask.Groups[g] {
			c.list(g, a.Groups[g], b.Groups[g])
		}
	}
	c.group = GroupPayload
	for _, k := range flight.PayloadKinds {
		if mask == nil || mask.Payloads[k] {
			pa, oka := a.Payloads[k]
			pb, okb := b.Payloads[k]
			c.text(k+".format", opt(pa.Format, oka), opt(pb.Format, okb))
			c.text(k+".content", opt(pa.Content, oka), opt(pb.Content, okb))
		}
	}
	return c.diffs
}

func outboundOf(m map[int64]Outbound, id int64) *Outbound {
	if o, ok := m[id]; ok {
		return &o
	}
	return nil
}

// collector accumulates the differences of one flight.
type collector struct {
	flid  int64
	group string
	item  int
	diffs []Diff
}

func (c *collector) add(field, kind string, a, b *string) {
	c.diffs = append(c.diffs, Diff{FLID: c.flid, Group: c.group, Item: c.item, Field: field, Kind: kind, A: a, B: b})
}

// text compares two optional texts: NULL against anything is KindNull.
func (c *collector) text(field string, a, b *string) {
	switch {
	case a == nil && b == nil:
	case a == nil || b == nil:
		c.add(field, KindNull, a, b)
	case *a != *b:
		c.add(field, KindValue, a, b)
	}
}

// value compares a SIS value: the raw text under the field's name, each
// parsed form under name.time, name.minutes, name.days.
func (c *collector) value(name string, a, b *flight.Value) {
	if a == nil || b == nil {
		c.text(name, raw(a), raw(b))
		return
	}
	c.text(name, &a.Raw, &b.Raw)
	c.text(name+".time", stamp(a.Time), stamp(b.Time))
	c.text(name+".minutes", num32(a.Minutes), num32(b.Minutes))
	c.text(name+".days", num32(a.Days), num32(b.Days))
}

func (c *collector) structure(name string, a, b flight.Struct) {
	c.group = name
	c.text("text", a.Text, b.Text)
	for _, attr := range structAttrs(name, a, b) {
		c.text(attr, attrOf(a, attr), attrOf(b, attr))
	}
	c.group = GroupFlight
}

// list compares a detail list: item by item (by ORDINAL) unless the two
// lists hold the same items in another order, which is one KindOrder.
func (c *collector) list(g string, a, b []flight.Item) {
	c.group = g
	defer func() { c.group, c.item = GroupFlight, 0 }()
	if len(a) != len(b) {
		c.add("count", KindCount, num(int64(len(a))), num(int64(len(b))))
	}
	if len(a) == len(b) && len(a) > 1 && !itemsEqual(a, b) && sameItems(a, b) {
		c.add("order", KindOrder, str(listText(g, a)), str(listText(g, b)))
		return
	}
	for i := 0; i < max(len(a), len(b)); i++ {
		c.item = i + 1
		switch {
		case i >= len(b):
			c.add("item", KindExtra, str(itemText(g, a[i])), nil)
		case i >= len(a):
			c.add("item", KindExtra, nil, str(itemText(g, b[i])))
		default:
			c.text("SOURCE_SEQ", seq(a[i].SourceSeq), seq(b[i].SourceSeq))
			for _, f := range itemFields(g, a[i], b[i]) {
				c.value(f, field(a[i], f), field(b[i], f))
			}
		}
	}
}

func itemsEqual(a, b []flight.Item) bool {
	return slices.EqualFunc(a, b, func(x, y flight.Item) bool { return x.Equal(y) })
}

// sameItems reports whether a and b hold the same items, order aside.
func sameItems(a, b []flight.Item) bool {
	used := make([]bool, len(b))
next:
	for _, x := range a {
		for j, y := range b {
			if !used[j] && x.Equal(y) {
				used[j] = true
				continue next
			}
		}
		return false
	}
	return true
}

// day renders a date; nil is NULL.
func day(t *time.Time) *string {
	if t == nil {
		return nil
	}
	return str(t.Format(time.DateOnly))
}
