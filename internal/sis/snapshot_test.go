package sis

import (
	"fmt"
	"strings"
	"testing"
)

func scheduleWith(styp string, flids ...int) string {
	var recs strings.Builder
	for _, id := range flids {
		fmt.Fprintf(&recs, "<FLTR><FLID>%d</FLID><SODT>12DEC211030</SODT></FLTR>", id)
	}
	return fmt.Sprintf(`<MSG><META><SNDR>AODB</SNDR><SEQN>1</SEQN><DTTM>20211212090311</DTTM><TYPE>SCHD</TYPE><STYP>%s</STYP></META>`+
		`<SCHD><RECS>%d</RECS>%s</SCHD></MSG>`, styp, len(flids), recs.String())
}

// A snapshot names each flight once (rule 15); ADFT/UPD/DEL apply repeated
// records in order, as FLOP does.
func TestSnapshotNamesAFlightOnce(t *testing.T) {
	for _, styp := range []string{"DNLD", "RESP"} {
		_, err := Decode([]byte(scheduleWith(styp, 7, 8, 7)), DefaultOptions())
		if ClassOf(err) != ClassProtocol || !strings.Contains(err.Error(), "FLID 7 is named twice in the "+styp+" snapshot") {
			t.Fatalf("%s naming FLID 7 twice: %v", styp, err)
		}
		if _, err := Decode([]byte(scheduleWith(styp, 7, 8)), DefaultOptions()); err != nil {
			t.Fatalf("%s: %v", styp, err)
		}
	}
	for _, styp := range []string{"ADFT", "UPD", "DEL"} {
		m, err := Decode([]byte(scheduleWith(styp, 7, 7)), DefaultOptions())
		if err != nil || len(m.Schedule.Flights) != 2 {
			t.Fatalf("%s naming FLID 7 twice: %v", styp, err)
		}
	}
}
