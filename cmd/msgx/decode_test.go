package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sisFixtures = "../../testdata/sis"

func decodeCmd(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := dispatch(context.Background(), args, streams{in: strings.NewReader(stdin), out: &out, err: &errb})
	return code, out.String(), errb.String()
}

func TestDecodeFileMatchesGolden(t *testing.T) {
	for _, name := range []string{"flop_gtdt", "schd_dnld_multi", "ref_city_dnld", "err_protocol_bad_ddir", "err_malformed_not_xml"} {
		code, out, errOut := decodeCmd(t, "", "decode", filepath.Join(sisFixtures, name+".xml"))
		want, err := os.ReadFile(filepath.Join(sisFixtures, name+".golden.json"))
		if err != nil {
			t.Fatal(err)
		}
		wantCode := exitOK
		if strings.HasPrefix(name, "err_") {
			wantCode = exitUsage
		}
		if code != wantCode || out != string(want) {
			t.Errorf("%s: exit %d (want %d), stderr %q, stdout:\n%s", name, code, wantCode, errOut, out)
		}
	}
}

func TestDecodeStdin(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(sisFixtures, "flop_stnd.xml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"decode"}, {"decode", "-"}} {
		code, out, _ := decodeCmd(t, string(raw), args...)
		var v struct {
			Kind     string `json:"kind"`
			Identity string `json:"identity"`
		}
		if code != exitOK || json.Unmarshal([]byte(out), &v) != nil || v.Kind != "FLIGHT_OPS" || !strings.HasPrefix(v.Identity, "AODB|FLOP|STND|") {
			t.Errorf("%v: exit %d, %s", args, code, out)
		}
	}
}

func TestDecodeFailureShape(t *testing.T) {
	code, out, _ := decodeCmd(t, "<MSG>", "decode", "-")
	var v map[string]string
	if code != exitUsage || json.Unmarshal([]byte(out), &v) != nil || v["class"] != "MALFORMED" || v["reason"] == "" || len(v) != 2 {
		t.Fatalf("exit %d, %s", code, out)
	}
}

// msgx decode refuses what the pump refuses: a value too long for its
// column is PROTOCOL, as the pump would settle it (it decoded before).
func TestDecodeRefusesAValueTooLongForItsColumn(t *testing.T) {
	raw := `<MSG><META><SNDR>AODB</SNDR><SEQN>7</SEQN><DTTM>20261202080000</DTTM><TYPE>FLOP</TYPE><STYP>REMC</STYP></META>` +
		`<FLOP><FLID>1</FLID><REMC>` + strings.Repeat("x", 1001) + `</REMC></FLOP></MSG>`
	code, out, _ := decodeCmd(t, raw, "decode", "-")
	var v map[string]string
	if code != exitUsage || json.Unmarshal([]byte(out), &v) != nil || v["class"] != "PROTOCOL" || !strings.Contains(v["reason"], "flight_schd.remc holds 1000") {
		t.Fatalf("exit %d, %s", code, out)
	}
}

func TestDecodeFlags(t *testing.T) {
	raw, _ := os.ReadFile(filepath.Join(sisFixtures, "flop_botm.xml"))
	code, out, _ := decodeCmd(t, string(raw), "decode", "--tz", "UTC", "-")
	if code != exitOK || !strings.Contains(out, `"time": "2021-12-12T13:50:00Z"`) {
		t.Errorf("--tz UTC: exit %d\n%s", code, out)
	}
	// The zone reads the SIS text (13:50 in Berlin); the JSON is UTC.
	t.Setenv("MSGX_AIRPORT_TZ", "Europe/Berlin")
	if code, out, _ = decodeCmd(t, string(raw), "decode"); code != exitOK || !strings.Contains(out, `"time": "2021-12-12T12:50:00Z"`) {
		t.Errorf("MSGX_AIRPORT_TZ: exit %d\n%s", code, out)
	}
	if code, out, _ = decodeCmd(t, string(raw), "decode", "--max-size", "100"); code != exitUsage || !strings.Contains(out, "CODEC_ERROR") {
		t.Errorf("--max-size: exit %d\n%s", code, out)
	}
	if code, _, _ = decodeCmd(t, "", "decode", "--tz", "Mars/Olympus"); code != exitUsage {
		t.Errorf("bad --tz: exit %d", code)
	}
	if code, _, _ = decodeCmd(t, "", "decode", "a", "b"); code != exitUsage {
		t.Errorf("two files: exit %d", code)
	}
	if code, _, _ = decodeCmd(t, "", "decode", filepath.Join(t.TempDir(), "missing.xml")); code != exitFailure {
		t.Errorf("missing file: exit %d", code)
	}
}
