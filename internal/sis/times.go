package sis

import (
	"errors"
	"strconv"
	"time"
)

// Time formats of sis-wire-format.md §6. All times are airport local time in
// the configured zone; parsers trim surrounding blanks, callers keep the raw
// text next to the parsed value.

var errTime = errors.New("bad time")

var monthNames = [12]string{"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 32
	}
	return c
}

// parseMonth reads an English month abbreviation, case-insensitively.
func parseMonth(s string) (time.Month, bool) {
	if len(s) != 3 {
		return 0, false
	}
	u := [3]byte{upper(s[0]), upper(s[1]), upper(s[2])}
	for i, m := range monthNames {
		if m[0] == u[0] && m[1] == u[1] && m[2] == u[2] {
			return time.Month(i + 1), true
		}
	}
	return 0, false
}

// digits parses s as a non-negative decimal of only ASCII digits.
func digits(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

func daysIn(m time.Month, y int) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

func trim(s string) string {
	i, j := 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}

// ParseRecordTime parses a record time: ddMONyyHHmm (e.g. 15DEC031805) or
// the date-only ddMONyy; the month case-insensitively. Two-digit years
// 00–68 are 20yy, 69–99 are 19yy (the convention of Go's time package).
// Impossible dates (31FEB03) and times (2460) are refused.
func ParseRecordTime(s string, loc *time.Location) (t time.Time, dateOnly bool, err error) {
	s = trim(s)
	if len(s) != 11 && len(s) != 7 {
		return time.Time{}, false, errTime
	}
	d, ok1 := digits(s[0:2])
	mon, ok2 := parseMonth(s[2:5])
	yy, ok3 := digits(s[5:7])
	if !ok1 || !ok2 || !ok3 {
		return time.Time{}, false, errTime
	}
	y := 2000 + yy
	if yy >= 69 {
		y = 1900 + yy
	}
	if d < 1 || d > daysIn(mon, y) {
		return time.Time{}, false, errTime
	}
	hh, mm := 0, 0
	if len(s) == 11 {
		var ok4, ok5 bool
		hh, ok4 = digits(s[7:9])
		mm, ok5 = digits(s[9:11])
		if !ok4 || !ok5 || hh > 23 || mm > 59 {
			return time.Time{}, false, errTime
		}
	}
	return time.Date(y, mon, d, hh, mm, 0, 0, loc), len(s) == 7, nil
}

// ParseDTTM parses the META send time yyyyMMddHHmmss.
func ParseDTTM(s string, loc *time.Location) (time.Time, error) {
	s = trim(s)
	if len(s) != 14 {
		return time.Time{}, errTime
	}
	var f [6]int
	for i, w := range [6][2]int{{0, 4}, {4, 6}, {6, 8}, {8, 10}, {10, 12}, {12, 14}} {
		v, ok := digits(s[w[0]:w[1]])
		if !ok {
			return time.Time{}, errTime
		}
		f[i] = v
	}
	if f[1] < 1 || f[1] > 12 || f[2] < 1 || f[2] > daysIn(time.Month(f[1]), f[0]) ||
		f[3] > 23 || f[4] > 59 || f[5] > 59 {
		return time.Time{}, errTime
	}
	return time.Date(f[0], time.Month(f[1]), f[2], f[3], f[4], f[5], 0, loc), nil
}

// ParseHHMM parses an HHMM duration (SCHT, DURA) into minutes: 0200 = 120.
func ParseHHMM(s string) (int64, error) {
	s = trim(s)
	if len(s) != 4 {
		return 0, errTime
	}
	h, ok1 := digits(s[:2])
	m, ok2 := digits(s[2:])
	if !ok1 || !ok2 || m > 59 {
		return 0, errTime
	}
	return int64(h*60 + m), nil
}

// ParseDayOffset parses a day offset such as +1, -1 or 0 (SADC, SDDC).
func ParseDayOffset(s string) (int64, error) {
	s = trim(s)
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if len(s) > 2 {
		return 0, errTime
	}
	v, ok := digits(s)
	if !ok {
		return 0, errTime
	}
	if neg {
		v = -v
	}
	return int64(v), nil
}

// FormatRecordTime formats t as ddMONyyHHmm (upper-case month).
func FormatRecordTime(t time.Time) string {
	b := make([]byte, 0, 11)
	b = appendInt2(b, t.Day())
	b = append(b, monthNames[t.Month()-1]...)
	b = appendInt2(b, t.Year()%100)
	b = appendInt2(b, t.Hour())
	return string(appendInt2(b, t.Minute()))
}

// FormatDTTM formats t as yyyyMMddHHmmss.
func FormatDTTM(t time.Time) string {
	b := make([]byte, 0, 14)
	y := strconv.Itoa(t.Year())
	for len(y) < 4 {
		y = "0" + y
	}
	b = append(b, y...)
	for _, v := range []int{int(t.Month()), t.Day(), t.Hour(), t.Minute(), t.Second()} {
		b = appendInt2(b, v)
	}
	return string(b)
}

func appendInt2(b []byte, v int) []byte {
	return append(b, byte('0'+v/10%10), byte('0'+v%10))
}
