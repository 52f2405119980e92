package sis

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/sis/*.golden.json from the current decoder")

const fixtureDir = "../../testdata/sis"

func fixtures(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(fixtureDir, "*.xml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures in %s: %v", fixtureDir, err)
	}
	return files
}

// goldenJSON decodes one fixture and renders what msgx decode prints.
func goldenJSON(t *testing.T, raw []byte) ([]byte, *Message, *Error) {
	t.Helper()
	m, err := Decode(raw, DefaultOptions())
	var buf bytes.Buffer
	if err != nil {
		var se *Error
		if !errors.As(err, &se) {
			t.Fatalf("error is not a *sis.Error: %T %v", err, err)
		}
		if werr := WriteJSON(&buf, se); werr != nil {
			t.Fatal(werr)
		}
		return buf.Bytes(), m, se
	}
	if werr := WriteJSON(&buf, m); werr != nil {
		t.Fatal(werr)
	}
	return buf.Bytes(), m, nil
}

// TestGolden decodes every testdata/sis/*.xml and compares the JSON with
// its .golden.json. Naming rules are checked too: err_<class>_* must fail
// with that class, everything else must decode; ignored_*, unsupported_*,
// ref_*, schd_*, flop_* and fdel_* must have the matching kind.
func TestGolden(t *testing.T) {
	for _, file := range fixtures(t) {
		name := strings.TrimSuffix(filepath.Base(file), ".xml")
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got, m, derr := goldenJSON(t, raw)
			checkNaming(t, name, m, derr)
			golden := strings.TrimSuffix(file, ".xml") + ".golden.json"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./internal/sis -run TestGolden -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("decoded JSON differs from %s:\n--- got\n%s", filepath.Base(golden), got)
			}
		})
	}
}

func checkNaming(t *testing.T, name string, m *Message, err *Error) {
	t.Helper()
	if strings.HasPrefix(name, "err_") {
		if err == nil {
			t.Fatalf("expected an error, decoded kind %s", m.Kind)
		}
		classes := map[string]Class{"malformed": ClassMalformed, "protocol": ClassProtocol,
			"codec": ClassCodec, "unsupported": ClassUnsupported}
		want := classes[strings.SplitN(name, "_", 3)[1]]
		if err.Class != want {
			t.Fatalf("class %s, want %s (%v)", err.Class, want, err)
		}
		if err.Class == ClassProtocol && m == nil {
			t.Fatalf("PROTOCOL error without the partially decoded message")
		}
		return
	}
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
	kinds := map[string]Kind{"flop": KindFlightOps, "schd": KindSchedule, "ref": KindReference,
		"fdel": KindFlightDelete, "ignored": KindIgnored, "unsupported": KindUnsupported, "request": KindRequest}
	want := kinds[strings.SplitN(name, "_", 2)[0]]
	if name == "flop_fdel" {
		want = KindFlightDelete
	}
	if m.Kind != want {
		t.Fatalf("kind %s, want %s", m.Kind, want)
	}
}

// Every FLOP subtype has its fixture flop_<styp>.xml decoding to that group.
func TestGoldenCoversEveryFlopSubtype(t *testing.T) {
	for _, st := range FlopSubtypes() {
		raw, err := os.ReadFile(filepath.Join(fixtureDir, "flop_"+strings.ToLower(st)+".xml"))
		if err != nil {
			t.Errorf("subtype %s: %v", st, err)
			continue
		}
		m, err := Decode(raw, DefaultOptions())
		if err != nil {
			t.Errorf("subtype %s: %v", st, err)
			continue
		}
		if st == "FDEL" {
			if m.Kind != KindFlightDelete {
				t.Errorf("FDEL: kind %s", m.Kind)
			}
			continue
		}
		if m.Kind != KindFlightOps || m.FlightOps.Group != st {
			t.Errorf("subtype %s: kind %s", st, m.Kind)
		}
	}
}

// Every reference list and every ignored type has a fixture.
func TestGoldenCoversListsAndIgnored(t *testing.T) {
	have := map[string]bool{}
	for _, f := range fixtures(t) {
		have[filepath.Base(f)] = true
	}
	prefix := func(p string) bool {
		for f := range have {
			if strings.HasPrefix(f, p) {
				return true
			}
		}
		return false
	}
	for _, l := range RefListTypes {
		if !prefix("ref_" + strings.ToLower(l) + "_") {
			t.Errorf("no fixture for reference list %s", l)
		}
	}
	for _, s := range []string{"dnld", "resp", "add", "upd", "del"} {
		found := false
		for f := range have {
			if strings.HasPrefix(f, "ref_") && strings.HasSuffix(f, "_"+s+".xml") {
				found = true
			}
		}
		if !found {
			t.Errorf("no reference fixture with STYP %s", s)
		}
	}
	for _, ig := range DefaultIgnoreTypes {
		if !have["ignored_"+strings.ToLower(ig)+".xml"] {
			t.Errorf("no fixture for ignored type %s", ig)
		}
	}
	for _, s := range []string{"schd_dnld_multi", "schd_resp", "schd_adft", "schd_upd", "schd_del", "fdel_standalone", "flop_fdel"} {
		if !have[s+".xml"] {
			t.Errorf("missing fixture %s.xml", s)
		}
	}
}
