package sis

import (
	"testing"
	"time"
)

func TestEncodeRoundTrip(t *testing.T) {
	loc := shanghai(t)
	meta := RequestMeta{Sender: "MSGX", Receiver: "AODB", Seq: 4711, Sent: time.Date(2021, 12, 12, 8, 0, 5, 0, loc), Location: loc}
	begin := time.Date(2021, 12, 12, 0, 0, 0, 0, loc)
	end := time.Date(2021, 12, 13, 23, 59, 0, 0, loc)
	m, err := Decode(EncodeRQFD(meta, begin, end), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if m.Kind != KindRequest || m.Request.Type != "RQFD" || m.Meta.Subtype != "NONE" || m.Meta.Sender != "MSGX" ||
		m.Meta.Receiver != "AODB" || m.Meta.Seq != 4711 || !m.Meta.Sent.Equal(meta.Sent) ||
		!m.Request.Begin.Time.Equal(begin) || !m.Request.End.Time.Equal(end) || m.Identity != "MSGX|RQFD|NONE|4711" {
		t.Fatalf("%+v %+v", m.Meta, m.Request)
	}
	// A UTC instant is written in the airport zone.
	m, err = Decode(EncodeRQFD(meta, begin.UTC(), end.UTC()), DefaultOptions())
	if err != nil || !m.Request.Begin.Time.Equal(begin) || m.Request.Begin.Raw != "12DEC210000" {
		t.Fatalf("%+v %v", m.Request, err)
	}
	m, err = Decode(EncodeRQRD(meta, " airl "), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if m.Kind != KindRequest || m.Request.Type != "RQRD" || m.Meta.Subtype != "AIRL" || m.Request.ListCode.Raw != "AIRL" {
		t.Fatalf("%+v %+v", m.Meta, m.Request)
	}
	meta.Sender = "M&S<X>"
	if m, err = Decode(EncodeRQRD(meta, "GLST"), DefaultOptions()); err != nil || m.Meta.Sender != "M&S<X>" {
		t.Fatalf("escaping: %v %v", m, err)
	}
}
