package app

// Fidelity (docs/design.md §6): a DNLD carrying every repeated group and one
// FLOP of every subtype go through the running service; GET /flights/{flid}
// must give back every value of every message, in order, the last writer
// winning per field and per group. The expectation is computed here from the
// decoded messages with the plain rules of the wire format (Set writes,
// Clear removes, a group or payload present replaces the whole list), so the
// store's round trip through columns and detail tables is what is tested.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

const fidelityFLID = 101

// fidelityDNLD: flight 101 on 12 Dec 2021 (the day of the FLOP fixtures),
// with values the fixtures do not use, so every FLOP is visible. Gates: three
// and more, GTNO 2, 5, 9 (non-contiguous), G05 twice with other attributes.
const fidelityDNLD = `<?xml version="1.0" encoding="UTF-8"?>
<MSG><META><SNDR>AODB</SNDR><SEQN>6000</SEQN><DTTM>20211212080000</DTTM><TYPE>SCHD</TYPE><STYP>DNLD</STYP></META>
<SCHD><RECS>1</RECS><FLTR>
<FLID>101</FLID><ALCD>CA</ALCD><FLNO>CA101</FLNO><MVIN>A</MVIN><SODT>12DEC211345</SODT>
<ALSC>CA</ALSC><FLTY>J</FLTY><FLIN>D</FLIN><ACFT>320</ACFT><RENO>B1111</RENO><TAOP>MU</TAOP><TAFL>MU1</TAFL><TAID>1</TAID>
<TRML>T1</TRML><MAXP>100</MAXP><CSOP>MU</CSOP><CSFT>MU5101</CSFT><STND>101</STND><PHAG>1</PHAG><FHAG>2</FHAG><MHAG>3</MHAG>
<REMC>初始 remark</REMC><BOTM>12DEC211200</BOTM><LACL>12DEC211201</LACL><FINT>12DEC211202</FINT><APPT>12DEC211203</APPT>
<EGSR>N</EGSR><EGST>12DEC211204</EGST><VIPP>N</VIPP><VIPR>0</VIPR><EXSC>INIT</EXSC><EXSR>AUTO</EXSR><FTSS>INIT</FTSS>
<PEDT>12DEC211205</PEDT><NEAT>12DEC211206</NEAT><PADT>12DEC211207</PADT><NAAT>12DEC211208</NAAT><SCHT>0215</SCHT>
<COBT>12DEC211209</COBT><TOBT>12DEC211210</TOBT><EOBT>12DEC211211</EOBT><CTOT>12DEC211212</CTOT><IEST>12DEC211213</IEST>
<RUNW>18R</RUNW>
<GTDT GTNO="2"><GATE>G05</GATE><PGOT>12DEC211100</PGOT><PGCT>12DEC211120</PGCT><GTYP>D</GTYP></GTDT>
<GTDT GTNO="5"><GATE>G05</GATE><PGOT>12DEC211130</PGOT><PGCT>12DEC211150</PGCT><GOTM>12DEC211131</GOTM><GTYP>I</GTYP></GTDT>
<GTDT GTNO="9"><GATE>G07</GATE><PGOT>12DEC211200</PGOT><GTYP>D</GTYP></GTDT>
<CKDT CKNO="3"><CHKC>07</CHKC><CCLS>F</CCLS><PCOT>12DEC210900</PCOT><PCCT>12DEC211100</PCCT><CTYP>D</CTYP></CKDT>
<CKDT CKNO="7"><CHKC>07</CHKC><CCLS>Y</CCLS><PCOT>12DEC210930</PCOT><CTYP>I</CTYP></CKDT>
<CLDT CLNO="1"><BELT>B09</BELT><BCLS>Y</BCLS><PCOT>12DEC211400</PCOT><BTYP>D</BTYP></CLDT>
<CLDT CLNO="3"><BELT>B10</BELT><BCLS>F</BCLS><FBAG>12DEC211401</FBAG><BTYP>I</BTYP></CLDT>
<PSDT PSNO="1"><PSST>601</PSST><STST>12DEC211200</STST><STET>12DEC211300</STET></PSDT>
<PSDT PSNO="4"><PSST>602</PSST><STST>12DEC211300</STST></PSDT>
<CHDT CHNO="2"><CHUT>CH0001</CHUT><CCLS>Y</CCLS><PCBT>12DEC211000</PCBT><CTYP>D</CTYP></CHDT>
<CHDT CHNO="6"><CHUT>CH0001</CHUT><CCLS>F</CCLS><PCBT>12DEC211010</PCBT><CTYP>I</CTYP></CHDT>
<DELY CODE="AA" STRT="12DEC211300" DURA="0010">first</DELY>
<DELY CODE="BB" STRT="12DEC211310" DURA="0120">第二</DELY>
<DELY CODE="AA" STRT="12DEC211400" DURA="0005"></DELY>
<ABTM ASNO="1"><ABDG>301</ABDG><ABOP>A</ABOP><AOTM>12DEC211340</AOTM></ABTM>
<ABTM ASNO="2"><ABDG>301</ABDG><ABOP>D</ABOP><AOTM>12DEC211341</AOTM></ABTM>
<ABTM ASNO="2"><ABDG>302</ABDG><ABOP>A</ABOP><AOTM>12DEC211342</AOTM></ABTM>
<CHOT CSNO="1"><CHTM>12DEC211330</CHTM><CHID>ON</CHID><CHST>601</CHST></CHOT>
<CHOT CSNO="1"><CHTM>12DEC211331</CHTM><CHID>OFF</CHID><CHST>601</CHST></CHOT>
<CHOT CSNO="3"><CHTM>12DEC211332</CHTM><CHID>ON</CHID><CHST>602</CHST></CHOT>
<ROUT RTNO="1"><APCD>CAN</APCD><SCDT>12DEC211000</SCDT><SDDC>0</SDDC></ROUT>
<ROUT RTNO="2"><APCD>SHA</APCD><SCAT>12DEC211345</SCAT><SADC>+0</SADC></ROUT>
<ERUT RTNO="1"><APCD>WUH</APCD><SCDT>12DEC212200</SCDT><SDDC>-1</SDDC></ERUT>
<FDIV DDES="CAN" DDIR="TO">fog</FDIV>
<FRET REID="G">engine</FRET>
<FLAB ARES="G">runway</FLAB>
<SRVT><SRTC>MED</SRTC><SRQT>1</SRQT><SRST>12DEC211300</SRST></SRVT>
<VIPF><VPCD>ROSE</VPCD><VFES>N</VFES></VIPF>
<PSHT PSHN="1"><PSTM>12DEC211300</PSTM><PSID>IN</PSID><PUST>601</PUST></PSHT>
<TIPT><TRTM>12DEC211301</TRTM><TRST>N</TRST></TIPT>
<PORT><POTM>12DEC211302</POTM><POID>P09</POID></PORT>
<MAFL><MACD>M9</MACD></MAFL>
</FLTR></SCHD></MSG>`

// model is the expected state of one flight.
type model struct {
	Scalars   map[string]flight.Value
	Structs   map[string]flight.Struct
	Groups    map[string][]flight.Item
	Payloads  map[string]flight.Payload
	Lifecycle string
	Version   int64
}

func newModel() *model {
	return &model{Scalars: map[string]flight.Value{}, Structs: map[string]flight.Struct{},
		Groups: map[string][]flight.Item{}, Payloads: map[string]flight.Payload{}}
}

func wireValue(f sis.Field) flight.Value {
	v := flight.Value{Raw: f.Raw}
	switch f.Type {
	case sis.TypeTime:
		at := f.Time.UTC()
		v.Time = &at
	case sis.TypeDuration:
		n := int32(f.Num)
		v.Minutes = &n
	case sis.TypeDayOffset:
		n := int32(f.Num)
		v.Days = &n
	}
	return v
}

func (m *model) scalar(name string, f sis.Field) {
	switch f.Op {
	case sis.Set:
		m.Scalars[name] = wireValue(f)
	case sis.Clear:
		delete(m.Scalars, name)
	}
}

// apply applies one record and reports whether the flight changed.
func (m *model) apply(rec *sis.FlightRecord) bool {
	before := m.key()
	m.scalar("FFID", rec.FFID)
	for id := range sis.NumScalars {
		m.scalar(sis.ScalarID(id).String(), rec.Scalars.Get(sis.ScalarID(id)))
	}
	for id := range sis.NumStructs {
		name, op := sis.StructID(id).String(), rec.Structs.Get(sis.StructID(id))
		s := flight.Struct{}
		if op.Op == sis.Set {
			if op.Text != "" {
				text := op.Text
				s.Text = &text
			}
			for _, a := range op.Attrs {
				if a.Op == sis.Set {
					if s.Attrs == nil {
						s.Attrs = map[string]string{}
					}
					s.Attrs[a.Name] = a.Raw
				}
			}
		}
		switch {
		case op.Op == sis.Set && (s.Text != nil || s.Attrs != nil):
			m.Structs[name] = s
		case op.Op != sis.Unchanged:
			delete(m.Structs, name)
		}
	}
	for id := range sis.NumGroups {
		name, op := sis.GroupID(id).String(), rec.Groups.Get(sis.GroupID(id))
		if op.Op != sis.Replace {
			continue
		}
		var items []flight.Item
		for _, it := range op.Items {
			out := flight.Item{Fields: map[string]flight.Value{}}
			if it.HasSeq {
				seq := it.Seq
				out.SourceSeq = &seq
			}
			for _, f := range append(append([]sis.NamedField{}, it.Fields...), it.Attrs...) {
				if f.Op == sis.Set {
					out.Fields[f.Name] = wireValue(f.Field)
				}
			}
			if it.Text.Op == sis.Set {
				out.Fields["REASON"] = wireValue(it.Text)
			}
			items = append(items, out)
		}
		if len(items) == 0 {
			delete(m.Groups, name)
		} else {
			m.Groups[name] = items
		}
	}
	for id := range sis.NumPayloads {
		kind, op := sis.PayloadID(id).String(), rec.Payloads.Get(sis.PayloadID(id))
		if op.Op != sis.Replace {
			continue
		}
		if op.Count == 0 {
			delete(m.Payloads, kind)
		} else {
			m.Payloads[kind] = flight.Payload{Format: "xml", Content: op.XML}
		}
	}
	return m.key() != before
}

func (m *model) key() string {
	b, _ := json.Marshal(m)
	return string(b)
}

// observed is the comparable part of a state read from the API.
func observed(st *flight.State) *model {
	m := newModel()
	norm := func(v flight.Value) flight.Value {
		if v.Time != nil {
			at := v.Time.UTC()
			v.Time = &at
		}
		return v
	}
	for k, v := range st.Scalars {
		m.Scalars[k] = norm(v)
	}
	for k, v := range st.Structs {
		m.Structs[k] = v
	}
	for g, items := range st.Groups {
		if len(items) == 0 {
			continue
		}
		for _, it := range items {
			out := flight.Item{SourceSeq: it.SourceSeq, Fields: map[string]flight.Value{}}
			for k, v := range it.Fields {
				out.Fields[k] = norm(v)
			}
			m.Groups[g] = append(m.Groups[g], out)
		}
	}
	for k, v := range st.Payloads {
		m.Payloads[k] = v
	}
	m.Lifecycle, m.Version = st.Lifecycle, st.StateVersion
	return m
}

// requireState compares group by group, so a failure names what differs.
func requireState(t *testing.T, want, got *model, after string) {
	t.Helper()
	require.Equal(t, want.Lifecycle, got.Lifecycle, "after %s: lifecycle", after)
	require.Equal(t, want.Version, got.Version, "after %s: state version", after)
	require.Equal(t, want.Scalars, got.Scalars, "after %s: scalars", after)
	require.Equal(t, want.Structs, got.Structs, "after %s: structs", after)
	for _, g := range flight.Groups {
		require.Equal(t, want.Groups[g], got.Groups[g], "after %s: group %s", after, g)
	}
	require.Equal(t, len(want.Groups), len(got.Groups), "after %s: groups", after)
	require.Equal(t, want.Payloads, got.Payloads, "after %s: payloads", after)
}

// flopFixtures returns one fixture per FLOP subtype (the plain one,
// flop_<subtype>.xml), FDEL last, each pointed at the DNLD's flight with a
// SEQN of its own; and checks that together they cover every subtype the
// fixtures have.
func flopFixtures(t *testing.T) (names, msgs []string) {
	t.Helper()
	all, err := filepath.Glob(filepath.Join("..", "..", "testdata", "sis", "flop_*.xml"))
	require.NoError(t, err)
	plain := regexp.MustCompile(`^flop_[a-z]+\.xml$`)
	styp := regexp.MustCompile(`<STYP>([^<]*)</STYP>`)
	every, chosen := map[string]bool{}, map[string]bool{}
	var fdel string
	for _, p := range all {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		sub := strings.ToUpper(strings.TrimSpace(styp.FindStringSubmatch(string(b))[1]))
		every[sub] = true
		if !plain.MatchString(filepath.Base(p)) {
			continue
		}
		chosen[sub] = true
		if sub == "FDEL" {
			fdel = p
			continue
		}
		names = append(names, p)
	}
	require.Equal(t, every, chosen, "one plain fixture per FLOP subtype")
	require.NotEmpty(t, fdel)
	sort.Strings(names)
	names = append(names, fdel)

	flid := regexp.MustCompile(`<FLID>\s*15\s*</FLID>`)
	seqn := regexp.MustCompile(`<SEQN>[^<]*</SEQN>`)
	for i, p := range names {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		x := string(b)
		require.Equal(t, 1, len(flid.FindAllString(x, -1)), "%s: one record of flight 15", p)
		x = flid.ReplaceAllString(x, fmt.Sprintf("<FLID>%d</FLID>", fidelityFLID))
		x = seqn.ReplaceAllString(x, fmt.Sprintf("<SEQN>%d</SEQN>", 7000+i))
		msgs = append(msgs, x)
	}
	return names, msgs
}

func decodeRecords(t *testing.T, xml string) []*sis.FlightRecord {
	t.Helper()
	m, err := sis.Decode([]byte(xml), sis.Options{Location: shanghai})
	require.NoError(t, err)
	switch {
	case m.Schedule != nil:
		return m.Schedule.Flights
	case m.FlightOps != nil:
		return m.FlightOps.Records
	}
	return nil
}

func TestFidelityThroughTheService(t *testing.T) {
	t.Parallel()
	pg := testdb.Postgres(t)
	_, dsn := testdb.Mailbox(t)
	svc := startService(t, testConfig(pg.URL, dsn))

	// The DNLD: every group read back complete and in order.
	want := newModel()
	want.Lifecycle, want.Version = flight.Active, 1
	recs := decodeRecords(t, fidelityDNLD)
	require.Len(t, recs, 1)
	want.apply(recs[0])
	id := post(t, svc.base, fidelityDNLD)
	m := waitTerminal(t, svc.base, id)
	require.Equal(t, vocab.StatusSucceeded, m.Status, "DNLD: %s %s", m.ErrorClass, m.Reason)
	st, _ := getFlight(t, svc.base, fidelityFLID)
	got := observed(st)
	requireState(t, want, got, "DNLD")
	for _, g := range flight.Groups {
		require.NotEmpty(t, got.Groups[g], "the DNLD carries group %s", g)
	}
	for _, p := range flight.PayloadKinds {
		require.Contains(t, got.Payloads, p)
	}
	gates := got.Groups[flight.GroupGates]
	require.Len(t, gates, 3)
	for i, w := range []struct {
		seq        int64
		gate, gtyp string
	}{{2, "G05", "D"}, {5, "G05", "I"}, {9, "G07", "D"}} {
		require.Equal(t, w.seq, *gates[i].SourceSeq, "gate %d", i)
		require.Equal(t, w.gate, gates[i].Fields["GATE"].Raw, "gate %d", i)
		require.Equal(t, w.gtyp, gates[i].Fields["GTYP"].Raw, "gate %d", i)
	}
	require.Equal(t, time.Date(2021, 12, 12, 11, 31, 0, 0, shanghai), gates[1].Fields["GOTM"].Time.In(shanghai))
	require.NotContains(t, gates[0].Fields, "GOTM", "equal codes keep their own attributes")
	require.Len(t, got.Groups[flight.GroupBridgeOps], 3)
	require.Len(t, got.Groups[flight.GroupChockOps], 3)
	dely := got.Groups[flight.GroupDelays]
	require.Len(t, dely, 3)
	require.Equal(t, []string{"first", "第二"}, []string{dely[0].Fields["REASON"].Raw, dely[1].Fields["REASON"].Raw})
	require.Equal(t, int32(80), *dely[1].Fields["DURA"].Minutes)

	// Every FLOP subtype, FDEL last; the state after all of them.
	names, msgs := flopFixtures(t)
	var ids []int64
	for i, x := range msgs {
		fr := decodeRecords(t, x)
		if strings.HasSuffix(names[i], "flop_fdel.xml") {
			if want.Lifecycle != flight.Deleted {
				want.Lifecycle = flight.Deleted
				want.Version++
			}
		} else {
			require.NotEmpty(t, fr, names[i])
			changed := false
			for _, r := range fr {
				require.Equal(t, int64(fidelityFLID), r.FLID)
				changed = want.apply(r) || changed
			}
			require.True(t, changed, "%s changes the flight: it is visible in the result", names[i])
			want.Version++
		}
		ids = append(ids, post(t, svc.base, x))
	}
	for i, id := range ids {
		m := waitTerminal(t, svc.base, id)
		require.Equal(t, vocab.StatusSucceeded, m.Status, "%s: %s %s", names[i], m.ErrorClass, m.Reason)
	}
	st, _ = getFlight(t, svc.base, fidelityFLID)
	requireState(t, want, observed(st), "every FLOP")
	require.Equal(t, ids[len(ids)-1], st.LastMessageID)
	t.Logf("%d FLOP subtypes, state version %d", len(msgs), st.StateVersion)
}
