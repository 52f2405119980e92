package widths_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/widths"
)

func decode(t *testing.T, sndr, typ, styp, body string) *sis.Message {
	t.Helper()
	m, err := sis.Decode([]byte(fmt.Sprintf(`<MSG><META><SNDR>%s</SNDR><SEQN>7</SEQN><DTTM>20261202080000</DTTM>`+
		`<TYPE>%s</TYPE><STYP>%s</STYP></META>%s</MSG>`, sndr, typ, styp, body)), sis.DefaultOptions())
	require.NoError(t, err)
	return m
}

func flop(elems string) string {
	return "<FLOP><FLID>1</FLID>" + elems + "</FLOP>"
}

func TestCheck(t *testing.T) {
	long := strings.Repeat("x", 1001)
	cases := []struct {
		name, sndr, typ, styp, body string
		want                        string // "" = fits
	}{
		{"fits", "AODB", "FLOP", "REMC", flop("<REMC>" + strings.Repeat("x", 1000) + "</REMC>"), ""},
		// PostgreSQL counts characters, not bytes: 1000 CJK characters fit.
		{"characters not bytes", "AODB", "FLOP", "REMC", flop("<REMC>" + strings.Repeat("延", 1000) + "</REMC>"), ""},
		{"scalar", "AODB", "FLOP", "REMC", flop("<REMC>" + long + "</REMC>"),
			"FLID 1/REMC: 1001 characters, the column flight_schd.remc holds 1000"},
		{"schedule scalar", "AODB", "SCHD", "UPD",
			"<SCHD><RECS>1</RECS><FLTR><FLID>5</FLID><SODT>02DEC261030</SODT><FFID>" + long + "</FFID></FLTR></SCHD>",
			"FLID 5/FFID: 1001 characters, the column flight_schd.ffid holds 1000"},
		{"item field", "AODB", "FLOP", "GTDT", flop(`<GTDT GTNO="1"><GATE>A1</GATE></GTDT><GTDT GTNO="2"><GATE>` + long + `</GATE></GTDT>`),
			"FLID 1/GTDT[2]/GATE: 1001 characters, the column flight_gate.gate holds 1000"},
		// An enumeration keeps its raw text: padded, it outgrows VARCHAR(1).
		{"narrow item field", "AODB", "FLOP", "ABTM", flop(`<ABTM ASNO="1"><ABOP> A </ABOP></ABTM>`),
			"FLID 1/ABTM[1]/ABOP: 3 characters, the column flight_bridge_op.abop holds 1"},
		{"item text", "AODB", "FLOP", "DELY", flop(`<DELY CODE="11">` + long + `</DELY>`),
			"FLID 1/DELY[1]: 1001 characters, the column flight_delay.reason holds 1000"},
		{"item attribute", "AODB", "FLOP", "DELY", flop(`<DELY CODE="` + long + `">late</DELY>`),
			"FLID 1/DELY[1]@CODE: 1001 characters, the column flight_delay.code holds 1000"},
		{"struct attribute", "AODB", "FLOP", "FDIV", flop(`<FDIV DDES="PEK" DDIR="  TO ">x</FDIV>`),
			"FLID 1/FDIV@DDIR: 5 characters, the column flight_schd.fdiv_ddir holds 4"},
		{"sender", strings.Repeat("S", 40), "FLOP", "REMC", flop("<REMC>x</REMC>"),
			"MSG/META/SNDR: 40 characters, the column proc_state.meta_sndr holds 32"},
		{"reference key", "AODB", "AIRL", "UPD", "<RECS>1</RECS><AIRL><ALCD>" + long + "</ALCD></AIRL>",
			"AIRL record 1/ALCD: 1001 characters, the column ref_master.rkey holds 1000"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := widths.Check(decode(t, c.sndr, c.typ, c.styp, c.body))
			if c.want == "" {
				require.NoError(t, err)
				return
			}
			require.Equal(t, sis.ClassProtocol, sis.ClassOf(err))
			var se *sis.Error
			require.ErrorAs(t, err, &se)
			require.Equal(t, c.want, se.Detail())
		})
	}
}

func TestTargetFits(t *testing.T) {
	require.Equal(t, 32, widths.Sender.Width)
	require.True(t, widths.Sender.Fits(strings.Repeat("é", 32)))
	require.False(t, widths.Sender.Fits(strings.Repeat("é", 33)))
	require.Equal(t, 300, widths.Identity.Width)
	require.Equal(t, 1000, widths.Reason.Width)
}
