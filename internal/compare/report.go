package compare

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Report is a comparison as printed: what was compared with what, every
// rule that left something out, the differences and the counts.
type Report struct {
	A       string   `json:"a"`
	B       string   `json:"b"`
	Scope   string   `json:"scope"`
	Strict  bool     `json:"strict"`  // bookkeeping compared (--strict), but for Ignored
	Ignored []string `json:"ignored"` // bookkeeping columns not compared
	Notes   []string `json:"notes"`   // what the comparison covers, when not everything
	Summary Summary  `json:"summary"`
	Diffs   []Diff   `json:"differences"`
}

// WriteJSON writes the report as one JSON document.
func (r *Report) WriteJSON(w io.Writer) error {
	if r.Ignored == nil {
		r.Ignored = []string{}
	}
	if r.Notes == nil {
		r.Notes = []string{}
	}
	if r.Diffs == nil {
		r.Diffs = []Diff{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteText writes one line per difference: flight, group, item, field,
// kind and both values (NULL for no value, strings quoted).
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, d := range r.Diffs {
		fmt.Fprintf(&b, "flight=%d group=%s", d.FLID, d.Group)
		if d.Item > 0 {
			fmt.Fprintf(&b, " item=%d", d.Item)
		}
		fmt.Fprintf(&b, " field=%s kind=%s a=%s b=%s\n", d.Field, d.Kind, show(d.A), show(d.B))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteSummary writes what was compared with what, every rule that left
// something out, and the counts.
func (r *Report) WriteSummary(w io.Writer) error {
	var b strings.Builder
	s := r.Summary
	fmt.Fprintf(&b, "compare: A %s, B %s; %s\n", r.A, r.B, r.Scope)
	ignored := "nothing (--strict)"
	switch {
	case !r.Strict:
		ignored = strings.Join(r.Ignored, ", ") + " (bookkeeping: each site's own versions, message ids and write times; --strict compares them)"
	case len(r.Ignored) > 0:
		ignored = strings.Join(r.Ignored, ", ") + " (--strict --ignore)"
	}
	fmt.Fprintf(&b, "ignored: %s\n", ignored)
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	fmt.Fprintf(&b, "flights %d: equal %d, differing %d, only in A %d, only in B %d; differences %d\n",
		s.Flights, s.Equal, s.Differing, s.OnlyInA, s.OnlyInB, s.Differences)
	if r.Empty() {
		b.WriteString("nothing was compared: neither side has a flight in scope, so no verdict\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func show(v *string) string {
	if v == nil {
		return "NULL"
	}
	return strconv.Quote(*v)
}

// Equal reports whether the comparison found no difference.
func (r *Report) Equal() bool { return r.Summary.Differences == 0 }

// Empty reports whether nothing was compared (no flight on either side): no
// verdict, never "equal".
func (r *Report) Empty() bool { return r.Summary.Flights == 0 }
