package apply

import (
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/decode"
	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/respmatch"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// planSnapshot's outcome over several days, without a database.
func TestPlanSnapshotOutcome(t *testing.T) {
	t.Parallel()
	at := func(h int) *time.Time { v := time.Date(2026, 12, 2, h, 0, 0, 0, shanghai); return &v }
	gen := func(msg int64, h int) *vocab.SnapshotGen {
		return &vocab.SnapshotGen{Version: 4, LastMessageID: msg, Dttm: at(h)}
	}
	day := func(fday time.Time, g *vocab.SnapshotGen) *snapshotDay {
		return &snapshotDay{fday: fday, flids: []int64{1}, results: []flight.Result{{Next: &flight.State{FLID: 1}}}, gen: g}
	}
	dec4 := dec3.AddDate(0, 0, 1)
	msg := snapshotMsg{id: 50, subtype: "DNLD", dttm: *at(2), dttmRaw: "20261202020000"}
	for _, c := range []struct {
		name     string
		days     []*snapshotDay
		status   string
		reason   string
		advances int
		logs     []string
	}{
		{"no generation yet", []*snapshotDay{day(dec2, nil)}, vocab.StatusSucceeded, "", 1, []string{vocab.SnapApplied}},
		{"generation without DTTM", []*snapshotDay{day(dec2, &vocab.SnapshotGen{Version: 1, LastMessageID: 7})}, vocab.StatusSucceeded, "", 1, []string{vocab.SnapApplied}},
		{"stale days of one newer message", []*snapshotDay{day(dec2, gen(7, 3)), day(dec3, gen(7, 3))}, vocab.StatusSkipped, "stale-snapshot:7", 0, []string{vocab.SnapStale, vocab.SnapStale}},
		{"stale days of two", []*snapshotDay{day(dec2, gen(7, 3)), day(dec3, gen(9, 4))}, vocab.StatusSkipped, "stale-snapshot:7,9", 0, []string{vocab.SnapStale, vocab.SnapStale}},
		{"stale and applied", []*snapshotDay{day(dec2, gen(7, 3)), day(dec3, gen(8, 2)), day(dec4, gen(9, 4))}, vocab.StatusSucceeded, "stale-days:2026-12-02,2026-12-04", 1, []string{vocab.SnapStale, vocab.SnapApplied, vocab.SnapStale}},
		{"replay", []*snapshotDay{day(dec2, gen(50, 2))}, vocab.StatusSucceeded, "", 0, nil},
		{"replay and stale", []*snapshotDay{day(dec2, gen(50, 2)), day(dec3, gen(7, 3))}, vocab.StatusSkipped, "stale-snapshot:7", 0, []string{vocab.SnapStale}},
	} {
		t.Run(c.name, func(t *testing.T) {
			plan := planSnapshot(c.days, msg, start)
			require.Equal(t, c.status, plan.out.Status)
			require.Equal(t, c.reason, plan.out.Reason)
			require.Len(t, plan.advances, c.advances)
			require.Len(t, plan.members, c.advances)
			var outcomes []string
			for _, l := range plan.logs {
				outcomes = append(outcomes, l.Outcome)
			}
			require.Equal(t, c.logs, outcomes)
			if c.advances == 0 {
				require.Empty(t, plan.results, "nothing of a stale or replayed day is written")
			}
		})
	}
}

// The scope prune without a database: inScope splits the candidates by the
// requested range, and planSnapshot prunes only those inside and keeps the
// others as members.
func TestScopedPrunePlan(t *testing.T) {
	t.Parallel()
	sodt := func(flid int64, hh int) *flight.State {
		v := time.Date(2026, 12, 2, hh, 0, 0, 0, shanghai)
		return &flight.State{FLID: flid, Lifecycle: flight.Active, Scalars: map[string]flight.Value{"SODT": {Raw: "x", Time: &v}}}
	}
	begin, end := time.Date(2026, 12, 2, 10, 0, 0, 0, shanghai), time.Date(2026, 12, 2, 23, 59, 0, 0, shanghai)
	cands := []*flight.State{sodt(1, 8), sodt(2, 10), sodt(3, 23), {FLID: 4, Scalars: map[string]flight.Value{}}}

	all, none := inScope(cands, nil)
	require.Len(t, all, 4, "a DNLD prunes every candidate")
	require.Empty(t, none)
	prune, kept := inScope(cands, &respmatch.Decision{Matched: true, Begin: &begin, End: &end})
	require.Equal(t, []int64{2, 3}, []int64{prune[0].FLID, prune[1].FLID}, "SODT inside [STDB, STDE], ends included")
	require.Equal(t, []int64{1, 4}, kept, "outside the range, or no SODT")

	d := &snapshotDay{fday: dec2, flids: []int64{9}, results: []flight.Result{{Next: &flight.State{FLID: 9}}}, candidates: prune, kept: kept}
	plan := planSnapshot([]*snapshotDay{d}, snapshotMsg{id: 50, subtype: "RESP", dttm: begin}, start)
	require.Equal(t, []int64{9, 1, 4}, plan.members[0].FLIDs)
	require.Len(t, plan.results, 3, "the record and two prunes")
	require.Equal(t, 2, plan.logs[0].Pruned)
}

// Rule 19 without a database: the records' kept values and the candidates a
// newer message changed are counted (kept-newer:<n>, after stale-days); such
// a candidate is not pruned but stays a member.
func TestPlanSnapshotKeepsNewer(t *testing.T) {
	t.Parallel()
	at := func(h int) time.Time { return time.Date(2026, 12, 3, h, 0, 0, 0, shanghai) }
	cand := func(flid int64, stamp time.Time) *flight.State {
		return &flight.State{FLID: flid, Lifecycle: flight.Active, Scalars: map[string]flight.Value{}, Stamps: flight.Stamps{"STND": stamp}}
	}
	stale := &snapshotDay{fday: dec2, flids: []int64{1}, results: []flight.Result{{Next: &flight.State{FLID: 1}}},
		gen: &vocab.SnapshotGen{Version: 1, LastMessageID: 7, Dttm: ptrTime(at(9))}}
	d := &snapshotDay{fday: dec3, flids: []int64{9}, results: []flight.Result{{Next: &flight.State{FLID: 9}, Kept: 2}},
		candidates: []*flight.State{cand(5, at(8)), cand(6, at(7)), cand(8, at(6))}}
	plan := planSnapshot([]*snapshotDay{stale, d}, snapshotMsg{id: 50, subtype: "DNLD", dttm: at(7)}, start)

	require.Equal(t, vocab.StatusSucceeded, plan.out.Status)
	require.Equal(t, "stale-days:2026-12-02 kept-newer:3", plan.out.Reason, "two values of 9, and 5 not pruned")
	require.Equal(t, []int64{9, 5}, plan.members[0].FLIDs, "5 stays a member: a newer snapshot may prune it")
	require.Len(t, plan.results, 3, "the record and two prunes (6: equal DTTM, FIFO; 8)")
	for _, r := range plan.results[1:] {
		require.Equal(t, flight.Deleted, r.Next.Lifecycle)
		require.True(t, at(7).Equal(r.Next.Stamps[flight.StampLifecycle]), "a prune stamps the lifecycle")
	}
	applied := plan.logs[1]
	require.Equal(t, 2, applied.Pruned)
	require.Equal(t, 3, applied.KeptNewer)
}

func ptrTime(t time.Time) *time.Time { return &t }

// rangeDays without a database: every local day of [STDB, STDE] that the
// RESP has no record of is added, empty, in day order; no range adds none.
func TestRangeDaysCoverTheRange(t *testing.T) {
	t.Parallel()
	dec4 := dec3.AddDate(0, 0, 1)
	begin, end := time.Date(2026, 12, 2, 10, 0, 0, 0, shanghai), time.Date(2026, 12, 4, 0, 30, 0, 0, shanghai)
	have := &snapshotDay{fday: dec3, flids: []int64{7}}
	days := rangeDays([]*snapshotDay{have}, &respmatch.Decision{Matched: true, Begin: &begin, End: &end}, shanghai)
	require.Len(t, days, 3)
	require.Equal(t, []time.Time{dec2, dec3, dec4}, []time.Time{days[0].fday, days[1].fday, days[2].fday})
	require.Same(t, have, days[1])
	require.Empty(t, days[0].flids)

	// In UTC the range would start on 2 Dec 02:00 and end on 3 Dec 16:30:
	// the days are the airport's.
	require.Len(t, rangeDays(nil, &respmatch.Decision{Matched: true, Begin: &begin, End: &end}, time.UTC), 2)
	require.Equal(t, []*snapshotDay{have}, rangeDays([]*snapshotDay{have}, &respmatch.Decision{Matched: true, Rule: respmatch.RuleOff}, shanghai))
	require.Equal(t, []*snapshotDay{have}, rangeDays([]*snapshotDay{have}, nil, shanghai), "a DNLD")
}

// apply measures an event with the EventBytes it is given (the wiring
// passes kafka.EventBytes); without one, by its payload.
func TestRecordLimitUsesTheGivenMeasure(t *testing.T) {
	t.Parallel()
	e, payload := vocab.NewEvent{FLID: 1}, []byte("0123456789")
	require.Zero(t, recordLimit{}.exceeded(e, payload), "no limit")
	require.Zero(t, recordLimit{max: 10}.exceeded(e, payload), "the payload fits")
	require.Equal(t, 11, recordLimit{max: 10, size: func(vocab.NewEvent, []byte) int { return 11 }}.exceeded(e, payload))
	require.Equal(t, 10, recordLimit{max: 9}.exceeded(e, payload))
}

// The META a message binds is a copy: it outlives the message in backfill
// todos, and a substring would keep the message's whole XML alive.
func TestMetaIsACopy(t *testing.T) {
	t.Parallel()
	m, err := decode.Message([]byte(flop("STND", 1, "<STND>7</STND>")), sis.Options{Location: shanghai})
	require.NoError(t, err)
	meta := metaOf(m)
	require.Equal(t, m.Meta.Sender, meta.Sndr)
	for _, s := range []struct{ kept, decoded string }{
		{meta.Sndr, m.Meta.Sender}, {meta.DttmRaw, m.Meta.SentRaw}, {meta.Type, m.Meta.Type}, {meta.Styp, m.Meta.Subtype},
	} {
		require.Equal(t, s.decoded, s.kept)
		require.NotSame(t, unsafe.StringData(s.decoded), unsafe.StringData(s.kept), "a copy, not a substring of the XML")
	}
	require.Equal(t, m.Meta.Seq, *meta.Seqn)
	require.True(t, m.Meta.Sent.Equal(*meta.Dttm))
}

// A message's META costs two allocations: the texts share one copy, SEQN
// and DTTM one (not parallel: AllocsPerRun).
func TestMetaAllocations(t *testing.T) {
	m, err := decode.Message([]byte(flop("STND", 1, "<STND>7</STND>")), sis.Options{Location: shanghai})
	require.NoError(t, err)
	require.Equal(t, 2.0, testing.AllocsPerRun(100, func() { _ = metaOf(m) }))
}
