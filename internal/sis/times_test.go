package sis

import (
	"math/rand"
	"testing"
	"time"
)

func shanghai(t testing.TB) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	return loc
}

func TestParseRecordTime(t *testing.T) {
	loc := shanghai(t)
	ok := []struct {
		in       string
		want     string
		dateOnly bool
	}{
		{"15DEC031805", "2003-12-15T18:05:00+08:00", false},
		{"16Nov200535", "2020-11-16T05:35:00+08:00", false},
		{"16nov200535", "2020-11-16T05:35:00+08:00", false},
		{"01jAn000000", "2000-01-01T00:00:00+08:00", false},
		{"31DEC682359", "2068-12-31T23:59:00+08:00", false},
		{"01JAN690000", "1969-01-01T00:00:00+08:00", false},
		{"29FEB24", "2024-02-29T00:00:00+08:00", true},
		{" 12DEC21 ", "2021-12-12T00:00:00+08:00", true},
		{"\t15DEC031805\n", "2003-12-15T18:05:00+08:00", false},
	}
	for _, c := range ok {
		got, dateOnly, err := ParseRecordTime(c.in, loc)
		if err != nil || got.Format(time.RFC3339) != c.want || dateOnly != c.dateOnly {
			t.Errorf("ParseRecordTime(%q) = %v %v %v, want %s %v", c.in, got, dateOnly, err, c.want, c.dateOnly)
		}
	}
	for _, bad := range []string{"", "31FEB031805", "29FEB231200", "30FEB24", "32JAN211200", "00JAN211200",
		"15DEC032405", "15DEC031860", "15DEK031805", "15DEC03180", "15DEC0318055", "1DEC031805", "15DEC3",
		"AADEC031805", "15DEC0A1805", "15DEC03 805", "+5DEC031805", "15-DEC-03", "2003-12-15"} {
		if _, _, err := ParseRecordTime(bad, loc); err == nil {
			t.Errorf("ParseRecordTime(%q) accepted", bad)
		}
	}
}

// Formatting then parsing any minute gives it back (upper- and lower-case).
func TestRecordTimeRoundTrip(t *testing.T) {
	loc := shanghai(t)
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 5000; i++ {
		want := time.Date(1969+r.Intn(100), time.Month(1+r.Intn(12)), 1+r.Intn(28), r.Intn(24), r.Intn(60), 0, 0, loc)
		want = want.AddDate(0, 0, r.Intn(3)) // reach the 29th–31st too
		s := FormatRecordTime(want)
		if i%2 == 1 {
			s = s[:2] + string(s[2]) + string(s[3]+32) + string(s[4]+32) + s[5:]
		}
		got, _, err := ParseRecordTime(s, loc)
		if err != nil || !got.Equal(want) {
			t.Fatalf("%s: got %v %v, want %v", s, got, err, want)
		}
	}
}

func TestParseDTTM(t *testing.T) {
	loc := shanghai(t)
	got, err := ParseDTTM("20021010090311", loc)
	if err != nil || got.Format(time.RFC3339) != "2002-10-10T09:03:11+08:00" {
		t.Fatalf("got %v %v", got, err)
	}
	for _, bad := range []string{"", "2002101009031", "200210100903111", "20021310090311", "20020230090311",
		"20021010240311", "20021010096011", "20021010090360", "2002101009031a", "20021000090311"} {
		if _, err := ParseDTTM(bad, loc); err == nil {
			t.Errorf("ParseDTTM(%q) accepted", bad)
		}
	}
	if s := FormatDTTM(got); s != "20021010090311" {
		t.Errorf("FormatDTTM = %s", s)
	}
}

func TestParseHHMMAndDayOffset(t *testing.T) {
	for in, want := range map[string]int64{"0200": 120, "0000": 0, "0015": 15, "9959": 5999, " 0130 ": 90} {
		if got, err := ParseHHMM(in); err != nil || got != want {
			t.Errorf("ParseHHMM(%q) = %d %v, want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "200", "02:00", "0260", "-100", "2h00", "00000"} {
		if _, err := ParseHHMM(bad); err == nil {
			t.Errorf("ParseHHMM(%q) accepted", bad)
		}
	}
	for in, want := range map[string]int64{"+1": 1, "-1": -1, "0": 0, "+0": 0, "1": 1, "-10": -10, " +2 ": 2} {
		if got, err := ParseDayOffset(in); err != nil || got != want {
			t.Errorf("ParseDayOffset(%q) = %d %v, want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "+", "-", "++1", "1d", "+100", "one"} {
		if _, err := ParseDayOffset(bad); err == nil {
			t.Errorf("ParseDayOffset(%q) accepted", bad)
		}
	}
}

// The zone comes from the options, never UTC by assumption.
func TestTimesUseConfiguredZone(t *testing.T) {
	la, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		t.Skip(err)
	}
	raw := []byte(`<MSG><META><SNDR>AODB</SNDR><SEQN>1</SEQN><DTTM>20210704120000</DTTM><TYPE>FLOP</TYPE><STYP>BOTM</STYP></META>` +
		`<FLOP><FLID>1</FLID><BOTM>04JUL211200</BOTM></FLOP></MSG>`)
	opt := DefaultOptions()
	opt.Location = la
	m, err := Decode(raw, opt)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.FlightOps.Records[0].Scalars.Get(BOTM).Time.Format(time.RFC3339); got != "2021-07-04T12:00:00-07:00" {
		t.Errorf("BOTM = %s", got)
	}
	if got := m.Meta.Sent.Format(time.RFC3339); got != "2021-07-04T12:00:00-07:00" {
		t.Errorf("DTTM = %s", got)
	}
}
