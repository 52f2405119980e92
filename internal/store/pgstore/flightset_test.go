package pgstore

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A day downloaded at once is read as one span; scattered flights, and runs
// too short to be worth a range, are probed.
func TestFlightSetOf(t *testing.T) {
	seq := func(from, to, step int64) []int64 {
		var out []int64
		for f := from; f <= to; f += step {
			out = append(out, f)
		}
		return out
	}
	cat := func(parts ...[]int64) []int64 {
		var out []int64
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	none := func(probe []int64) flightSet { return flightSet{probe: probe, first: 1, last: 0} }
	for _, c := range []struct {
		name  string
		flids []int64
		want  flightSet
	}{
		{"nothing", nil, none(nil)},
		{"scattered", seq(10, 10000, 50), none(seq(10, 10000, 50))},
		{"a run too short", seq(1, spanMin-1, 1), none(seq(1, spanMin-1, 1))},
		{"a day in a row", seq(101, 2100, 1), flightSet{probe: []int64{}, first: 101, last: 2100}},
		{"a day with deleted flights", seq(101, 2101, 2), flightSet{probe: []int64{}, first: 101, last: 2101}},
		{"a day and flights added later", cat([]int64{7}, seq(101, 200, 1), []int64{300, 900}),
			flightSet{probe: []int64{7, 300, 900}, first: 101, last: 200}},
		{"the longest of two runs", cat(seq(1, 40, 1), seq(1001, 1100, 1)),
			flightSet{probe: seq(1, 40, 1), first: 1001, last: 1100}},
		{"a gap wider than a step splits", cat(seq(1, 40, 1), seq(44, 83, 1)),
			flightSet{probe: seq(44, 83, 1), first: 1, last: 40}},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.want, flightSetOf(c.flids))
		})
	}
}
