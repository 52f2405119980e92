package widths

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/sis"
)

// groupTables: the detail table of each repeated group.
var groupTables = [sis.NumGroups]string{
	sis.GTDT: "flight_gate", sis.CKDT: "flight_checkin", sis.CLDT: "flight_belt",
	sis.PSDT: "flight_stand_plan", sis.CHDT: "flight_chute", sis.DELY: "flight_delay",
	sis.ABTM: "flight_bridge_op", sis.CHOT: "flight_chock_op",
	sis.ROUT: "flight_route_point", sis.ERUT: "flight_route_point",
}

// record: the targets of a flight record's values, resolved once.
var record = func() (r struct {
	ffid    Target
	scalars [sis.NumScalars]Target
	structs [sis.NumStructs]struct {
		text  Target
		attrs fieldTargets
	}
	groups [sis.NumGroups]fieldTargets // the DELY text is REASON
}) {
	schd := func(col string) Target { return target(Column{"flight_schd", strings.ToLower(col)}) }
	r.ffid = schd("FFID")
	for id := range sis.NumScalars {
		r.scalars[id] = schd(sis.ScalarID(id).String())
	}
	for id := range sis.NumStructs {
		name := sis.StructID(id).String()
		s := &r.structs[id]
		s.text = schd(name + "_text")
		s.attrs = fieldTargets{byName: map[string]Target{}}
		for _, a := range flight.StructAttrs[name] {
			s.attrs.add(a, schd(name+"_"+a))
		}
	}
	for id := range sis.NumGroups {
		g := fieldTargets{byName: map[string]Target{}}
		for _, f := range flight.GroupFields[sis.GroupID(id).String()] {
			g.add(f, target(Column{groupTables[id], strings.ToLower(f)}))
		}
		r.groups[id] = g
	}
	return r
}()

// fieldTargets are the targets of named fields (a group's, a structure's
// attributes) and the narrowest of them: a value no longer than that, in
// bytes, fits without a lookup.
type fieldTargets struct {
	byName    map[string]Target
	narrowest int
}

func (ft *fieldTargets) add(name string, t Target) {
	ft.byName[name] = t
	if ft.narrowest == 0 || t.Width < ft.narrowest {
		ft.narrowest = t.Width
	}
}

var refType, refKey = target(Column{"ref_master", "rtype"}), target(Column{"ref_master", "rkey"})

// Check refuses a decoded message that holds a value longer than a column
// it would be written to: a *sis.Error of class PROTOCOL whose path names
// the field (and the flight). It is pure and runs before any write.
func Check(m *sis.Message) error {
	if err := check(m); err != nil {
		return err
	}
	return nil
}

func check(m *sis.Message) *sis.Error {
	for _, v := range [...]struct {
		t     Target
		path  string
		value string
	}{
		{Sender, "MSG/META/SNDR", m.Meta.Sender}, {Type, "MSG/META/TYPE", m.Meta.Type},
		{Subtype, "MSG/META/STYP", m.Meta.Subtype}, {SentRaw, "MSG/META/DTTM", m.Meta.SentRaw},
		{Identity, "identity", m.Identity},
	} {
		if !v.t.Fits(v.value) {
			return v.t.refuse(v.path, v.value)
		}
	}
	var recs []*sis.FlightRecord
	switch {
	case m.Schedule != nil:
		recs = m.Schedule.Flights
	case m.FlightOps != nil:
		recs = m.FlightOps.Records
	case m.Ref != nil:
		return checkRefs(m.Ref)
	}
	for _, rec := range recs {
		if err := checkRecord(rec); err != nil {
			return err
		}
	}
	return nil
}

// checkRecord checks a flight record's values. A download holds hundreds
// of thousands of them: paths are built only for a refusal.
func checkRecord(rec *sis.FlightRecord) *sis.Error {
	at := func(field string) string { return "FLID " + strconv.FormatInt(rec.FLID, 10) + "/" + field }
	if f := rec.FFID; f.Op == sis.Set && !record.ffid.Fits(f.Raw) {
		return record.ffid.refuse(at("FFID"), f.Raw)
	}
	for id, f := range rec.Scalars.All() {
		if t := record.scalars[id]; f.Op == sis.Set && !t.Fits(f.Raw) {
			return t.refuse(at(id.String()), f.Raw)
		}
	}
	for id, op := range rec.Structs.All() {
		if op.Op != sis.Set {
			continue
		}
		name, ts := id.String(), &record.structs[id]
		if !ts.text.Fits(op.Text) {
			return ts.text.refuse(at(name), op.Text)
		}
		if f, t := tooLong(ts.attrs, op.Attrs); f != nil {
			return t.refuse(at(name+"@"+f.Name), f.Raw)
		}
	}
	for id, op := range rec.Groups.All() {
		if op.Op != sis.Replace {
			continue
		}
		cols := record.groups[id]
		for i := range op.Items {
			it := &op.Items[i]
			item := func() string { return at(id.String() + "[" + strconv.Itoa(it.Ordinal) + "]") }
			if f, t := tooLong(cols, it.Fields); f != nil {
				return t.refuse(item()+"/"+f.Name, f.Raw)
			}
			if f, t := tooLong(cols, it.Attrs); f != nil {
				return t.refuse(item()+"@"+f.Name, f.Raw)
			}
			if t, ok := cols.byName["REASON"]; ok && it.Text.Op == sis.Set && !t.Fits(it.Text.Raw) {
				return t.refuse(item(), it.Text.Raw)
			}
		}
	}
	return nil
}

// tooLong is the first set field that does not fit its column, and that
// column. A field without a column is not stored (the targets are built
// from the names the store writes, flight.GroupFields and StructAttrs).
func tooLong(cols fieldTargets, fields []sis.NamedField) (*sis.NamedField, Target) {
	for i := range fields {
		f := &fields[i]
		if f.Op != sis.Set || len(f.Raw) <= cols.narrowest {
			continue
		}
		if t, ok := cols.byName[f.Name]; ok && !t.Fits(f.Raw) {
			return f, t
		}
	}
	return nil, Target{}
}

func checkRefs(ref *sis.RefList) *sis.Error {
	if !refType.Fits(ref.Type) {
		return refType.refuse("MSG/META/TYPE", ref.Type)
	}
	for _, r := range ref.Records {
		if !refKey.Fits(r.Key) {
			return refKey.refuse(fmt.Sprintf("%s record %d/%s", ref.Type, r.Ordinal, r.KeyName), r.Key)
		}
	}
	return nil
}
