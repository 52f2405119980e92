package pump

import (
	"fmt"
	"testing"
	"time"
)

// fullRecord is a schedule record with every repeated group populated.
func fullRecord(flid int64) string {
	return fltr(flid,
		"<STND>201</STND><ESTT>02DEC261040</ESTT><REMC>ok</REMC>",
		gates("A1", "A2", "A3"),
		`<CKDT CKNO="1"><CHKC>101</CHKC><PCOT>02DEC260800</PCOT></CKDT><CKDT CKNO="2"><CHKC>102</CHKC></CKDT>`,
		`<CLDT CLNO="1"><BELT>7</BELT></CLDT>`,
		`<PSDT PSNO="1"><PSST>201</PSST><STST>02DEC261000</STST><STET>02DEC261100</STET></PSDT>`,
		`<CHDT CHNO="1"><CHUT>C1</CHUT></CHDT>`,
		`<DELY CODE="93" DURA="0030">late</DELY>`,
		`<ABTM ASNO="1"><ABDG>B1</ABDG><ABOP>A</ABOP><AOTM>02DEC261005</AOTM></ABTM>`,
		`<CHOT CSNO="1"><CHTM>02DEC261002</CHTM><CHID>ON</CHID></CHOT>`,
		`<ROUT RTNO="1"><APCD>CAN</APCD></ROUT><ROUT RTNO="2"><APCD>PEK</APCD></ROUT>`,
		`<ERUT RTNO="1"><APCD>SHA</APCD></ERUT>`,
	)
}

func dnld(n int) string {
	recs := make([]string, n)
	for i := range recs {
		recs[i] = fullRecord(int64(i + 1))
	}
	return schd("DNLD", recs...)
}

// BenchmarkPipeline reports, from one run on the real databases: the DNLD
// apply time of 2 000 flights, FLOP messages/s through the pump (decode,
// transaction, commit), and the single-row-insert commit rate of the same
// PostgreSQL as the baseline.
func BenchmarkPipeline(b *testing.B) {
	b.Run("DNLD2000", func(b *testing.B) {
		for range b.N {
			b.StopTimer()
			e := newEnv(b)
			e.Send(b, dnld(2000))
			b.StartTimer()
			if _, err := e.pump.Step(b.Context()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("FLOP", func(b *testing.B) {
		b.StopTimer()
		e := newEnv(b)
		e.Send(b, dnld(200))
		e.StepUntilWait(b)
		ids := make([]int64, 0, b.N)
		for i := range b.N {
			id, err := e.Mailbox.Insert(b.Context(), []byte(flop("STND", int64(i%200+1), fmt.Sprintf("<STND>%d</STND>", i))), start)
			if err != nil {
				b.Fatal(err)
			}
			ids = append(ids, id)
		}
		if _, err := e.Store.Enqueue(b.Context(), ids, start); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		began := time.Now()
		e.StepUntilWait(b)
		b.ReportMetric(float64(b.N)/time.Since(began).Seconds(), "msgs/s")
	})
	b.Run("BaselineSingleRowCommit", func(b *testing.B) {
		e := newEnv(b)
		b.ResetTimer()
		began := time.Now()
		for i := range b.N {
			if _, err := e.Store.Enqueue(b.Context(), []int64{int64(i + 1)}, start); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/time.Since(began).Seconds(), "commits/s")
	})
}
