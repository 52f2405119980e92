// Package sistest builds SIS XML messages for tests: envelopes with a fresh
// SEQN each, schedule records, flight operations and reference lists. The
// flights are on 2 Dec 2026, airport time (Asia/Shanghai). Test support
// only: nothing in the service imports it.
package sistest

import (
	"fmt"
	"strings"
	"sync/atomic"
)

// seq numbers the messages; parallel tests share it.
var seq atomic.Int64

// NextSeq is a SEQN no other message of this process has.
func NextSeq() int { return 1000 + int(seq.Add(1)) }

// SeqAbove makes every later NextSeq larger than n: a benchmark's messages
// continue the SEQNs of a history it generated, as a sender's do on site.
func SeqAbove(n int) {
	for {
		cur := seq.Load()
		if 1000+int(cur) >= n || seq.CompareAndSwap(cur, int64(n-1000)) {
			return
		}
	}
}

// Envelope is a message sent at 2 Dec 2026 08:00 airport time.
func Envelope(typ, styp, body string) string { return EnvelopeAt("20261202080000", typ, styp, body) }

// EnvelopeAt is a message sent at dttm (yyyyMMddHHmmss, airport time).
func EnvelopeAt(dttm, typ, styp, body string) string {
	return fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?>
<MSG>
 <META><SNDR>AODB</SNDR><SEQN>%d</SEQN><DTTM>%s</DTTM><TYPE>%s</TYPE><STYP>%s</STYP></META>
 %s
</MSG>`, NextSeq(), dttm, typ, styp, body)
}

// Fltr is a schedule record of a flight on 2 Dec 2026 (local), plus extra elements.
func Fltr(flid int64, extra ...string) string {
	return fmt.Sprintf(`<FLTR><FLID>%d</FLID><ALCD>CA</ALCD><FLNO>CA%d</FLNO><MVIN>D</MVIN><SODT>02DEC261030</SODT>%s</FLTR>`,
		flid, flid, strings.Join(extra, ""))
}

// Schd is a SCHD message sent at 2 Dec 2026 08:00.
func Schd(styp string, records ...string) string { return SchdAt("20261202080000", styp, records...) }

// SchdAt is a SCHD message sent at dttm (yyyyMMddHHmmss, airport time).
func SchdAt(dttm, styp string, records ...string) string {
	return EnvelopeAt(dttm, "SCHD", styp, fmt.Sprintf("<SCHD><RECS>%d</RECS>%s</SCHD>", len(records), strings.Join(records, "")))
}

// Flop is a FLOP message of one flight.
func Flop(styp string, flid int64, elems ...string) string {
	return Envelope("FLOP", styp, fmt.Sprintf("<FLOP><FLID>%d</FLID>%s</FLOP>", flid, strings.Join(elems, "")))
}

// Gates is a gate list (GTDT elements numbered from 1).
func Gates(codes ...string) string {
	var b strings.Builder
	for i, c := range codes {
		fmt.Fprintf(&b, `<GTDT GTNO="%d"><GATE>%s</GATE></GTDT>`, i+1, c)
	}
	return b.String()
}

// RefList is an AIRL reference list message of the given airline codes.
func RefList(dttm, styp string, codes ...string) string {
	body := fmt.Sprintf("<RECS>%d</RECS>", len(codes))
	for _, c := range codes {
		body += "<AIRL><ALCD>" + c + "</ALCD><ALNM>" + c + " airline</ALNM></AIRL>"
	}
	return EnvelopeAt(dttm, "AIRL", styp, body)
}

// VIPList is a VIPF element with n VIPT entries: a payload that grows with n.
func VIPList(n int) string {
	var b strings.Builder
	b.WriteString("<VIPF><VPCD>JACK</VPCD><VFES>Y</VFES>")
	for i := range n {
		fmt.Fprintf(&b, "<VIPT><VSCD>LOUNGE%03d</VSCD><VTQY>2</VTQY><VTST>02DEC261200</VTST><VTET>02DEC261300</VTET></VIPT>", i)
	}
	b.WriteString("</VIPF>")
	return b.String()
}
