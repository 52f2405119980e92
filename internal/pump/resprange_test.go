package pump

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/respmatch"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// A matched schedule RESP is the snapshot of its whole requested range
// (docs/design.md §7): every day of [STDB, STDE] is pruned, whether or not
// the RESP has a record of it.

// fltrOn is a schedule record of a flight on day (DDMON, e.g. 03DEC) 2026
// at hhmm local, plus extra elements.
func fltrOn(flid int64, day, hhmm string, extra ...string) string {
	return fmt.Sprintf(`<FLTR><FLID>%d</FLID><ALCD>CA</ALCD><FLNO>CA%d</FLNO><MVIN>D</MVIN><SODT>%s26%s</SODT>%s</FLTR>`,
		flid, flid, day, hhmm, strings.Join(extra, ""))
}

// The first reproduction: a RESP with RECS 0 answering an RQFD of
// the day pruned nothing and closed the request. It empties the range.
func TestRespWithNoRecordsEmptiesItsRange(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Send(t, schd("DNLD", fltrAt(1101, "0830"), fltrAt(1102, "1030")))
	e.StepUntilWait(t)
	before := e.gen(t, dec2)

	req, err := e.requests(t).Flights(t.Context(), local(t, "2026-12-02T00:00"), local(t, "2026-12-02T23:59"))
	require.NoError(t, err)
	resp := e.Send(t, schdAt("20261202160100", "RESP"))
	e.StepUntilWait(t)

	m := e.msg(t, resp)
	require.Equal(t, vocab.StatusSucceeded, m.Status)
	require.Equal(t, "request:"+strconv.FormatInt(req.ID, 10)+" (degraded)", m.Reason)
	requireDeleted(t, e, 1101, 1102)
	require.Empty(t, e.members(t, dec2))
	g := e.gen(t, dec2)
	require.Equal(t, before.Version+1, g.Version, "the day's generation advances by exactly one")
	require.Equal(t, resp, g.LastMessageID)
	require.Len(t, e.events(t, resp), 4, "a TOMBSTONE on each topic per pruned flight")
	logs := e.snapLogs(t, resp)
	require.Len(t, logs, 1)
	require.Equal(t, 2, logs[0].Pruned)
	require.Zero(t, logs[0].Records)
	require.Equal(t, vocab.RequestDone, e.request(t, req.ID).Status)
}

// The second reproduction: a two-day RQFD answered with one day's
// flights pruned only that day. Every day of the range is pruned and gets
// its generation — a day of the range no generation had yet too — so an
// older DNLD of an emptied day processed later is stale (rule 12), and the
// RESP's cancelled flight stays ACTIVE and is published as active.
func TestTwoDayRespPrunesEveryDayOfItsRange(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	dec4 := dec3.AddDate(0, 0, 1)
	e.Send(t, schdAt("20261202080000", "DNLD", fltrOn(1201, "02DEC", "0830"), fltrOn(1202, "02DEC", "1030")))
	e.Send(t, schdAt("20261202080000", "DNLD", fltrOn(1203, "03DEC", "0830"), fltrOn(1204, "03DEC", "1030")))
	outside := e.Send(t, schdAt("20261202080000", "DNLD", fltrOn(1205, "05DEC", "0830")))
	e.StepUntilWait(t)
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, outside).Status)
	dec3Before := e.gen(t, dec3)

	req, err := e.requests(t).Flights(t.Context(), local(t, "2026-12-02T00:00"), local(t, "2026-12-04T23:59"))
	require.NoError(t, err)
	resp := e.Send(t, schdAt("20261202160100", "RESP", fltrOn(1201, "02DEC", "0830", "<CNCL>Y</CNCL>")))
	e.StepUntilWait(t)

	require.Equal(t, "request:"+strconv.FormatInt(req.ID, 10)+" (degraded)", e.msg(t, resp).Reason)
	requireActive(t, e, 1201, 1205)
	requireDeleted(t, e, 1202, 1203, 1204)
	require.Equal(t, []int64{1201}, e.members(t, dec2))
	require.Empty(t, e.members(t, dec3), "the day the RESP has no record of is pruned too")
	g3 := e.gen(t, dec3)
	require.Equal(t, dec3Before.Version+1, g3.Version)
	require.Equal(t, resp, g3.LastMessageID)
	g4 := e.gen(t, dec4)
	require.Equal(t, int64(1), g4.Version, "a day of the range without a generation gets its first")
	require.Equal(t, resp, g4.LastMessageID)
	require.Len(t, e.snapLogs(t, resp), 3, "one audit row per day of the range")

	f := e.flight(t, 1201)
	require.Equal(t, "Y", f.Scalars["CNCL"].Raw)
	for _, ev := range e.events(t, resp) {
		if ev.FLID == 1201 {
			require.Equal(t, vocab.EventUpsert, ev.EventType, "a cancelled flight is no deletion")
			require.Contains(t, string(ev.Payload), `"lifecycle":"ACTIVE"`)
		}
	}

	// An older DNLD of the emptied day brings nothing back; the same
	// message processed again advances nothing.
	late := e.Send(t, schdAt("20261202150000", "DNLD", fltrOn(1203, "03DEC", "0830")))
	e.StepUntilWait(t)
	require.Equal(t, "stale-snapshot:"+strconv.FormatInt(resp, 10), e.msg(t, late).Reason)
	requireDeleted(t, e, 1203)
}

// An answer to an older request that a newer one superseded does not
// complete the newer one: a schedule RESP with records needs one whose SODT
// lies in the open request's range. The newer request's real answer then
// applies.
func TestAnswerToASupersededRequestDoesNotCompleteTheNewer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Send(t, schd("DNLD", fltrOn(1301, "03DEC", "0830"), fltrOn(1302, "03DEC", "1030")))
	e.StepUntilWait(t)
	svc := e.requests(t)
	old, err := svc.Flights(t.Context(), local(t, "2026-12-02T00:00"), local(t, "2026-12-02T23:59"))
	require.NoError(t, err)
	e.Clock.Advance(time.Minute)
	newer, err := svc.Flights(t.Context(), local(t, "2026-12-03T00:00"), local(t, "2026-12-03T23:59"))
	require.NoError(t, err)
	require.Equal(t, vocab.RequestExpired, e.request(t, old.ID).Status)

	stray := e.Send(t, schdAt("20261202160130", "RESP", fltrOn(1303, "02DEC", "1100")))
	e.StepUntilWait(t)
	require.Equal(t, vocab.StatusSkipped, e.msg(t, stray).Status)
	require.Equal(t, respmatch.ReasonNoMatch, e.msg(t, stray).Reason)
	require.Nil(t, e.flight(t, 1303))
	require.Equal(t, vocab.RequestSent, e.request(t, newer.ID).Status, "still open for its real answer")

	answer := e.Send(t, schdAt("20261202160200", "RESP", fltrOn(1301, "03DEC", "0830")))
	e.StepUntilWait(t)
	require.Equal(t, "request:"+strconv.FormatInt(newer.ID, 10)+" (degraded)", e.msg(t, answer).Reason)
	requireActive(t, e, 1301)
	requireDeleted(t, e, 1302)
	require.Equal(t, vocab.RequestDone, e.request(t, newer.ID).Status)
}
