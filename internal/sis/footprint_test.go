package sis

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// tinyFLOP is a FLOP/STND of n records of two short values each: the shape
// whose decoded size is furthest from its raw size.
func tinyFLOP(n int) []byte {
	var b strings.Builder
	b.WriteString("<MSG><META><SNDR>A</SNDR><SEQN>1</SEQN><DTTM>20211212090311</DTTM><TYPE>FLOP</TYPE><STYP>STND</STYP></META>")
	for i := range n {
		fmt.Fprintf(&b, "<FLOP><FLID>%d</FLID><STND>%d</STND></FLOP>", 1_000_000+i, i%1000)
	}
	b.WriteString("</MSG>")
	return []byte(b.String())
}

// A record costs what it carries, not the width of the schema: a record of
// two short values holds a few hundred bytes decoded (it held 3.9 KB, every
// scalar, group, structure and payload slot of the schema), and the
// message's footprint says so.
func TestTinyRecordsAreCompact(t *testing.T) {
	const n = 20_000
	raw := tinyFLOP(n)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	m, err := Decode(raw, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.GC() // the parse tree went back to its pool: not the message's
	runtime.ReadMemStats(&after)
	held := int(after.HeapAlloc) - int(before.HeapAlloc) - len(raw) // the message keeps a copy of its XML
	runtime.KeepAlive(m)
	t.Logf("%d records: %d bytes held, footprint %d", n, held, m.Footprint)
	if perRecord := held / n; perRecord > 400 {
		t.Errorf("a two-value record holds %d bytes decoded, want at most 400", perRecord)
	}
	if per := m.Footprint / n; per < 200 || per > 400 {
		t.Errorf("footprint says %d bytes a record, want about what it holds", per)
	}
	if rec := m.FlightOps.Records[n-1]; rec.Scalars.Len() != 1 || rec.Scalars.Get(STND).Raw != fmt.Sprint((n-1)%1000) {
		t.Errorf("last record: %+v", rec)
	}
}

// Ops keep id order whatever the order of Set, read absent ids as
// Unchanged, and never write into an array a copy shares.
func TestOpsSparse(t *testing.T) {
	var o Ops[ScalarID, Field]
	o.Set(STND, Field{Op: Set, Raw: "1"})
	o.Set(ALCD, Field{Op: Set, Raw: "CA"})
	copied := o
	o.Set(STND, Field{Op: Clear})
	if got := copied.Get(STND); got.Raw != "1" {
		t.Errorf("a copy sees %+v", got)
	}
	var ids []ScalarID
	for id := range o.All() {
		ids = append(ids, id)
	}
	if len(ids) != 2 || ids[0] > ids[1] || o.Get(STND).Op != Clear || o.Get(SODT).Op != Unchanged || o.Has(SODT) {
		t.Errorf("ops: %v %+v", ids, o)
	}
}
