package pump

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

var (
	dec2 = time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	dec3 = time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)
)

// fltrDec3 is a schedule record of a flight on 3 Dec 2026 (local).
func fltrDec3(flid int64, extra ...string) string {
	return fmt.Sprintf(`<FLTR><FLID>%d</FLID><ALCD>CA</ALCD><FLNO>CA%d</FLNO><MVIN>D</MVIN><SODT>03DEC261030</SODT>%s</FLTR>`,
		flid, flid, strings.Join(extra, ""))
}

func (e *env) gen(t testing.TB, fday time.Time) vocab.SnapshotGen {
	t.Helper()
	g, err := e.Store.SnapshotGen(t.Context(), fday)
	require.NoError(t, err)
	return g
}

func (e *env) members(t testing.TB, fday time.Time) []int64 {
	t.Helper()
	m, err := e.Store.SnapshotMembers(t.Context(), fday)
	require.NoError(t, err)
	return m
}

func (e *env) snapLogs(t testing.TB, msgID int64) []vocab.SnapshotLog {
	t.Helper()
	logs, err := e.Store.SnapshotLogs(t.Context(), msgID)
	require.NoError(t, err)
	return logs
}

// Issue #11's reproduction: a DNLD sent at 02:00 processed after one sent at
// 03:00 must not bring the 02:00 schedule back.
func TestLateSnapshotLeavesTheDayAlone(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	newer := e.Send(t, schdAt("20261202030000", "DNLD", fltr(1, "<STND>NEW</STND>"), fltr(2)))
	late := e.Send(t, schdAt("20261202020000", "DNLD", fltr(1, "<STND>OLD</STND>"), fltr(3)))
	e.StepUntilWait(t)

	require.Equal(t, vocab.StatusSucceeded, e.msg(t, newer).Status)
	m := e.msg(t, late)
	require.Equal(t, vocab.StatusSkipped, m.Status)
	require.Equal(t, "stale-snapshot:"+strconv.FormatInt(newer, 10), m.Reason)
	require.Empty(t, e.events(t, late), "a stale snapshot emits nothing")

	f1 := e.flight(t, 1)
	require.Equal(t, "NEW", f1.Scalars["STND"].Raw, "the older schedule does not come back")
	require.Equal(t, int64(1), f1.StateVersion)
	require.Equal(t, newer, f1.LastMessageID)
	require.Equal(t, flight.Active, e.flight(t, 2).Lifecycle, "the older snapshot prunes nothing")
	require.Nil(t, e.flight(t, 3), "nor upserts anything")

	g := e.gen(t, dec2)
	require.Equal(t, int64(1), g.Version, "the generation does not advance")
	require.Equal(t, newer, g.LastMessageID)
	require.True(t, time.Date(2026, 12, 2, 3, 0, 0, 0, shanghai).Equal(*g.Dttm), "the generation keeps its message's DTTM")
	require.Equal(t, "20261202030000", g.DttmRaw)
	require.Equal(t, []int64{1, 2}, e.members(t, dec2))

	logs := e.snapLogs(t, late)
	require.Len(t, logs, 1)
	l := logs[0]
	require.Equal(t, vocab.SnapStale, l.Outcome, "the snapshot log says the day was left alone")
	require.Equal(t, newer, *l.StaleOf)
	require.Equal(t, int64(1), l.GenVersion, "the generation the day kept")
	require.True(t, time.Date(2026, 12, 2, 2, 0, 0, 0, shanghai).Equal(*l.Dttm))
	require.Equal(t, 2, l.Records)
	require.Zero(t, l.Changed+l.Unchanged+l.Pruned)
	applied := e.snapLogs(t, newer)
	require.Len(t, applied, 1)
	require.Equal(t, vocab.SnapApplied, applied[0].Outcome)
	require.Nil(t, applied[0].StaleOf)
}

// Equal DTTM applies (FIFO decides), and so does a newer one.
func TestSnapshotOfEqualOrNewerDTTMApplies(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	first := e.Send(t, schdAt("20261202030000", "DNLD", fltr(1, "<STND>A</STND>"), fltr(2)))
	equal := e.Send(t, schdAt("20261202030000", "DNLD", fltr(1, "<STND>B</STND>"), fltr(3)))
	e.StepUntilWait(t)

	require.Equal(t, vocab.StatusSucceeded, e.msg(t, first).Status)
	m := e.msg(t, equal)
	require.Equal(t, vocab.StatusSucceeded, m.Status)
	require.Empty(t, m.Reason)
	require.Equal(t, "B", e.flight(t, 1).Scalars["STND"].Raw)
	require.Equal(t, flight.Deleted, e.flight(t, 2).Lifecycle, "the later of equals prunes")
	require.Equal(t, flight.Active, e.flight(t, 3).Lifecycle)
	g := e.gen(t, dec2)
	require.Equal(t, int64(2), g.Version)
	require.Equal(t, equal, g.LastMessageID)
	require.Len(t, e.events(t, equal), 6, "flight 1 changed, 3 created, 2 pruned: one event per target each")

	newer := e.Send(t, schdAt("20261202030001", "DNLD", fltr(1, "<STND>C</STND>")))
	e.StepUntilWait(t)
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, newer).Status)
	require.Equal(t, "C", e.flight(t, 1).Scalars["STND"].Raw)
	require.Equal(t, flight.Deleted, e.flight(t, 3).Lifecycle)
	g = e.gen(t, dec2)
	require.Equal(t, int64(3), g.Version)
	require.Equal(t, "20261202030001", g.DttmRaw)
	logs := e.snapLogs(t, newer)
	require.Len(t, logs, 1)
	require.Equal(t, vocab.SnapApplied, logs[0].Outcome)
	require.Equal(t, int64(3), logs[0].GenVersion)
	require.Equal(t, 1, logs[0].Changed)
	require.Equal(t, 1, logs[0].Pruned)
}

// A snapshot stale for one of its days and newer for another: the newer day
// applies, the stale one is left alone, and the message succeeds.
func TestSnapshotStaleForSomeDays(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	d2 := e.Send(t, schdAt("20261202030000", "DNLD", fltr(1, "<STND>NEW</STND>"), fltr(2)))
	d3 := e.Send(t, schdAt("20261202010000", "DNLD", fltrDec3(20), fltrDec3(21)))
	mixed := e.Send(t, schdAt("20261202020000", "DNLD",
		fltr(1, "<STND>OLD</STND>"), fltr(3), fltrDec3(20, "<STND>X</STND>")))
	e.StepUntilWait(t)

	m := e.msg(t, mixed)
	require.Equal(t, vocab.StatusSucceeded, m.Status)
	require.Equal(t, "stale-days:2026-12-02", m.Reason)

	// 2 Dec: left alone.
	require.Equal(t, "NEW", e.flight(t, 1).Scalars["STND"].Raw)
	require.Equal(t, int64(1), e.flight(t, 1).StateVersion)
	require.Equal(t, flight.Active, e.flight(t, 2).Lifecycle)
	require.Nil(t, e.flight(t, 3))
	g2 := e.gen(t, dec2)
	require.Equal(t, int64(1), g2.Version)
	require.Equal(t, d2, g2.LastMessageID)
	require.Equal(t, []int64{1, 2}, e.members(t, dec2))

	// 3 Dec: applied.
	require.Equal(t, "X", e.flight(t, 20).Scalars["STND"].Raw)
	require.Equal(t, flight.Deleted, e.flight(t, 21).Lifecycle)
	g3 := e.gen(t, dec3)
	require.Equal(t, int64(2), g3.Version)
	require.Equal(t, mixed, g3.LastMessageID)
	require.Equal(t, "20261202020000", g3.DttmRaw)
	require.Equal(t, []int64{20}, e.members(t, dec3))

	flids := map[int64]int{}
	for _, ev := range e.events(t, mixed) {
		flids[ev.FLID]++
	}
	require.Equal(t, map[int64]int{20: 2, 21: 2}, flids, "only the applied day's flights emit")

	logs := e.snapLogs(t, mixed)
	require.Len(t, logs, 2)
	require.Equal(t, dec2, logs[0].FDay.UTC())
	require.Equal(t, vocab.SnapStale, logs[0].Outcome)
	require.Equal(t, d2, *logs[0].StaleOf)
	require.Equal(t, 2, logs[0].Records)
	require.Equal(t, dec3, logs[1].FDay.UTC())
	require.Equal(t, vocab.SnapApplied, logs[1].Outcome)
	require.Equal(t, int64(2), logs[1].GenVersion)
	require.Equal(t, 1, logs[1].Changed)
	require.Equal(t, 1, logs[1].Pruned)
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, d3).Status)
}

// A snapshot processed again after it made its day's generation (its
// PROC_STATE row moved back to PENDING, as a replay does) advances nothing
// and emits nothing, even where later messages changed its flights.
func TestReplayedSnapshotAdvancesNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	dnld := e.Send(t, schd("DNLD", fltr(1, "<STND>1</STND>"), fltr(2)))
	later := e.Send(t, flop("STND", 1, "<STND>9</STND>"))
	e.StepUntilWait(t)
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, later).Status)
	events := len(e.events(t, dnld))
	require.Equal(t, 3, events, "two KAFKA:msg events; flight 1's mark names the later FLOP")

	e.needPostgres(t) // no store method moves a SUCCEEDED message back
	_, err := e.PG.Pool.Exec(t.Context(),
		`UPDATE proc_state SET status = 'PENDING', finished_at = NULL, replay_count = replay_count + 1 WHERE msg_id = $1`, dnld)
	require.NoError(t, err)
	e.StepUntilWait(t)

	require.Equal(t, vocab.StatusSucceeded, e.msg(t, dnld).Status)
	g := e.gen(t, dec2)
	require.Equal(t, int64(1), g.Version, "a replay advances no generation")
	require.Equal(t, dnld, g.LastMessageID)
	f1 := e.flight(t, 1)
	require.Equal(t, "9", f1.Scalars["STND"].Raw, "the replay does not apply its records again over the later FLOP")
	require.Equal(t, int64(2), f1.StateVersion)
	require.Len(t, e.events(t, dnld), events, "a replay emits nothing")
	require.Len(t, e.snapLogs(t, dnld), 1, "and logs nothing")
	require.Equal(t, []int64{1, 2}, e.members(t, dec2))
}
