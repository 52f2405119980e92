package flight

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/sis"
)

// fullFlight is a flight of the pipeline benchmarks' download
// (internal/pump fullRecord): a dozen scalars and every group.
func fullFlight(tb testing.TB) *State {
	raw := `<MSG><META><SNDR>AODB</SNDR><SEQN>5</SEQN><DTTM>20261202090311</DTTM><TYPE>SCHD</TYPE><STYP>UPD</STYP></META><SCHD><RECS>1</RECS><FLTR>` +
		`<FLID>7</FLID><ALCD>CA</ALCD><FLNO>CA7</FLNO><MVIN>D</MVIN><SODT>02DEC261030</SODT>` +
		`<STND>201</STND><ESTT>02DEC261040</ESTT><REMC>ok</REMC>` +
		`<GTDT GTNO="1"><GATE>A1</GATE></GTDT><GTDT GTNO="2"><GATE>A2</GATE></GTDT><GTDT GTNO="3"><GATE>A3</GATE></GTDT>` +
		`<CKDT CKNO="1"><CHKC>101</CHKC><PCOT>02DEC260800</PCOT></CKDT><CKDT CKNO="2"><CHKC>102</CHKC></CKDT>` +
		`<CLDT CLNO="1"><BELT>7</BELT></CLDT>` +
		`<PSDT PSNO="1"><PSST>201</PSST><STST>02DEC261000</STST><STET>02DEC261100</STET></PSDT>` +
		`<CHDT CHNO="1"><CHUT>C1</CHUT></CHDT><DELY CODE="93" DURA="0030">late</DELY>` +
		`<ABTM ASNO="1"><ABDG>B1</ABDG><ABOP>A</ABOP><AOTM>02DEC261005</AOTM></ABTM>` +
		`<CHOT CSNO="1"><CHTM>02DEC261002</CHTM><CHID>ON</CHID></CHOT>` +
		`<ROUT RTNO="1"><APCD>CAN</APCD></ROUT><ROUT RTNO="2"><APCD>PEK</APCD></ROUT><ERUT RTNO="1"><APCD>SHA</APCD></ERUT>` +
		`</FLTR></SCHD></MSG>`
	m, err := sis.Decode([]byte(raw), sis.DefaultOptions())
	require.NoError(tb, err)
	r, err := Next(nil, m.Schedule.Flights[0], false, 1, now, Sent{})
	require.NoError(tb, err)
	return r.Next
}

// BenchmarkNextAndPayload is the pump's per-message work in this package:
// the next state of a full flight after a one-gate FLOP, and its event
// payload.
func BenchmarkNextAndPayload(b *testing.B) {
	cur := fullFlight(b)
	rec := decodeFLOP(b, "GTDT", `<GTDT GTNO="1"><GATE>B7</GATE></GTDT><GTDT GTNO="2"><GATE>C9</GATE></GTDT>`)
	b.Run("Next", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := Next(cur, rec, false, 2, now, Sent{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("EventPayload", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := EventPayload(cur); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkEventPayloadCold is EventPayload over the states of 2 000
// distinct full flights in turn, as the pump meets them: their maps are
// not in the processor's cache.
func BenchmarkEventPayloadCold(b *testing.B) {
	states := make([]*State, 2000)
	for i := range states {
		states[i] = fullFlight(b)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if _, err := EventPayload(states[i%len(states)]); err != nil {
			b.Fatal(err)
		}
	}
}
