package api_test

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/api"
	"github.com/msgx-aodb/msgx/internal/leader"
	"github.com/msgx-aodb/msgx/internal/pump"
	"github.com/msgx-aodb/msgx/internal/status"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

const adminToken = "s3cret-token-of-the-airport"

func bearer(token string) http.Header {
	return http.Header{"Authorization": {"Bearer " + token}, "Content-Type": {"application/json"}}
}

func withAdmin(d *api.Deps) { d.AdminToken = adminToken }

func TestAdminNeedsTheToken(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	// Every failure here is answered 401 (the failure limit: auth_test.go).
	base := e.serve(t, withAdmin, func(d *api.Deps) { d.AuthFailures = 1000 })
	replayBody := `{"class":"EXHAUSTED","dry_run":true}`

	for _, route := range []struct{ method, path, body string }{
		{http.MethodGet, "/admin/queue", ""},
		{http.MethodPost, "/admin/replay", replayBody},
	} {
		for name, hdr := range map[string]http.Header{
			"none":         nil,
			"wrong":        bearer("s3cret-token-of-the-airporT"),
			"prefix":       bearer("s3cret"),
			"longer":       bearer(adminToken + "x"),
			"basic":        {"Authorization": {"Basic " + adminToken}},
			"no scheme":    {"Authorization": {adminToken}},
			"empty bearer": {"Authorization": {"Bearer "}},
		} {
			res, body := call(t, route.method, base+route.path, hdr, strings.NewReader(route.body))
			requireError(t, res, body, http.StatusUnauthorized)
			require.Contains(t, res.Header.Get("WWW-Authenticate"), `Bearer realm="msgx admin"`, "%s %s", route.path, name)
		}
		res, body := call(t, route.method, base+route.path, bearer(adminToken), strings.NewReader(route.body))
		require.Equal(t, http.StatusOK, res.StatusCode, "%s: %s", route.path, body)
		res, body = call(t, route.method, base+route.path, http.Header{"Authorization": {"bearer " + adminToken}}, strings.NewReader(route.body))
		require.Equal(t, http.StatusOK, res.StatusCode, "the scheme is case-insensitive: %s", body)
	}
	res, body := call(t, http.MethodGet, base+"/admin/queue", bearer("wrong"), nil)
	requireError(t, res, body, http.StatusUnauthorized)
	require.Contains(t, res.Header.Get("WWW-Authenticate"), `error="invalid_token"`)
	res, body = call(t, http.MethodGet, base+"/admin/nothing", nil, nil)
	requireError(t, res, body, http.StatusUnauthorized) // nothing under /admin answers without the token

	// Without a configured token the admin API is off, whatever is sent.
	off := e.serve(t)
	for _, hdr := range []http.Header{nil, bearer(""), bearer(adminToken)} {
		res, body := call(t, http.MethodGet, off+"/admin/queue", hdr, nil)
		requireError(t, res, body, http.StatusForbidden)
		require.Contains(t, string(body), "admin API disabled")
		res, body = call(t, http.MethodPost, off+"/admin/replay", hdr, strings.NewReader(replayBody))
		requireError(t, res, body, http.StatusForbidden)
	}
}

func TestAdminQueueIsTheStatusReport(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	base := e.serve(t, withAdmin, func(d *api.Deps) {
		d.Mode = func() (string, bool) { return string(leader.Standby), true }
	})
	ctx := t.Context()
	_, err := e.st.Enqueue(ctx, []int64{10, 11, 12, 13}, t0)
	require.NoError(t, err)
	require.NoError(t, e.st.FinishMessages(ctx, []vocab.Finish{
		{MsgID: 10, Status: vocab.StatusDead, ErrorClass: "PROTOCOL", Reason: "RECS", Now: t0},
		{MsgID: 11, Status: vocab.StatusSucceeded, Now: t0},
	}))
	_, err = e.st.RecordFailure(ctx, vocab.RecordFailureParams{MsgID: 12, ErrorClass: "INFRA", Reason: "db", NextAttemptAt: t0.Add(time.Minute), Now: t0})
	require.NoError(t, err)
	require.NoError(t, e.st.PassBackfillMark(ctx, 11, t0)) // 10 and 11 backfilled, then 10 a todo again
	require.NoError(t, e.st.AddBackfills(ctx, []vocab.Backfill{{MsgID: 10, MailboxStatus: vocab.StatusDead, ProcessedAt: t0}}))
	e.clk.Advance(90 * time.Second)

	res, body := call(t, http.MethodGet, base+"/admin/queue", bearer(adminToken), nil)
	require.Equal(t, http.StatusOK, res.StatusCode, "%s", body)
	require.Equal(t, "application/json", res.Header.Get("Content-Type"))
	var got status.Report
	require.NoError(t, json.Unmarshal(body, &got))
	require.Equal(t, string(leader.Standby), *got.Role)
	require.Nil(t, got.Instances, "read by msgx status only")
	require.True(t, got.Shadow)
	require.Equal(t, int64(12), got.Head.MsgID)
	require.Equal(t, vocab.StatusFailed, got.Head.Status)
	require.Equal(t, 90.0, got.Head.AgeSeconds, "measured on the injected clock")
	require.Equal(t, int64(2), got.Backlog)
	require.Equal(t, map[string]int64{"PROTOCOL": 1}, got.DeadLetters)
	require.Equal(t, int64(1), got.Backfill.Todos)

	// Exactly what status.Collect reads from the database.
	want, err := status.Collect(ctx, e.st, e.clk.Now())
	require.NoError(t, err)
	role := string(leader.Standby)
	want.Role, want.Shadow = &role, true
	wantJSON, err := json.Marshal(want)
	require.NoError(t, err)
	require.JSONEq(t, string(wantJSON), string(body))

	// The keys of status.Report, every one: msgx status --json has the same
	// (cmd/msgx TestStatusJSON checks it there).
	var keys, zero map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(body, &keys))
	zeroJSON, err := json.Marshal(status.Report{})
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(zeroJSON, &zero))
	require.ElementsMatch(t, slices.Collect(maps.Keys(zero)), slices.Collect(maps.Keys(keys)))
}

// history is a flight with a replayable dead letter behind which a later
// message changed the same flight.
type history struct {
	dnld, unsup, later, ok int64
}

// drain runs the pump with one attempt per message, moving the fake clock
// over the backoff, until the queue is empty.
func (e *sendEnv) drain(t *testing.T) {
	t.Helper()
	e.enqueue(t)
	cfg := pump.DefaultConfig()
	cfg.Decode.Location = airport
	cfg.MaxAttempts = 1
	p := pump.New(e.st, e.mb, nil, e.clk, quiet, cfg)
	for range 100 {
		wait, err := p.Step(t.Context())
		require.NoError(t, err)
		if wait > 0 {
			head, err := e.st.QueueHead(t.Context(), 1)
			require.NoError(t, err)
			if len(head) == 0 {
				return
			}
			e.clk.Advance(wait)
		}
	}
	t.Fatal("pump did not settle")
}

func makeHistory(t *testing.T, e *sendEnv, base string) history {
	t.Helper()
	var h history
	h.dnld = sendID(t, base, sisMsg("SCHD", "DNLD", 1, dnld7))
	// An element this codec does not know: UNSUPPORTED, then DEAD EXHAUSTED.
	h.unsup = sendID(t, base, sisMsg("FLOP", "STND", 2, "<FLOP><FLID>7</FLID><STND>150</STND><XXXX>1</XXXX></FLOP>"))
	e.drain(t)
	h.later = sendID(t, base, sisMsg("FLOP", "STND", 3, "<FLOP><FLID>7</FLID><STND>201</STND></FLOP>"))
	h.ok = sendID(t, base, sisMsg("FLOP", "STND", 4, "<FLOP><FLID>7</FLID><STND>202</STND></FLOP>"))
	e.drain(t)
	m, err := e.st.Message(t.Context(), h.unsup)
	require.NoError(t, err)
	require.Equal(t, vocab.StatusDead, m.Status)
	require.Equal(t, "EXHAUSTED", m.ErrorClass)
	return h
}

func postReplay(t *testing.T, base, body string) (*http.Response, []byte) {
	t.Helper()
	return call(t, http.MethodPost, base+"/admin/replay", bearer(adminToken), strings.NewReader(body))
}

type preview struct {
	DryRun   bool `json:"dry_run"`
	Total    int  `json:"total"`
	Messages []struct {
		MsgID   int64   `json:"msg_id"`
		Status  string  `json:"status"`
		Class   string  `json:"error_class"`
		Flights []int64 `json:"flights"`
	} `json:"messages"`
	Rejected []struct {
		MsgID  int64  `json:"msg_id"`
		Reason string `json:"reason"`
	} `json:"rejected"`
	Warnings []struct {
		MsgID   int64  `json:"msg_id"`
		Kind    string `json:"kind"`
		FLID    int64  `json:"flid"`
		ByMsgID int64  `json:"by_msg_id"`
		Text    string `json:"text"`
	} `json:"warnings"`
}

func TestReplayDryRunPreviewsAndChangesNothing(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	base := e.serve(t, withAdmin, func(d *api.Deps) { d.Decode.Location = airport })
	h := makeHistory(t, e, base)
	before, err := e.st.Message(t.Context(), h.unsup)
	require.NoError(t, err)
	flightsBefore, err := e.st.Flights(t.Context(), []int64{7})
	require.NoError(t, err)

	res, body := postReplay(t, base, `{"class":"EXHAUSTED","dry_run":true}`)
	require.Equal(t, http.StatusOK, res.StatusCode, "%s", body)
	var p preview
	require.NoError(t, json.Unmarshal(body, &p))
	require.True(t, p.DryRun)
	require.Equal(t, 1, p.Total)
	require.Len(t, p.Messages, 1)
	require.Equal(t, h.unsup, p.Messages[0].MsgID)
	require.Equal(t, vocab.StatusDead, p.Messages[0].Status)
	require.Equal(t, "EXHAUSTED", p.Messages[0].Class)
	require.Equal(t, []int64{7}, p.Messages[0].Flights, "learnt from the raw message in the mailbox")

	var overwrite bool
	for _, w := range p.Warnings {
		if w.Kind == "flight-overwrite" {
			overwrite = true
			require.Equal(t, h.unsup, w.MsgID)
			require.Equal(t, int64(7), w.FLID)
			require.Equal(t, h.ok, w.ByMsgID, "the flight's state comes from the last message that changed it")
			require.Contains(t, w.Text, "flight 7")
		}
	}
	require.True(t, overwrite, "a warning for flight 7: %s", body)

	// By ids: what is not replayable is listed with the reason.
	res, body = postReplay(t, base, fmt.Sprintf(`{"ids":[%d,%d,987654],"dry_run":true}`, h.unsup, h.ok))
	require.Equal(t, http.StatusOK, res.StatusCode, "%s", body)
	p = preview{}
	require.NoError(t, json.Unmarshal(body, &p))
	require.Len(t, p.Messages, 1)
	require.Len(t, p.Rejected, 2)
	require.Equal(t, h.ok, p.Rejected[0].MsgID)
	require.Contains(t, p.Rejected[0].Reason, "SUCCEEDED")
	require.Equal(t, int64(987654), p.Rejected[1].MsgID)
	require.Contains(t, p.Rejected[1].Reason, "not found")

	after, err := e.st.Message(t.Context(), h.unsup)
	require.NoError(t, err)
	require.Equal(t, before, after, "a dry run changes nothing")
	flightsAfter, err := e.st.Flights(t.Context(), []int64{7})
	require.NoError(t, err)
	require.Equal(t, flightsBefore[7].StateVersion, flightsAfter[7].StateVersion)
	head, err := e.st.QueueHead(t.Context(), 10)
	require.NoError(t, err)
	require.Empty(t, head, "nothing queued")
}

func TestReplayMovesToPending(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	base := e.serve(t, withAdmin)
	h := makeHistory(t, e, base)
	e.clk.Advance(time.Hour)

	res, body := postReplay(t, base, fmt.Sprintf(`{"ids":[%d,%d],"dry_run":false}`, h.ok, h.unsup))
	require.Equal(t, http.StatusOK, res.StatusCode, "%s", body)
	var got struct {
		DryRun      bool    `json:"dry_run"`
		Replayed    []int64 `json:"replayed"`
		Count       int     `json:"count"`
		NotReplayed []int64 `json:"not_replayed"`
	}
	require.NoError(t, json.Unmarshal(body, &got))
	require.False(t, got.DryRun)
	require.Equal(t, []int64{h.unsup}, got.Replayed)
	require.Equal(t, 1, got.Count)
	require.Equal(t, []int64{h.ok}, got.NotReplayed)

	m, err := e.st.Message(t.Context(), h.unsup)
	require.NoError(t, err)
	require.Equal(t, vocab.StatusPending, m.Status)
	require.Equal(t, 1, m.ReplayCount)
	require.Equal(t, "EXHAUSTED", m.PrevClass, "the old error is kept as audit")
	require.Zero(t, m.Attempts)
	head, err := e.st.QueueHead(t.Context(), 10)
	require.NoError(t, err)
	require.Len(t, head, 1)
	require.Equal(t, h.unsup, head[0].ID)
	ok, err := e.st.Message(t.Context(), h.ok)
	require.NoError(t, err)
	require.Equal(t, vocab.StatusSucceeded, ok.Status, "a processed message is left alone")

	// Replaying again moves nothing: it is PENDING now.
	res, body = postReplay(t, base, `{"class":"EXHAUSTED","dry_run":false}`)
	require.Equal(t, http.StatusOK, res.StatusCode, "%s", body)
	require.NoError(t, json.Unmarshal(body, &got))
	require.Empty(t, got.Replayed)
}

func TestReplayRefusesBadRequests(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	base := e.serve(t, withAdmin)
	ids := make([]string, api.MaxReplayIDs+1)
	for i := range ids {
		ids[i] = fmt.Sprint(i + 1)
	}
	for body, mention := range map[string]string{
		`{"class":"EXHAUSTED"}`:                         "dry_run",
		`{"dry_run":true}`:                              "ids or an error class",
		`{"ids":[],"dry_run":true}`:                     "ids or an error class",
		`{"ids":[1],"class":"INFRA","dry_run":true}`:    "not both",
		`{"ids":[0],"dry_run":true}`:                    "not positive",
		`{"class":"PROTOCOL","dry_run":true}`:           "not replayable",
		`{"class":"NOPE","dry_run":false}`:              "unknown class NOPE",
		`{"class":"INFRA","dry_run":true,"force":true}`: "unknown field",
		`{"class":"INFRA","dry_run":"yes"}`:             "dry_run",
		`{"class":"INFRA","dry_run":true} {"again":1}`:  "after the JSON object",
		`{"class":`: "invalid JSON",
		``:          "empty body",
		`{"ids":[` + strings.Join(ids, ",") + `],"dry_run":true}`: "at most 1000",
	} {
		res, b := postReplay(t, base, body)
		requireError(t, res, b, http.StatusBadRequest)
		require.Contains(t, string(b), mention, "body %.60s", body)
	}
	res, b := call(t, http.MethodPost, base+"/admin/replay",
		http.Header{"Authorization": {"Bearer " + adminToken}, "Content-Type": {"text/plain"}},
		strings.NewReader(`{"class":"INFRA","dry_run":true}`))
	requireError(t, res, b, http.StatusUnsupportedMediaType)
	res, b = call(t, http.MethodGet, base+"/admin/replay", bearer(adminToken), nil)
	requireError(t, res, b, http.StatusMethodNotAllowed)
}

func TestJSONRoutesLimitTheBody(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	base := e.serve(t, withAdmin, func(d *api.Deps) { d.MaxJSONBytes = 256 })
	big := `{"class":"EXHAUSTED","dry_run":true,"ids":[` + strings.Repeat("1,", 200) + `1]}`
	require.Greater(t, len(big), 256)

	// With a Content-Length: refused before reading.
	res, b := postReplay(t, base, big)
	requireError(t, res, b, http.StatusRequestEntityTooLarge)
	// Chunked: refused while reading.
	res, b = call(t, http.MethodPost, base+"/admin/replay", bearer(adminToken), io.MultiReader(strings.NewReader(big)))
	requireError(t, res, b, http.StatusRequestEntityTooLarge)
	// Every route has the limit, not only those that read a body.
	res, b = call(t, http.MethodGet, base+"/dead-letters", nil, strings.NewReader(big))
	requireError(t, res, b, http.StatusRequestEntityTooLarge)
	res, b = call(t, http.MethodGet, base+"/healthz", nil, strings.NewReader(big))
	requireError(t, res, b, http.StatusRequestEntityTooLarge)

	// Under the limit it is a request like any other.
	res, b = postReplay(t, base, `{"class":"EXHAUSTED","dry_run":true}`)
	require.Equal(t, http.StatusOK, res.StatusCode, "%s", b)

	// The send route keeps the message limit, not the JSON one.
	res, b = send(t, base, "application/xml", strings.NewReader("<MSG>"+strings.Repeat("x", 1024)+"</MSG>"))
	require.Equal(t, http.StatusOK, res.StatusCode, "%s", b)
}
