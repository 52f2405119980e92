package limits

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/sis"
)

// Target is where one value is written: the narrowest of its columns.
type Target struct {
	Column Column
	Width  int
}

func target(cols ...Column) Target {
	var t Target
	for _, c := range cols {
		n, ok := Width(c)
		if !ok {
			panic("limits: no width for " + c.String())
		}
		if t.Width == 0 || n < t.Width {
			t.Column, t.Width = c, n
		}
	}
	return t
}

// Fits reports whether s fits the target (PostgreSQL counts characters).
func (t Target) Fits(s string) bool {
	return len(s) <= t.Width || utf8.RuneCountInString(s) <= t.Width
}

// check refuses s when it does not fit; path names the field.
func (t Target) check(path, s string) *sis.Error {
	if t.Fits(s) {
		return nil
	}
	return &sis.Error{Class: sis.ClassProtocol, Path: path,
		Reason: fmt.Sprintf("%d characters, the column %s holds %d", utf8.RuneCountInString(s), t.Column, t.Width)}
}

// metaTarget: a META value is kept in proc_state, its archive and the
// mailbox backfill todo.
func metaTarget(col, todoCol string) Target {
	return target(Column{"proc_state", col}, Column{"proc_state_hst", col}, Column{"backfill_todo", todoCol})
}

// What META, the identity and reasons are written to.
var (
	Sender   = metaTarget("meta_sndr", "meta_sndr")
	Type     = metaTarget("msg_type", "meta_type")
	Subtype  = metaTarget("msg_subtype", "meta_styp")
	SentRaw  = target(Column{"proc_state", "meta_dttm_raw"}, Column{"proc_state_hst", "meta_dttm_raw"})
	Identity = target(Column{"proc_state", "identity_key"}, Column{"proc_state_hst", "identity_key"})
	// Reason is what an error or skip reason is cut to.
	Reason = target(Column{"proc_state", "reason"}, Column{"proc_state", "prev_reason"},
		Column{"proc_state_hst", "reason"}, Column{"proc_state_hst", "prev_reason"})
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
		attrs map[string]Target
	}
	groups [sis.NumGroups]map[string]Target // by field name; the DELY text is REASON
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
		s.attrs = map[string]Target{}
		for _, a := range flight.StructAttrs[name] {
			s.attrs[a] = schd(name + "_" + a)
		}
	}
	for id := range sis.NumGroups {
		g := map[string]Target{}
		for _, f := range flight.GroupFields[sis.GroupID(id).String()] {
			g[f] = target(Column{groupTables[id], strings.ToLower(f)})
		}
		r.groups[id] = g
	}
	return r
}()

var refType, refKey = target(Column{"ref_master", "rtype"}), target(Column{"ref_master", "rkey"})

// Decode decodes a message and checks its values (Check): what the
// pipeline processes, so a value too long is PROTOCOL before any write on
// every path.
func Decode(raw []byte, opt sis.Options) (*sis.Message, error) {
	m, err := sis.Decode(raw, opt)
	if err != nil {
		return m, err
	}
	return m, Check(m)
}

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
		if err := v.t.check(v.path, v.value); err != nil {
			return err
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

func checkRecord(rec *sis.FlightRecord) *sis.Error {
	at := "FLID " + strconv.FormatInt(rec.FLID, 10) + "/"
	if f := rec.FFID; f.Op == sis.Set {
		if err := record.ffid.check(at+"FFID", f.Raw); err != nil {
			return err
		}
	}
	for id, f := range rec.Scalars {
		if f.Op == sis.Set {
			if err := record.scalars[id].check(at+sis.ScalarID(id).String(), f.Raw); err != nil {
				return err
			}
		}
	}
	for id, op := range rec.Structs {
		if op.Op != sis.Set {
			continue
		}
		name, ts := sis.StructID(id).String(), &record.structs[id]
		if err := ts.text.check(at+name, op.Text); err != nil {
			return err
		}
		if err := checkFields(ts.attrs, at+name+"@", op.Attrs); err != nil {
			return err
		}
	}
	for id, op := range rec.Groups {
		if op.Op != sis.Replace {
			continue
		}
		cols := record.groups[id]
		for i := range op.Items {
			it := &op.Items[i]
			item := at + sis.GroupID(id).String() + "[" + strconv.Itoa(it.Ordinal) + "]"
			if err := checkFields(cols, item+"/", it.Fields); err != nil {
				return err
			}
			if err := checkFields(cols, item+"@", it.Attrs); err != nil {
				return err
			}
			if t, ok := cols["REASON"]; ok && it.Text.Op == sis.Set {
				if err := t.check(item, it.Text.Raw); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// checkFields checks the set fields that have a column (a field without
// one is not stored; TestEveryFieldHasAColumn keeps that to none).
func checkFields(cols map[string]Target, prefix string, fields []sis.NamedField) *sis.Error {
	for _, f := range fields {
		t, ok := cols[f.Name]
		if f.Op != sis.Set || !ok {
			continue
		}
		if err := t.check(prefix+f.Name, f.Raw); err != nil {
			return err
		}
	}
	return nil
}

func checkRefs(ref *sis.RefList) *sis.Error {
	if err := refType.check("MSG/META/TYPE", ref.Type); err != nil {
		return err
	}
	for _, r := range ref.Records {
		if err := refKey.check(fmt.Sprintf("%s record %d/%s", ref.Type, r.Ordinal, r.KeyName), r.Key); err != nil {
			return err
		}
	}
	return nil
}
