package sis

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// buildDNLD builds a SCHD/DNLD of n flights with every scalar, every
// repeated group (two items each, three gates), every structure and every
// payload populated: the worst realistic case for the daily download.
func buildDNLD(n int) []byte {
	var b strings.Builder
	b.Grow(n * 5200)
	fmt.Fprintf(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<MSG xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:noNamespaceSchemaLocation=\"unisysaodbsis.xsd\">\n"+
		"<META>\n<SNDR>AODB</SNDR>\n<SEQN>345935</SEQN>\n<DTTM>20211212223126</DTTM>\n<TYPE>SCHD</TYPE>\n<STYP>DNLD</STYP>\n</META>\n<SCHD>\n<RECS>%d</RECS>\n", n)
	for i := 0; i < n; i++ {
		b.WriteString("<FLTR>\n")
		fmt.Fprintf(&b, "<FLID>%d</FLID>\n", 100000+i)
		for id := ScalarID(0); id < numScalars; id++ {
			v := "V" + fmt.Sprint(i%97)
			switch scalarSpecs[id].typ {
			case TypeTime:
				v = "13DEC21" + fmt.Sprintf("%02d%02d", i%24, i%60)
			case TypeDuration:
				v = "0215"
			case TypeEnum:
				v = scalarSpecs[id].enum[i%len(scalarSpecs[id].enum)]
			}
			fmt.Fprintf(&b, "<%s>%s</%s>\n", id, v, id)
		}
		b.WriteString(`<GTDT GTNO="1"><GATE>G28</GATE><PGOT>13DEC211805</PGOT><PGCT>13DEC211925</PGCT><GOTM>13DEC211825</GOTM><GCTM>13DEC211920</GCTM><GTYP>D</GTYP></GTDT>
<GTDT GTNO="2"><GATE>G33</GATE><PGOT>13DEC211805</PGOT><PGCT>13DEC211925</PGCT><GTYP>I</GTYP></GTDT>
<GTDT GTNO="2"><GATE>G33</GATE><PGOT>13DEC211805</PGOT><PGCT>13DEC211925</PGCT><GTYP>D</GTYP></GTDT>
<CKDT CKNO="1"><CHKC>01</CHKC><CCLS>X</CCLS><PCOT>13DEC211515</PCOT><PCCT>13DEC211725</PCCT><COTM>13DEC211525</COTM><CCTM>13DEC211720</CCTM><CTYP>D</CTYP></CKDT>
<CKDT CKNO="2"><CHKC>02</CHKC><CCLS>X</CCLS><PCOT>13DEC211515</PCOT><PCCT>13DEC211725</PCCT><CTYP>D</CTYP></CKDT>
<CLDT CLNO="1"><BELT>B01</BELT><BCLS>X</BCLS><PCOT>13DEC211330</PCOT><PCCT>13DEC211430</PCCT><FBAG>13DEC211335</FBAG><LBAG>13DEC211425</LBAG><BTYP>D</BTYP></CLDT>
<CLDT CLNO="2"><BELT>B02</BELT><BCLS>X</BCLS><PCOT>13DEC211330</PCOT><PCCT>13DEC211430</PCCT><BTYP>D</BTYP></CLDT>
<PSDT PSNO="1"><PSST>504</PSST><STST>13DEC210237</STST><STET>13DEC210549</STET></PSDT>
<PSDT PSNO="2"><PSST>505</PSST><STST>13DEC210549</STST><STET>13DEC210700</STET></PSDT>
<CHDT CHNO="1"><CHUT>CH0021</CHUT><CCLS>X</CCLS><PCBT>13DEC211530</PCBT><PCET>13DEC211830</PCET><CBTM>13DEC211520</CBTM><CETM>13DEC211900</CETM><CTYP>D</CTYP></CHDT>
<CHDT CHNO="2"><CHUT>CH0025</CHUT><CCLS>X</CCLS><PCBT>13DEC211530</PCBT><PCET>13DEC211830</PCET><CTYP>D</CTYP></CHDT>
<DELY CODE="YY" STRT="13DEC211605" DURA="0200">YYYYYYY</DELY>
<DELY CODE="XX" STRT="13DEC211805" DURA="0015">天气原因</DELY>
<ABTM ASNO="1"><ABDG>212</ABDG><ABOP>A</ABOP><AOTM>13DEC211346</AOTM></ABTM>
<ABTM ASNO="2"><ABDG>212</ABDG><ABOP>D</ABOP><AOTM>13DEC211420</AOTM></ABTM>
<CHOT CSNO="1"><CHTM>13DEC211343</CHTM><CHID>ON</CHID><CHST>504</CHST></CHOT>
<CHOT CSNO="2"><CHTM>13DEC211520</CHTM><CHID>OFF</CHID><CHST>504</CHST></CHOT>
<ROUT RTNO = "1"><APCD>PEK</APCD><SCDT>13DEC211100</SCDT><SDDC>0</SDDC></ROUT>
<ROUT RTNO = "2"><APCD>SHA</APCD><SCAT>13DEC211345</SCAT><SADC>+0</SADC></ROUT>
<ERUT RTNO = "1"><APCD>CTU</APCD><SCDT>12DEC212335</SCDT><SDDC>-1</SDDC></ERUT>
<ERUT RTNO = "2"><APCD>XIY</APCD><SCAT>14DEC210110</SCAT><SADC>+1</SADC></ERUT>
<FDIV DDES="HKG" DDIR="TO">weather</FDIV>
<FRET REID="A">weather return</FRET>
<FLAB ARES="O">over shot</FLAB>
<SRVT><SRTC>ATN</SRTC><SRQT>2</SRQT><SRST>13DEC211400</SRST><SRET>13DEC211430</SRET><SRPR></SRPR><SANR>MACHINE</SANR><SARR>由于机器问题</SARR></SRVT>
<SRVT><SRTC>WCH</SRTC><SRQT>1</SRQT><SRST>13DEC211410</SRST><SRET/><SRPR>H</SRPR><SANR/><SARR/></SRVT>
<VIPF><VPCD>JACK</VPCD><VFES>Y</VFES><VIPT><VSCD>LOUNGE</VSCD><VTQY>2</VTQY><VTST>13DEC211200</VTST><VTET>13DEC211300</VTET></VIPT></VIPF>
<PSHT PSHN="1"><PSTM>13DEC211346</PSTM><PSID>IN</PSID><PUST>504</PUST></PSHT>
<PSHT PSHN="2"><PSTM>13DEC211400</PSTM><PSID>OUT</PSID><PUST>504</PUST></PSHT>
<TIPT><TRTM>13DEC211500</TRTM><TRST>Y</TRST></TIPT>
<PORT><POTM>13DEC211510</POTM><POID>P01</POID></PORT>
<MAFL><MACD>M1</MACD><MAIT CODE="A"><MAQY>3</MAQY></MAIT></MAFL>
</FLTR>
`)
	}
	b.WriteString("</SCHD>\n</MSG>\n")
	return []byte(b.String())
}

// The benchmark input is what it claims to be.
func TestBuildDNLD(t *testing.T) {
	m, err := Decode(buildDNLD(20), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range m.Schedule.Flights {
		for id := range numScalars {
			if f := r.Scalars.Get(id); f.Op != Set {
				t.Fatalf("scalar %s not set", ScalarID(id))
			}
		}
		for g := range numGroups {
			if op := r.Groups.Get(g); op.Op != Replace || len(op.Items) < 2 {
				t.Fatalf("group %s: %v %d", GroupID(g), op.Op, len(op.Items))
			}
		}
		for s := range numStructs {
			if op := r.Structs.Get(s); op.Op != Set {
				t.Fatalf("struct %s", StructID(s))
			}
		}
		for p := range numPayloads {
			if op := r.Payloads.Get(p); op.Op != Replace || op.Count == 0 {
				t.Fatalf("payload %s", PayloadID(p))
			}
		}
	}
}

func BenchmarkDecodeDNLD2000(b *testing.B) {
	raw := buildDNLD(2000)
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m, err := Decode(raw, DefaultOptions())
		if err != nil || len(m.Schedule.Flights) != 2000 {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/msg")
}

// Baseline: only tokenising the same bytes with encoding/xml.
func BenchmarkBaselineXMLTokenDNLD2000(b *testing.B) {
	raw := buildDNLD(2000)
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		tokenize(b, raw)
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/msg")
}

func flopFixtures(b *testing.B) [][]byte {
	files, _ := filepath.Glob(filepath.Join(fixtureDir, "flop_*.xml"))
	var out [][]byte
	for _, f := range files {
		out = append(out, mustRead(b, f))
	}
	return out
}

// FLOP messages of every subtype, round robin.
func BenchmarkDecodeFLOP(b *testing.B) {
	msgs := flopFixtures(b)
	var size int64
	for _, m := range msgs {
		size += int64(len(m))
	}
	b.SetBytes(size / int64(len(msgs)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Decode(msgs[i%len(msgs)], DefaultOptions()); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}

func BenchmarkBaselineXMLTokenFLOP(b *testing.B) {
	msgs := flopFixtures(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		tokenize(b, msgs[i%len(msgs)])
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}

func tokenize(b *testing.B, raw []byte) {
	d := xml.NewDecoder(bytes.NewReader(raw))
	d.Strict = true
	for {
		_, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}
