package pump

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/sis/sistest"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Rule 19 (docs/design.md): an older snapshot never undoes a newer change.

var dec15 = time.Date(2026, 12, 15, 0, 0, 0, 0, time.UTC)

// fltr15 is a schedule record of a flight on 15 Dec 2026 at hhmm (local).
func fltr15(flid int64, hhmm string, extra ...string) string {
	return fmt.Sprintf(`<FLTR><FLID>%d</FLID><ALCD>CA</ALCD><FLNO>CA%d</FLNO><MVIN>D</MVIN><SODT>15DEC26%s</SODT>%s</FLTR>`,
		flid, flid, hhmm, strings.Join(extra, ""))
}

// flopAt is a FLOP message of one flight sent at dttm.
func flopAt(dttm, styp string, flid int64, elems ...string) string {
	return sistest.EnvelopeAt(dttm, "FLOP", styp, fmt.Sprintf("<FLOP><FLID>%d</FLID>%s</FLOP>", flid, strings.Join(elems, "")))
}

func fdelAt(dttm string, flid int64) string {
	return sistest.EnvelopeAt(dttm, "FDEL", "NONE", fmt.Sprintf("<FDEL><FLID>%d</FLID></FDEL>", flid))
}

func at15(t testing.TB, hhmm string) time.Time {
	t.Helper()
	v, err := time.ParseInLocation("200601021504", "20261215"+hhmm, shanghai)
	require.NoError(t, err)
	return v
}

func requireStamp(t testing.TB, f *flight.State, name string, want time.Time) {
	t.Helper()
	got, ok := f.Stamps.Of(name)
	require.True(t, ok, "flight %d has a stamp for %s", f.FLID, name)
	require.True(t, want.Equal(got), "flight %d %s stamped %v, want %v", f.FLID, name, got, want)
}

// The reproduction: a DNLD built at 06:00, a FLOP and an FDEL at
// 07:30, then a DNLD built at 07:00 committed after them. 701 keeps STND
// NEW, 702 stays DELETED with no event, and the outcome counts both.
func TestOlderSnapshotNeverUndoesNewerChange(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	first := e.Send(t, schdAt("20261215060000", "DNLD", fltr15(701, "0800", "<STND>A</STND>"), fltr15(702, "0900", "<STND>B</STND>")))
	e.Send(t, flopAt("20261215073000", "STND", 701, "<STND>NEW</STND>"))
	del := e.Send(t, fdelAt("20261215073000", 702))
	late := e.Send(t, schdAt("20261215070000", "DNLD", fltr15(701, "0800", "<STND>A</STND>"), fltr15(702, "0900", "<STND>B</STND>")))
	e.StepUntilWait(t)
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, first).Status)

	m := e.msg(t, late)
	require.Equal(t, vocab.StatusSucceeded, m.Status)
	require.Equal(t, "kept-newer:2", m.Reason)
	require.Empty(t, e.events(t, late), "nothing changed: no UPSERT of 702, no event of 701")

	f1 := e.flight(t, 701)
	require.Equal(t, "NEW", f1.Scalars["STND"].Raw)
	require.Equal(t, int64(2), f1.StateVersion)
	requireStamp(t, f1, "STND", at15(t, "0730"))
	requireStamp(t, f1, "ALCD", at15(t, "0600"))
	f2 := e.flight(t, 702)
	require.Equal(t, flight.Deleted, f2.Lifecycle)
	require.Equal(t, del, f2.LastMessageID)
	requireStamp(t, f2, flight.StampLifecycle, at15(t, "0730"))

	logs := e.snapLogs(t, late)
	require.Len(t, logs, 1)
	require.Equal(t, vocab.SnapApplied, logs[0].Outcome)
	require.Equal(t, 2, logs[0].KeptNewer)
	require.Equal(t, 2, logs[0].Unchanged)
	require.Zero(t, e.snapLogs(t, first)[0].KeptNewer)
}

// What no newer message touched still takes the older snapshot's value;
// detail lists and payload collections keep the newer message's.
func TestOlderSnapshotCorrectsWhatNoNewerMessageTouched(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Send(t, schdAt("20261215060000", "DNLD", fltr15(701, "0800", "<STND>A</STND>", gates("G1"))))
	e.Send(t, flopAt("20261215073000", "GTDT", 701, gates("G9")))
	e.Send(t, flopAt("20261215073000", "SRVT", 701, "<SRVT><SRTC>WCH</SRTC></SRVT>"))
	late := e.Send(t, schdAt("20261215070000", "DNLD", fltr15(701, "0800", "<STND>C</STND>", gates("G2"), "<SRVT><SRTC>OLD</SRTC></SRVT>")))
	e.StepUntilWait(t)

	m := e.msg(t, late)
	require.Equal(t, vocab.StatusSucceeded, m.Status)
	require.Equal(t, "kept-newer:2", m.Reason, "the gates and the services")
	f := e.flight(t, 701)
	require.Equal(t, "C", f.Scalars["STND"].Raw, "STND was set by nothing newer: corrected")
	requireStamp(t, f, "STND", at15(t, "0700"))
	require.Len(t, f.Groups[flight.GroupGates], 1)
	require.Equal(t, "G9", f.Groups[flight.GroupGates][0].Fields["GATE"].Raw)
	require.Contains(t, f.Payloads["SRVT"].Content, "WCH")
	requireStamp(t, f, "GTDT", at15(t, "0730"))
	requireStamp(t, f, "SRVT", at15(t, "0730"))
	require.Len(t, e.events(t, late), 2, "STND changed: one version, one event per target")
}

// Equal DTTMs: FIFO decides, the snapshot applies.
func TestSnapshotOfEqualDTTMOverridesIncremental(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Send(t, schdAt("20261215060000", "DNLD", fltr15(701, "0800", "<STND>A</STND>"), fltr15(702, "0900")))
	e.Send(t, flopAt("20261215070000", "STND", 701, "<STND>NEW</STND>"))
	e.Send(t, fdelAt("20261215070000", 702))
	same := e.Send(t, schdAt("20261215070000", "DNLD", fltr15(701, "0800", "<STND>A</STND>"), fltr15(702, "0900")))
	e.StepUntilWait(t)

	require.Empty(t, e.msg(t, same).Reason)
	require.Equal(t, "A", e.flight(t, 701).Scalars["STND"].Raw)
	require.Equal(t, flight.Active, e.flight(t, 702).Lifecycle, "revived: the delete is not newer")
}

// A prune never deletes a flight a newer message changed; it stays a member,
// so a snapshot newer than that change prunes it.
func TestOlderSnapshotNeverPrunesNewerChange(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Send(t, schdAt("20261215060000", "DNLD", fltr15(701, "0800"), fltr15(702, "0900")))
	e.Send(t, flopAt("20261215073000", "STND", 702, "<STND>NEW</STND>"))
	late := e.Send(t, schdAt("20261215070000", "DNLD", fltr15(701, "0800")))
	e.StepUntilWait(t)

	require.Equal(t, "kept-newer:1", e.msg(t, late).Reason)
	require.Equal(t, flight.Active, e.flight(t, 702).Lifecycle)
	require.Empty(t, e.events(t, late))
	require.Equal(t, []int64{701, 702}, e.members(t, dec15), "702 stays a member")
	logs := e.snapLogs(t, late)
	require.Zero(t, logs[0].Pruned)
	require.Equal(t, 1, logs[0].KeptNewer)

	newer := e.Send(t, schdAt("20261215080000", "DNLD", fltr15(701, "0800")))
	e.StepUntilWait(t)
	require.Empty(t, e.msg(t, newer).Reason)
	require.Equal(t, flight.Deleted, e.flight(t, 702).Lifecycle, "a snapshot newer than the FLOP prunes")
	requireStamp(t, e.flight(t, 702), flight.StampLifecycle, at15(t, "0800"))
}

// A matched RESP is a snapshot too.
func TestOlderRespNeverUndoesNewerChange(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Send(t, schd("DNLD", fltrAt(601, "1030"), fltrAt(602, "1130")))
	e.StepUntilWait(t)
	req, err := e.requests(t).Flights(t.Context(), local(t, "2026-12-02T10:00"), local(t, "2026-12-02T23:59"))
	require.NoError(t, err)
	e.Clock.Advance(time.Minute)

	e.Send(t, flopAt("20261202163000", "STND", 601, "<STND>NEW</STND>"))
	e.Send(t, fdelAt("20261202163000", 602))
	r601 := strings.Replace(fltrAt(601, "1030"), "</FLTR>", "<STND>R</STND></FLTR>", 1)
	resp := e.Send(t, schdAt("20261202160100", "RESP", r601, fltrAt(602, "1130")))
	e.StepUntilWait(t)

	m := e.msg(t, resp)
	require.Equal(t, vocab.StatusSucceeded, m.Status)
	require.Equal(t, "request:"+strconv.FormatInt(req.ID, 10)+" (degraded) kept-newer:2", m.Reason, "601's STND kept, 602 not revived")
	require.Equal(t, "NEW", e.flight(t, 601).Scalars["STND"].Raw)
	requireDeleted(t, e, 602)
	require.Empty(t, e.events(t, resp))
}
