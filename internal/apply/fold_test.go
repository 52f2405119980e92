package apply

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/sis/sistest"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// A message naming a flight more than once changes it once (rule 8): one
// version above the state before it, one event per target carrying the last
// record's state, and the same alone, in a batch, and a slice at a time
// when a later slice names the flight again. Records that cancel out change
// nothing (rule 6).
func TestOneChangePerFlightPerMessage(t *testing.T) {
	t.Parallel()
	recs := func(flid int64, stnds ...string) string {
		var b strings.Builder
		for _, s := range stnds {
			fmt.Fprintf(&b, "<FLOP><FLID>%d</FLID><STND>%s</STND></FLOP>", flid, s)
		}
		return b.String()
	}
	// More than SliceRecords records: flight 1 in the first and the last
	// slice, the gates of flight 1 replaced in the first one only.
	filler := make([]string, SliceRecords+5)
	for i := range filler {
		filler[i] = fmt.Sprint(1000 + i)
	}
	upd := []string{fltr(1, "<STND>14</STND>", sistest.Gates("G1"))}
	for _, s := range filler {
		upd = append(upd, fltr(1, "<STND>"+s+"</STND>"))
	}
	sliced := schd("UPD", append(upd, fltr(1, "<STND>15</STND>"))...)
	for _, c := range []struct {
		name, msg string
		paths     []string
		stnd      string
		version   int64
		events    int
		gated     bool // the gate list carries the message's version
	}{
		{"twice", envelope("FLOP", "STND", recs(1, "14", "15")), []string{"alone", "batch"}, "15", 2, 2, false},
		{"with a collection", schd("UPD", fltr(1, sistest.Gates("G1")), fltr(1, "<STND>15</STND>")), []string{"alone", "batch"}, "15", 2, 2, true},
		{"cancelling out", envelope("FLOP", "STND", recs(1, "14", "201")), []string{"alone", "batch"}, "201", 1, 0, false},
		{"in slices", sliced, []string{"alone"}, "15", 2, 2, true},
		{"in slices, cancelling out", envelope("FLOP", "STND", recs(1, "14")+recs(1, filler...)+recs(1, "201")), []string{"alone"}, "201", 1, 0, false},
	} {
		for _, path := range c.paths {
			t.Run(c.name+"/"+path, func(t *testing.T) {
				t.Parallel()
				a := New(Config{Prune: true, Location: shanghai})
				w := setupWorld(t, a)
				var out Outcome
				if path == "alone" {
					var err error
					out, err = w.one(a, c.msg)
					require.NoError(t, err)
				} else {
					out = w.batch(a, c.msg, flop("STND", 2, "<STND>1</STND>"))[0]
				}
				require.Equal(t, vocab.StatusSucceeded, out.Status, out.Reason)
				f := w.flights[1]
				require.Equal(t, c.stnd, f.Scalars["STND"].Raw)
				require.Equal(t, c.version, f.StateVersion, "STATE_VERSION rises by at most one")
				evs := eventsOf(w, w.nextID-boolInt(path == "batch"))
				require.Len(t, evs, c.events)
				for _, e := range evs {
					require.Equal(t, c.version, e.StateVersion)
					if e.Payload != nil {
						require.Contains(t, string(e.Payload), `"raw":"`+c.stnd+`"`, "the event carries the last record's state")
					}
				}
				if c.gated {
					require.Len(t, f.Groups[flight.GroupGates], 1)
				}
			})
		}
	}
}

// The written row's collections carry the message's one version.
func TestFoldedChangesCarryTheMessageVersion(t *testing.T) {
	t.Parallel()
	a := New(Config{Prune: true, Location: shanghai})
	w := setupWorld(t, a)
	in := w.input(schd("UPD", fltr(1, sistest.Gates("G1")), fltr(1, "<STND>9</STND>"), fltr(1, sistest.Gates("G2"))))
	states, err := w.Flights(t.Context(), []int64{1})
	require.NoError(t, err)
	wr, outs, err := a.Batch([]Input{in}, map[string]vocab.Holder{}, states, start)
	require.NoError(t, err)
	require.Equal(t, vocab.StatusSucceeded, outs[0].Status)
	require.Len(t, wr.Flights, 1)
	require.Equal(t, int64(2), wr.Flights[0].State.StateVersion)
	require.Equal(t, map[string]int64{flight.GroupGates: 2}, wr.Flights[0].Changes.Groups)
	require.Len(t, wr.Events, 1)
	require.Len(t, wr.SchdMarks, 1)
	require.Equal(t, int64(2), states[1].StateVersion, "the batch's next message sees the folded state")
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// Records of one message that cancel out change nothing — no version, no
// event — but the stamps of what they carried still move to the message's
// DTTM (rule 19): the row is written, alone and batched alike.
func TestCancellingRecordsStillStamp(t *testing.T) {
	t.Parallel()
	for _, path := range []string{"alone", "batch"} {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			a := New(Config{Prune: true, Location: shanghai})
			w := setupWorld(t, a)
			before := w.flights[1]
			msg := sistest.EnvelopeAt("20261202093000", "FLOP", "STND",
				"<FLOP><FLID>1</FLID><STND>14</STND></FLOP><FLOP><FLID>1</FLID><STND>201</STND></FLOP>")
			var out Outcome
			if path == "alone" {
				var err error
				out, err = w.one(a, msg)
				require.NoError(t, err)
			} else {
				out = w.batch(a, msg)[0]
			}
			require.Equal(t, vocab.StatusSucceeded, out.Status, out.Reason)
			f := w.flights[1]
			require.Equal(t, "201", f.Scalars["STND"].Raw)
			require.Equal(t, before.StateVersion, f.StateVersion, "no version")
			require.Empty(t, eventsOf(w, w.nextID-1), "no event")
			at, ok := f.Stamps.Of("STND")
			require.True(t, ok)
			require.Equal(t, time.Date(2026, 12, 2, 9, 30, 0, 0, shanghai).Unix(), at.Unix(), "STND stamped by the message")
		})
	}
}
