package pump

import (
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/aodbrequest"
	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/respmatch"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// The RESP guard (docs/design.md §7) on the real databases: requests are
// registered and sent by internal/aodbrequest, RESPs processed by the pump.

// requests is the request service of an env, on its clock and mailbox.
func (e *env) requests(t testing.TB) *aodbrequest.Service {
	t.Helper()
	return aodbrequest.New(e.Store, e.Mailbox, e.Clock, slog.New(slog.NewTextHandler(io.Discard, nil)),
		aodbrequest.Config{Sender: "MSGX", RoutingID: "AODB", Timeout: 10 * time.Minute, Location: shanghai}, nil)
}

// fltrAt is a schedule record of a flight on 2 Dec 2026 at hhmm (local).
func fltrAt(flid int64, hhmm string) string {
	return fmt.Sprintf(`<FLTR><FLID>%d</FLID><ALCD>CA</ALCD><FLNO>CA%d</FLNO><MVIN>D</MVIN><SODT>02DEC26%s</SODT></FLTR>`, flid, flid, hhmm)
}

func local(t testing.TB, s string) time.Time {
	t.Helper()
	v, err := aodbrequest.ParseLocal(s, shanghai)
	require.NoError(t, err)
	return v
}

func (e *env) request(t testing.TB, id int64) vocab.Request {
	t.Helper()
	r, err := e.Store.Request(t.Context(), id)
	require.NoError(t, err)
	return r
}

func requireActive(t testing.TB, e *env, flids ...int64) {
	t.Helper()
	for _, id := range flids {
		f := e.flight(t, id)
		require.NotNil(t, f, "flight %d", id)
		require.Equal(t, flight.Active, f.Lifecycle, "flight %d", id)
	}
}

func requireDeleted(t testing.TB, e *env, flids ...int64) {
	t.Helper()
	for _, id := range flids {
		require.Equal(t, flight.Deleted, e.flight(t, id).Lifecycle, "flight %d", id)
	}
}

// The reproduction: a DNLD of 501–503, then an unsolicited RESP
// naming only 501, deleted 502 and 503. Now it is SKIPPED and writes nothing.
func TestRespWithoutRequestIsSkipped(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Send(t, schd("DNLD", fltr(501), fltr(502), fltr(503)))
	e.StepUntilWait(t)
	gen := e.gen(t, dec2)

	resp := e.Send(t, schdAt("20261202170000", "RESP", fltr(501, "<STND>R1</STND>")))
	e.StepUntilWait(t)

	m := e.msg(t, resp)
	require.Equal(t, vocab.StatusSkipped, m.Status)
	require.Equal(t, respmatch.ReasonNoMatch, m.Reason)
	requireActive(t, e, 501, 502, 503)
	require.Empty(t, e.flight(t, 501).Scalars["STND"].Raw, "nothing of the RESP written")
	require.Empty(t, e.events(t, resp))
	require.Equal(t, gen, e.gen(t, dec2), "the generation did not move")
	require.Empty(t, e.snapLogs(t, resp))
}

// A matched RESP prunes only previous members whose SODT is inside the
// requested range; members outside it stay, as flights and as members.
func TestRespPrunesOnlyInsideTheRequestedRange(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Send(t, schd("DNLD", fltrAt(601, "0830"), fltrAt(602, "1030"), fltrAt(603, "2030")))
	e.StepUntilWait(t)

	req, err := e.requests(t).Flights(t.Context(), local(t, "2026-12-02T10:00"), local(t, "2026-12-02T23:59"))
	require.NoError(t, err)
	require.Equal(t, vocab.RequestSent, req.Status)

	e.Clock.Advance(time.Minute)
	resp := e.Send(t, schdAt("20261202160100", "RESP", fltrAt(604, "1100")))
	e.StepUntilWait(t)

	m := e.msg(t, resp)
	require.Equal(t, vocab.StatusSucceeded, m.Status)
	require.Equal(t, "request:"+strconv.FormatInt(req.ID, 10)+" (degraded)", m.Reason, "the match is recorded on the message")
	requireActive(t, e, 601, 604)
	requireDeleted(t, e, 602, 603)
	require.Equal(t, []int64{601, 604}, e.members(t, dec2), "601 stays a member: outside the range")

	done := e.request(t, req.ID)
	require.Equal(t, vocab.RequestDone, done.Status)
	require.Equal(t, resp, *done.ResponseMsgID)
	require.Equal(t, respmatch.RuleDegraded, done.MatchRule)
	require.NotNil(t, done.DoneAt)

	// The request is answered: the next RESP has nothing to answer.
	again := e.Send(t, schdAt("20261202160200", "RESP", fltrAt(605, "1200")))
	e.StepUntilWait(t)
	require.Equal(t, respmatch.ReasonNoMatch, e.msg(t, again).Reason)
	require.Nil(t, e.flight(t, 605))
}

// The degraded rule compares instants to the second: sent_at 16:00:00.7
// local; a RESP of 15:59:59 is before it, one of 16:00:00 is not, and a
// DTTM is airport time (read as UTC, 08:00 would pass).
func TestRespBeforeSentAtIsSkipped(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Send(t, schd("DNLD", fltrAt(701, "1030")))
	e.StepUntilWait(t)
	e.Clock.Advance(700 * time.Millisecond) // 08:00:00.7 UTC = 16:00:00.7 local
	req, err := e.requests(t).Flights(t.Context(), local(t, "2026-12-02T00:00"), local(t, "2026-12-02T23:59"))
	require.NoError(t, err)
	require.True(t, start.Add(700*time.Millisecond).Equal(*req.SentAt), "sent_at is the insert time: %s", req.SentAt)

	early := e.Send(t, schdAt("20261202155959", "RESP", fltrAt(702, "1100")))
	utcLike := e.Send(t, schdAt("20261202080000", "RESP", fltrAt(703, "1100")))
	e.StepUntilWait(t)
	for _, id := range []int64{early, utcLike} {
		require.Equal(t, vocab.StatusSkipped, e.msg(t, id).Status)
		require.Equal(t, respmatch.ReasonNoMatch, e.msg(t, id).Reason)
	}
	require.Equal(t, vocab.RequestSent, e.request(t, req.ID).Status, "no early completion")

	same := e.Send(t, schdAt("20261202160000", "RESP", fltrAt(702, "1100")))
	e.StepUntilWait(t)
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, same).Status)
	require.Equal(t, vocab.RequestDone, e.request(t, req.ID).Status)
}

// A SENT request past expires_at is EXPIRED by the job; a RESP after it is
// SKIPPED, whether it was sent before or after the deadline.
func TestLateRespAfterExpiredIsSkipped(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Send(t, schd("DNLD", fltrAt(801, "1030"), fltrAt(802, "1130")))
	e.StepUntilWait(t)
	svc := e.requests(t)
	req, err := svc.Flights(t.Context(), local(t, "2026-12-02T00:00"), local(t, "2026-12-02T23:59"))
	require.NoError(t, err)

	e.Clock.Advance(9 * time.Minute)
	n, err := svc.Expiry().RunOnce(t.Context())
	require.NoError(t, err)
	require.Zero(t, n, "not due yet")
	e.Clock.Advance(time.Minute)
	n, err = svc.Expiry().RunOnce(t.Context())
	require.NoError(t, err)
	require.Equal(t, 1, n)
	exp := e.request(t, req.ID)
	require.Equal(t, vocab.RequestExpired, exp.Status)
	require.Equal(t, "timed out: no answer by expires_at", exp.Note)

	inTime := e.Send(t, schdAt("20261202160500", "RESP", fltrAt(801, "1030")))
	late := e.Send(t, schdAt("20261202161100", "RESP", fltrAt(801, "1030")))
	e.StepUntilWait(t)
	for _, id := range []int64{inTime, late} {
		require.Equal(t, respmatch.ReasonNoMatch, e.msg(t, id).Reason)
	}
	requireActive(t, e, 801, 802)
	require.Equal(t, vocab.RequestExpired, e.request(t, req.ID).Status, "a closed request is never reopened")
}

func (e *env) refExists(t testing.TB, key string) bool {
	t.Helper()
	_, err := e.Store.Ref(t.Context(), "AIRL", key)
	if err != nil {
		require.ErrorIs(t, err, store.ErrNotFound)
		return false
	}
	return true
}

// A matched reference RESP is the whole list: keys it lacks are deleted. An
// unsolicited one is SKIPPED; UPD keeps upserting.
func TestReferenceRespReplacesItsList(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Send(t, refList("20261202080000", "DNLD", "CA", "MU", "CZ"))
	unsolicited := e.Send(t, refList("20261202150000", "RESP", "CA"))
	e.StepUntilWait(t)
	require.Equal(t, respmatch.ReasonNoMatch, e.msg(t, unsolicited).Reason)
	for _, k := range []string{"CA", "MU", "CZ"} {
		require.True(t, e.refExists(t, k), k)
	}

	req, err := e.requests(t).Reference(t.Context(), "airl")
	require.NoError(t, err)
	require.Equal(t, "RQRD:AIRL", req.Key)
	resp := e.Send(t, refList("20261202160000", "RESP", "CA", "HU"))
	e.StepUntilWait(t)
	require.Equal(t, "request:"+strconv.FormatInt(req.ID, 10)+" (degraded)", e.msg(t, resp).Reason)
	for k, want := range map[string]bool{"CA": true, "HU": true, "MU": false, "CZ": false} {
		require.Equal(t, want, e.refExists(t, k), k)
	}
	require.Equal(t, vocab.RequestDone, e.request(t, req.ID).Status)

	e.Send(t, refList("20261202160100", "UPD", "3U"))
	e.StepUntilWait(t)
	require.True(t, e.refExists(t, "3U"))
	require.True(t, e.refExists(t, "CA"), "UPD deletes nothing")
}

// request.guard=off applies every RESP as a DNLD (the old behaviour);
// mailbox counts an RQFD row of coutmsgs inserted before the DTTM, reads
// its range, and never touches REQ_TRACK.
func TestGuardModes(t *testing.T) {
	t.Parallel()
	t.Run("off", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, func(c *Config) { c.Guard = aodbrequest.NewGuard(respmatch.ModeOff, nil, 0, c.Decode) })
		e.Send(t, schd("DNLD", fltr(901), fltr(902)))
		resp := e.Send(t, schdAt("20261202170000", "RESP", fltr(901)))
		e.StepUntilWait(t)
		require.Equal(t, vocab.StatusSucceeded, e.msg(t, resp).Status)
		require.Empty(t, e.msg(t, resp).Reason)
		requireDeleted(t, e, 902)
	})
	t.Run("mailbox", func(t *testing.T) {
		t.Parallel()
		var mb struct{ *mailbox.Mailbox } // the env's, once it exists
		e := newEnv(t, func(c *Config) {
			c.Guard = aodbrequest.NewGuard(respmatch.ModeMailbox, &mb, 10*time.Minute, c.Decode)
		})
		mb.Mailbox = e.Mailbox
		e.Send(t, schd("DNLD", fltrAt(911, "0830"), fltrAt(912, "1030")))
		e.StepUntilWait(t)

		none := e.Send(t, schdAt("20261202160100", "RESP", fltrAt(913, "1100")))
		e.StepUntilWait(t)
		require.Equal(t, respmatch.ReasonNoMatch, e.msg(t, none).Reason, "no request row in coutmsgs")

		// The live system's request, inserted at 16:00:00 local.
		body := sis.EncodeRQFD(sis.RequestMeta{Sender: "LIVE", Seq: 7, Sent: start, Location: shanghai},
			local(t, "2026-12-02T10:00"), local(t, "2026-12-02T23:59"))
		oid, err := e.Mailbox.InsertOutbound(t.Context(), mailbox.InsertOutboundParams{Body: body, InsertedAt: start, RoutingID: "AODB"})
		require.NoError(t, err)
		before := e.Send(t, schdAt("20261202155959", "RESP", fltrAt(913, "1100")))
		resp := e.Send(t, schdAt("20261202160100", "RESP", fltrAt(913, "1100")))
		e.StepUntilWait(t)
		require.Equal(t, respmatch.ReasonNoMatch, e.msg(t, before).Reason, "inserted after the RESP's DTTM")
		require.Equal(t, vocab.StatusSucceeded, e.msg(t, resp).Status)
		require.Equal(t, "request:coutmsgs:"+strconv.FormatInt(oid, 10)+" (mailbox)", e.msg(t, resp).Reason)
		requireActive(t, e, 911, 913)
		requireDeleted(t, e, 912)
		reqs, err := e.Store.Requests(t.Context(), 1<<62, 10)
		require.NoError(t, err)
		require.Empty(t, reqs, "the mailbox guard writes no REQ_TRACK")
	})
}

// The reproduction of item 8: leader restarts wrote an RQFD each,
// superseding the operator's open request; the AODB's answer to it was then
// matched to the last restart's request. Now the restarts register nothing,
// and the operator's answer applies to the operator's request.
func TestOperatorsRequestSurvivesLeaderRestarts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Send(t, schd("DNLD", fltrOn(1401, "03DEC", "0830"), fltrOn(1402, "03DEC", "1030")))
	e.StepUntilWait(t) // today, 2 Dec, has no generation: a leader start would ask for it

	op, err := e.requests(t).Flights(t.Context(), local(t, "2026-12-03T00:00"), local(t, "2026-12-03T23:59"))
	require.NoError(t, err)
	for range 3 { // three leader starts
		e.Clock.Advance(time.Minute)
		require.NoError(t, e.requests(t).OnStart(t.Context()))
	}
	all, err := e.Store.Requests(t.Context(), 1<<62, 10)
	require.NoError(t, err)
	require.Len(t, all, 1, "no request at the restarts")

	resp := e.Send(t, schdAt("20261202160400", "RESP", fltrOn(1401, "03DEC", "0830")))
	e.StepUntilWait(t)
	require.Equal(t, "request:"+strconv.FormatInt(op.ID, 10)+" (degraded)", e.msg(t, resp).Reason)
	requireActive(t, e, 1401)
	requireDeleted(t, e, 1402)
	done := e.request(t, op.ID)
	require.Equal(t, vocab.RequestDone, done.Status)
	require.Equal(t, vocab.OriginOperator, done.Origin)
}
