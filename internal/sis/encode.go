package sis

import (
	"strconv"
	"strings"
	"time"
)

// RequestMeta is the META of an outbound request (sis-wire-format.md §7).
type RequestMeta struct {
	Sender   string // our sender code, e.g. MSGX
	Receiver string // optional RCVR
	Seq      int64  // sequence number we allocate
	Sent     time.Time
	// Location is the airport zone times are written in; nil keeps each
	// time's own location.
	Location *time.Location
}

// EncodeRQFD builds a flight data request: TYPE=RQFD, STYP=NONE, body
// RQFD { STDB, STDE } with the SODT range as ddMONyyHHmm.
func EncodeRQFD(meta RequestMeta, begin, end time.Time) []byte {
	var b strings.Builder
	writeRequestHead(&b, meta, "RQFD", "NONE")
	b.WriteString("  <RQFD>\n    <STDB>")
	b.WriteString(FormatRecordTime(meta.in(begin)))
	b.WriteString("</STDB>\n    <STDE>")
	b.WriteString(FormatRecordTime(meta.in(end)))
	b.WriteString("</STDE>\n  </RQFD>\n</MSG>\n")
	return []byte(b.String())
}

// EncodeRQRD builds a reference data request: TYPE=RQRD, STYP=<list
// code>, body RQRD { RTYP = <list code> }.
func EncodeRQRD(meta RequestMeta, listCode string) []byte {
	code := strings.ToUpper(strings.TrimSpace(listCode))
	var b strings.Builder
	writeRequestHead(&b, meta, "RQRD", code)
	b.WriteString("  <RQRD>\n    <RTYP>")
	escapeXML(&b, code, false)
	b.WriteString("</RTYP>\n  </RQRD>\n</MSG>\n")
	return []byte(b.String())
}

func (m RequestMeta) in(t time.Time) time.Time {
	if m.Location != nil {
		return t.In(m.Location)
	}
	return t
}

func writeRequestHead(b *strings.Builder, meta RequestMeta, typ, styp string) {
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<MSG>\n  <META>\n    <SNDR>")
	escapeXML(b, meta.Sender, false)
	b.WriteString("</SNDR>\n")
	if meta.Receiver != "" {
		b.WriteString("    <RCVR>")
		escapeXML(b, meta.Receiver, false)
		b.WriteString("</RCVR>\n")
	}
	b.WriteString("    <SEQN>")
	b.WriteString(strconv.FormatInt(meta.Seq, 10))
	b.WriteString("</SEQN>\n    <DTTM>")
	b.WriteString(FormatDTTM(meta.in(meta.Sent)))
	b.WriteString("</DTTM>\n    <TYPE>")
	b.WriteString(typ)
	b.WriteString("</TYPE>\n    <STYP>")
	escapeXML(b, styp, false)
	b.WriteString("</STYP>\n  </META>\n")
}
