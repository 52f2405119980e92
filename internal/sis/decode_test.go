package sis

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

func mustRead(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The subtype table is exactly the 48 subtypes of spec §4.
func TestFlopSubtypeTable(t *testing.T) {
	want := map[string][]string{
		"ABTM": {"ABTM"}, "ACFT": {"ACFT"}, "APPT": {"APPT"}, "BOTM": {"BOTM"}, "CHDT": {"CHDT"},
		"CHOT": {"CHOT"}, "CKDT": {"CKDT"}, "CLDT": {"CLDT"}, "CNCL": {"CNCL"},
		"COBT": {"COBT"}, "CTOT": {"CTOT"}, "EOBT": {"EOBT"}, "TOBT": {"TOBT"},
		"DELY": {"DELY"}, "EGSR": {"EGSR"}, "EGST": {"EGST"}, "ERUT": {"ERUT"}, "EXSS": {"EXSC", "EXSR"},
		"FDEL": {"FDEL"}, "FDIV": {"FDIV"}, "FINT": {"FINT"}, "FLAB": {"FLAB"},
		"FLIN": {"FLIN"}, "FLTY": {"FLTY"}, "FTSS": {"FTSS"}, "FRET": {"FRET"},
		"IEST": {"IEST"}, "LACL": {"LACL"}, "MAXP": {"MAXP"},
		"NAAT": {"NAAT"}, "NEAT": {"NEAT"}, "PADT": {"PADT"}, "PEDT": {"PEDT"},
		"PORT": {"PORT"}, "PSDT": {"PSDT"}, "PSHT": {"PSHT"}, "REMC": {"REMC"}, "RENO": {"RENO"},
		"RUNW": {"RUNW"}, "SRVT": {"SRVT"}, "STND": {"STND"}, "TAOP": {"TAOP", "TAFL", "TAID"},
		"TIPT": {"TIPT"}, "TRML": {"TRML"}, "VIPF": {"VIPF"}, "VIPP": {"VIPP", "VIPR"},
		"HNAG": {"PHAG", "FHAG", "MHAG"}, "GTDT": {"GTDT"},
	}
	if len(want) != 48 || len(flopSubtypes) != 48 {
		t.Fatalf("%d subtypes in the test, %d in the table; both must be 48", len(want), len(flopSubtypes))
	}
	if !reflect.DeepEqual(want, flopSubtypes) {
		t.Fatalf("table differs:\n got %v\nwant %v", flopSubtypes, want)
	}
	for st, els := range flopSubtypes {
		for _, e := range els {
			if _, ok := recordElems[e]; !ok {
				t.Errorf("%s: element %s is not a record element", st, e)
			}
		}
	}
}

// Every scalar of spec §3 is known, once.
func TestScalarList(t *testing.T) {
	spec := strings.Fields(`ALCD ALSC FLNO MVIN SODT FLTY FLIN ACFT RENO TAOP TAFL TAID TRML MAXP
CSOP CSFT MAID ESTT ACTT STND PHAG FHAG MHAG CNCL REMC BOTM LACL FINT APPT EGSR EGST
VIPP VIPR LBNO LBWT PAXC EXSC EXSR FTSS PEDT NEAT PADT NAAT STDT EDDT DYOP SCHT
COBT TOBT EOBT CTOT IEST RUNW`)
	if len(spec) != NumScalars {
		t.Fatalf("%d scalars in spec, %d in the codec", len(spec), NumScalars)
	}
	for i, name := range spec {
		if ScalarID(i).String() != name {
			t.Errorf("scalar %d is %s, want %s", i, ScalarID(i), name)
		}
	}
}

// After META is read, a PROTOCOL error still returns META and identity.
func TestPartialMessageOnError(t *testing.T) {
	m, err := Decode(mustRead(t, fixtureDir+"/err_protocol_outside_group.xml"), DefaultOptions())
	if ClassOf(err) != ClassProtocol || m == nil || m.Meta.Type != "FLOP" || m.Identity == "" || m.Kind != "" || m.FlightOps != nil {
		t.Fatalf("m=%+v err=%v", m, err)
	}
	m, err = Decode(mustRead(t, fixtureDir+"/err_malformed_no_meta.xml"), DefaultOptions())
	if ClassOf(err) != ClassMalformed || m != nil {
		t.Fatalf("m=%+v err=%v", m, err)
	}
}

func TestIdentity(t *testing.T) {
	raw := []byte(`<MSG><META><SNDR> AODB </SNDR><SEQN>0042</SEQN><DTTM>20211212235959</DTTM><TYPE>flop</TYPE><STYP> stnd</STYP></META><FLOP><FLID>1</FLID><STND>1</STND></FLOP></MSG>`)
	m, err := Decode(raw, DefaultOptions())
	if err != nil || m.Identity != "AODB|FLOP|STND|42" {
		t.Fatalf("%q %v", m.Identity, err)
	}
	opt := DefaultOptions()
	opt.IncludeDayBoundary = true
	if m, _ = Decode(raw, opt); m.Identity != "AODB|FLOP|STND|42|2021-12-12" {
		t.Fatalf("%q", m.Identity)
	}
}

func TestIgnoreTypesConfigurable(t *testing.T) {
	raw := mustRead(t, fixtureDir+"/ignored_ldm.xml")
	opt := DefaultOptions()
	opt.IgnoreTypes = []string{}
	if m, err := Decode(raw, opt); err != nil || m.Kind != KindUnsupported {
		t.Fatalf("LDM not ignored: %v %v", m.Kind, err)
	}
	opt.IgnoreTypes = []string{"stnd", "flop"}
	if m, err := Decode(mustRead(t, fixtureDir+"/flop_stnd.xml"), opt); err != nil || m.Kind != KindIgnored || m.Note != "ignored:FLOP" {
		t.Fatalf("FLOP not ignored: %+v %v", m, err)
	}
}

func TestZeroOptionsUseDefaults(t *testing.T) {
	m, err := Decode(mustRead(t, fixtureDir+"/ignored_eror.xml"), Options{})
	if err != nil || m.Kind != KindIgnored {
		t.Fatalf("%v %v", m, err)
	}
}

func TestErrorString(t *testing.T) {
	_, err := Decode(mustRead(t, fixtureDir+"/err_protocol_bad_ddir.xml"), DefaultOptions())
	if got := err.Error(); got != `PROTOCOL: MSG/FLOP/FDIV@DDIR: "TOO" is not TO or FROM` {
		t.Fatalf("%s", got)
	}
	se := err.(*Error)
	if se.Path != "MSG/FLOP/FDIV@DDIR" || se.Value != "TOO" {
		t.Fatalf("%+v", se)
	}
}

// The names a decoded item or structure carries (its fields, its
// attributes) are the schema's strings, not substrings of the message: a
// flight state keeps them as keys, and a substring would keep the whole
// message alive with the state. Two decodes of the same text in two
// buffers give the very same name strings.
func TestDecodedNamesAreTheSchemas(t *testing.T) {
	raw := `<MSG><META><SNDR>AODB</SNDR><SEQN>5</SEQN><DTTM>20261202090311</DTTM><TYPE>SCHD</TYPE><STYP>UPD</STYP></META><SCHD><RECS>1</RECS><FLTR>` +
		`<FLID>7</FLID><ALCD>CA</ALCD><FLNO>CA7</FLNO><MVIN>D</MVIN><SODT>02DEC261030</SODT>` +
		`<GTDT GTNO="1"><GATE>A1</GATE><GTYP>C</GTYP></GTDT><DELY CODE="93" DURA="0030">late</DELY>` +
		`<FDIV DDES="HKG" DDIR="TO">weather</FDIV></FLTR></SCHD></MSG>`
	names := func() []string {
		m, err := Decode([]byte(raw), DefaultOptions())
		require.NoError(t, err)
		rec := m.Schedule.Flights[0]
		var out []string
		for _, op := range rec.Groups.All() {
			for _, it := range op.Items {
				for _, f := range append(slices.Clone(it.Fields), it.Attrs...) {
					out = append(out, f.Name)
				}
			}
		}
		for _, op := range rec.Structs.All() {
			for _, a := range op.Attrs {
				out = append(out, a.Name)
			}
		}
		return out
	}
	first, second := names(), names()
	require.Len(t, first, 6)
	for i := range first {
		require.Equal(t, first[i], second[i])
		require.Same(t, unsafe.StringData(first[i]), unsafe.StringData(second[i]), "%s: the schema's string", first[i])
	}
}
