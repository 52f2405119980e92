package aodbrequest_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/aodbrequest"
	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/testenv"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

var shanghai = testenv.Zone

// 2026-12-02 16:00 airport time.
var start = testenv.Start

type env struct {
	*testenv.Env
	cfg aodbrequest.Config
}

func newEnv(t *testing.T) *env {
	t.Helper()
	return &env{Env: testenv.New(t),
		cfg: aodbrequest.Config{Sender: "MSGX", RoutingID: "AODB", Timeout: 10 * time.Minute, Location: shanghai}}
}

func (e *env) service(mb aodbrequest.OutboundMailbox) *aodbrequest.Service {
	return aodbrequest.New(e.Store, mb, e.Clock, slog.New(slog.NewTextHandler(io.Discard, nil)), e.cfg, nil)
}

func (e *env) get(t *testing.T, id int64) vocab.Request {
	t.Helper()
	r, err := e.Store.Request(t.Context(), id)
	require.NoError(t, err)
	return r
}

func (e *env) outboundRows(t *testing.T) int {
	t.Helper()
	var n int
	require.NoError(t, e.MailboxDB.QueryRowContext(t.Context(), "SELECT COUNT(*) FROM coutmsgs").Scan(&n))
	return n
}

func day(t *testing.T, s string) (time.Time, time.Time) {
	t.Helper()
	d, err := time.ParseInLocation(time.DateOnly, s, shanghai)
	require.NoError(t, err)
	return aodbrequest.DayRange(d, shanghai)
}

// A request is written to coutmsgs as the codec encodes it, then SENT with
// that row; every transition is timestamped.
func TestFlightsRequestIsSentThroughTheMailbox(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	from, to := day(t, "2026-12-04")
	req, err := e.service(e.Mailbox).Flights(t.Context(), from, to)
	require.NoError(t, err)
	require.Equal(t, vocab.RequestSent, req.Status)
	require.Equal(t, "RQFD", req.Key)
	require.Equal(t, int64(1), req.Seqn)
	require.True(t, req.RegisteredAt.Equal(start))
	require.True(t, req.SentAt.Equal(start))
	require.True(t, req.ExpiresAt.Equal(start.Add(10*time.Minute)))
	require.NotNil(t, req.OutboundID)

	var body, routing string
	var inserted time.Time
	require.NoError(t, e.MailboxDB.QueryRowContext(t.Context(),
		"SELECT COUTMSGS_CLOB_MSG, ROUTINGID, COUTMSGS_DATE_INSERTED FROM coutmsgs WHERE COUTMSGS_ID = ?", *req.OutboundID).Scan(&body, &routing, &inserted))
	require.Equal(t, "AODB", routing)
	require.Equal(t, "2026-12-02 16:00:00", inserted.Format(time.DateTime), "airport wall clock")
	m, err := sis.Decode([]byte(body), sis.Options{Location: shanghai})
	require.NoError(t, err)
	require.Equal(t, "MSGX", m.Meta.Sender)
	require.Equal(t, int64(1), m.Meta.Seq)
	require.Equal(t, "20261202160000", m.Meta.SentRaw)
	require.Equal(t, "04DEC260000", m.Request.Begin.Raw)
	require.Equal(t, "04DEC262359", m.Request.End.Raw)

	next, err := e.service(e.Mailbox).Reference(t.Context(), "GLST")
	require.NoError(t, err)
	require.Equal(t, int64(2), next.Seqn, "our own SEQN sequence")
	require.Equal(t, vocab.RequestSent, e.get(t, req.ID).Status, "another kind leaves RQFD open")
}

// Registering a new request of a kind expires the open one in the same
// transaction; at most one is open per kind.
func TestNewRequestExpiresTheOld(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	svc := e.service(e.Mailbox)
	from, to := day(t, "2026-12-04")
	first, err := svc.Flights(t.Context(), from, to)
	require.NoError(t, err)
	e.Clock.Advance(time.Minute)
	second, err := svc.Flights(t.Context(), from, to)
	require.NoError(t, err)

	old := e.get(t, first.ID)
	require.Equal(t, vocab.RequestExpired, old.Status)
	require.Equal(t, "superseded by a new request", old.Note)
	require.True(t, old.DoneAt.Equal(start.Add(time.Minute)))
	require.Equal(t, vocab.RequestSent, e.get(t, second.ID).Status)
	open, err := e.Store.OpenRequests(t.Context())
	require.NoError(t, err)
	require.Len(t, open, 1)

	_, err = e.Store.InsertRequest(t.Context(), store.NewRequest{Type: "RQFD", Key: "RQFD", Sender: "MSGX", Seqn: 99, Now: start, ExpiresAt: start})
	require.ErrorIs(t, err, store.ErrDuplicate, "the schema holds one open request per kind")
}

// failingMailbox inserts nothing and says the mailbox is down.
type failingMailbox struct{ aodbrequest.OutboundMailbox }

func (failingMailbox) InsertOutbound(context.Context, mailbox.InsertOutboundParams) (int64, error) {
	return 0, mailbox.ErrUnavailable
}

// The crash window in one process: the row is in coutmsgs but the request
// is still REGISTERED (the mark never ran). The next send first finds our
// own row by SNDR + SEQN and marks it SENT; nothing is sent twice. A
// request whose insert never happened stays REGISTERED until superseded.
// (internal/app's TestRequestCrashWindow kills the real binary there.)
func TestInterruptedSendIsRecoveredNotResent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	from, to := day(t, "2026-12-04")
	// The insert of a request whose process died before the mark.
	seqn, err := e.Store.NextRequestSeqn(t.Context())
	require.NoError(t, err)
	crashed, err := e.Store.InsertRequest(t.Context(), store.NewRequest{Type: "RQFD", Key: "RQFD", RangeBegin: &from, RangeEnd: &to,
		Sender: "MSGX", Seqn: seqn, Now: start, ExpiresAt: start.Add(10 * time.Minute)})
	require.NoError(t, err)
	// Another sender's row with the same SEQN is not ours.
	_, err = e.Mailbox.InsertOutbound(t.Context(), mailbox.InsertOutboundParams{
		Body:       sis.EncodeRQFD(sis.RequestMeta{Sender: "OTHR", Seq: seqn, Sent: start, Location: shanghai}, from, to),
		InsertedAt: start, RoutingID: "AODB",
	})
	require.NoError(t, err)
	e.Clock.Advance(1500 * time.Millisecond)
	oid, err := e.Mailbox.InsertOutbound(t.Context(), mailbox.InsertOutboundParams{
		Body:       sis.EncodeRQFD(sis.RequestMeta{Sender: "MSGX", Seq: seqn, Sent: start, Location: shanghai}, from, to),
		InsertedAt: e.Clock.Now(), RoutingID: "AODB",
	})
	require.NoError(t, err)

	e.Clock.Advance(time.Minute)
	ref, err := e.service(e.Mailbox).Reference(t.Context(), "AIRL")
	require.NoError(t, err)

	got := e.get(t, crashed.ID)
	require.Equal(t, vocab.RequestSent, got.Status, "recovered from its own row")
	require.Equal(t, oid, *got.OutboundID)
	require.True(t, got.SentAt.Equal(start.Add(time.Second)), "sent_at is the row's DATE_INSERTED (whole seconds): %s", got.SentAt)
	require.Equal(t, 3, e.outboundRows(t), "the two rows plus the new request: nothing resent")
	require.Equal(t, vocab.RequestSent, e.get(t, ref.ID).Status)

	// A send that fails leaves the request REGISTERED, with an error; the
	// next request of its kind supersedes it, and recovery finds no row.
	lost, err := e.service(failingMailbox{e.Mailbox}).Reference(t.Context(), "GLST")
	require.ErrorIs(t, err, mailbox.ErrUnavailable)
	require.Equal(t, vocab.RequestRegistered, e.get(t, lost.ID).Status)
	again, err := e.service(e.Mailbox).Reference(t.Context(), "GLST")
	require.NoError(t, err)
	require.Equal(t, vocab.RequestExpired, e.get(t, lost.ID).Status)
	require.Equal(t, vocab.RequestSent, e.get(t, again.ID).Status)
	require.Equal(t, 4, e.outboundRows(t))
}

// Shadow mode never writes coutmsgs: the service refuses before
// registering, and the shadow mailbox refuses the insert itself.
func TestShadowNeverWritesTheOutboundMailbox(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.cfg.Shadow = true
	from, to := day(t, "2026-12-04")
	_, err := e.service(e.Mailbox).Flights(t.Context(), from, to)
	require.ErrorIs(t, err, aodbrequest.ErrShadow)
	e.cfg.Shadow = false
	_, err = e.service(mailbox.New(e.MailboxDB, mailbox.WithShadow())).Flights(t.Context(), from, to)
	require.ErrorIs(t, err, mailbox.ErrReadOnly)
	require.Zero(t, e.outboundRows(t))
	e.cfg.Shadow = true
	n, err := e.service(e.Mailbox).Expiry().RunOnce(t.Context())
	require.NoError(t, err)
	require.Zero(t, n)
}

// Expiry also closes a request that was never sent, with its reason.
func TestExpiryClosesUnsentRequests(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	lost, err := e.service(failingMailbox{e.Mailbox}).Reference(t.Context(), "AIRL")
	require.Error(t, err)
	e.Clock.Advance(10 * time.Minute)
	n, err := e.service(e.Mailbox).Expiry().RunOnce(t.Context())
	require.NoError(t, err)
	require.Equal(t, 1, n)
	got := e.get(t, lost.ID)
	require.Equal(t, vocab.RequestExpired, got.Status)
	require.Equal(t, "never sent: no outbound row by expires_at", got.Note)
}

func TestBadRequestsAreRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	from, to := day(t, "2026-12-04")
	_, err := e.service(e.Mailbox).Flights(t.Context(), to, from)
	require.ErrorIs(t, err, aodbrequest.ErrInvalid)
	_, err = e.service(e.Mailbox).Reference(t.Context(), "NOPE")
	require.ErrorIs(t, err, aodbrequest.ErrInvalid)
	_, err = e.service(e.Mailbox).Flights(t.Context(), from, to.AddDate(0, 0, 7)) // 8 days: over the default 7
	require.ErrorIs(t, err, aodbrequest.ErrInvalid)
	require.ErrorContains(t, err, "more than request.max-days 7")
	require.Zero(t, e.outboundRows(t))
}

// request.max-days counts the airport's calendar days of the range, both
// ends counted, whatever the hours.
func TestCheckRangeCountsOperationDays(t *testing.T) {
	t.Parallel()
	at := func(s string) time.Time {
		v, err := aodbrequest.ParseLocal(s, time.FixedZone("Asia/Shanghai", 8*3600))
		require.NoError(t, err)
		return v
	}
	require.NoError(t, aodbrequest.CheckRange(at("2026-12-04T23:59"), at("2026-12-04T23:59"), 1))
	require.NoError(t, aodbrequest.CheckRange(at("2026-12-04T00:00"), at("2026-12-10T23:59"), 7))
	require.ErrorContains(t, aodbrequest.CheckRange(at("2026-12-04T23:59"), at("2026-12-05T00:00"), 1), "spans 2 operation days")
	require.ErrorContains(t, aodbrequest.CheckRange(at("2026-12-04T00:00"), at("2026-12-11T00:00"), 7), "spans 8 operation days")
}
