package flight

import (
	"fmt"
	"testing"
	"time"

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

// flopMixRecord is the r-th variant of the FLOP kind k of the pump
// benchmarks' mix (internal/pump flopMix): times, stand and remark
// changes, and the lists the AODB resends whole, each value new.
func flopMixRecord(tb testing.TB, k, r int) *sis.FlightRecord {
	minute := 360 + r%960
	hhmm := fmt.Sprintf("%02d%02d", minute/60, minute%60)
	switch k {
	case 0:
		return decodeFLOP(tb, "STND", fmt.Sprintf("<STND>%d</STND>", 300+r%600))
	case 1:
		return decodeFLOP(tb, "TOBT", "<TOBT>02DEC26"+hhmm+"</TOBT>")
	case 2:
		return decodeFLOP(tb, "EOBT", "<EOBT>02DEC26"+hhmm+"</EOBT>")
	case 3:
		return decodeFLOP(tb, "GTDT", fmt.Sprintf(`<GTDT GTNO="1"><GATE>B%d</GATE></GTDT><GTDT GTNO="2"><GATE>C%d</GATE></GTDT>`, r%97, r%89))
	case 4:
		return decodeFLOP(tb, "CKDT", fmt.Sprintf(`<CKDT CKNO="1"><CHKC>%d</CHKC><PCOT>02DEC26%s</PCOT></CKDT><CKDT CKNO="2"><CHKC>%d</CHKC></CKDT>`, 100+r%97, hhmm, 200+r%89))
	case 5:
		return decodeFLOP(tb, "DELY", fmt.Sprintf(`<DELY CODE="%d" DURA="00%02d">late</DELY>`, 81+r%10, 5+r%53))
	case 6:
		return decodeFLOP(tb, "REMC", fmt.Sprintf("<REMC>remark %d</REMC>", r))
	case 7:
		return decodeFLOP(tb, "PEDT", "<PEDT>02DEC26"+hhmm+"</PEDT>")
	case 8:
		return decodeFLOP(tb, "CLDT", fmt.Sprintf(`<CLDT CLNO="1"><BELT>%d</BELT></CLDT>`, 30+r%23))
	default:
		return decodeFLOP(tb, "NEAT", "<NEAT>02DEC26"+hhmm+"</NEAT>")
	}
}

// BenchmarkFLOPMix is the pump's FLOP drain in this package
// (BenchmarkTenantCPU): 2 000 full flights in turn, each changed by its
// kind of the mix (flight f by kind f%10, as the pump's benchmark sends
// them), each change computed on the state the one before left. Next
// alone, Next with EventPayload (every list encoded), Next with
// ChangePayload (the pump's: the lists the change left alone copied from
// the state before's): the differences are what the payload costs.
func BenchmarkFLOPMix(b *testing.B) {
	const flights, variants = 2000, 16
	recs := make([][]*sis.FlightRecord, 10)
	for k := range recs {
		for r := range variants {
			recs[k] = append(recs[k], flopMixRecord(b, k, r))
		}
	}
	by := Sent{DTTM: time.Date(2026, 12, 2, 1, 3, 11, 0, time.UTC)}
	run := func(b *testing.B, payload func(*State) ([]byte, error)) {
		states := make([]*State, flights)
		for i := range states {
			states[i] = fullFlight(b)
		}
		step := func(i int) {
			f := i % flights
			r, err := Next(states[f], recs[f%10][(i/flights)%variants], false, int64(i), now, by)
			if err != nil || !r.Changed {
				b.Fatal(err, r.Changed)
			}
			if payload != nil {
				if _, err := payload(r.Next); err != nil {
					b.Fatal(err)
				}
			}
			states[f] = r.Next
		}
		for i := range flights { // every flight once: its stamps as after the DNLD and one FLOP
			step(i)
		}
		b.ReportAllocs()
		b.ResetTimer()
		for i := range b.N {
			step(flights + i)
		}
	}
	b.Run("Next", func(b *testing.B) { run(b, nil) })
	b.Run("NextAndEventPayload", func(b *testing.B) { run(b, EventPayload) })
	b.Run("NextAndChangePayload", func(b *testing.B) {
		run(b, func(s *State) ([]byte, error) { return ChangePayload(s, nil) })
	})
}
