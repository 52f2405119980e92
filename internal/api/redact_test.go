package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"html"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/api"
	"github.com/msgx-aodb/msgx/internal/leader"
	"github.com/msgx-aodb/msgx/internal/readiness"
	"github.com/msgx-aodb/msgx/internal/replay"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Stored INFRA reasons as the pump writes them: the driver's words.
const (
	pgDown      = "failed to connect to `user=postgres database=msgx`: 127.0.0.1:5432 (127.0.0.1): dial error: dial tcp 127.0.0.1:5432: connect: connection refused"
	mailboxDown = "read raw message 2: mailbox: read raw 2: mailbox: unavailable: dial tcp 10.20.30.40:3306: connect: connection refused"
)

// leaks are what no public answer may contain.
var leaks = []string{"127.0.0.1", "10.20.30.40", "5432", "3306", "user=postgres", "database=msgx", "dial tcp"}

func requireNoLeak(t *testing.T, body []byte) {
	t.Helper()
	for _, l := range leaks {
		require.NotContains(t, string(body), l)
	}
}

// GET /messages/{id} and /dead-letters show a stored reason as its kind of
// failure; /admin/messages/{id} and /admin/dead-letters in full.
func TestPublicRoutesShowCleanReasons(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	base := e.serve(t, withAdmin)
	ctx := t.Context()
	_, err := e.st.Enqueue(ctx, []int64{1, 2}, t0)
	require.NoError(t, err)
	_, err = e.st.RecordFailure(ctx, vocab.RecordFailureParams{MsgID: 1, ErrorClass: "INFRA", Reason: pgDown, NextAttemptAt: t0, Now: t0})
	require.NoError(t, err)
	require.NoError(t, e.st.FinishMessages(ctx, []vocab.Finish{{MsgID: 2, Status: vocab.StatusDead, ErrorClass: "EXHAUSTED",
		Reason: "5 attempts; last INFRA: " + mailboxDown, Now: t0}}))

	res, body := call(t, http.MethodGet, base+"/messages/1", nil, nil)
	require.Equal(t, http.StatusOK, res.StatusCode)
	requireNoLeak(t, body)
	require.Equal(t, "connection refused", message(t, base, 1)["reason"])
	require.Equal(t, "INFRA", message(t, base, 1)["error_class"])

	res, body = call(t, http.MethodGet, base+"/dead-letters", nil, nil)
	require.Equal(t, http.StatusOK, res.StatusCode)
	requireNoLeak(t, body)
	_, p := deadIDs(t, base, "")
	require.Equal(t, "5 attempts; last INFRA: read raw message 2: mailbox: read raw 2: connection refused", p.DeadLetters[0]["reason"])

	// A replayed message keeps its old error as prev_reason: cleaned too.
	_, err = replay.Apply(ctx, e.st, replay.Filter{IDs: []int64{2}}, t0, nil)
	require.NoError(t, err)
	res, body = call(t, http.MethodGet, base+"/messages/2", nil, nil)
	require.Equal(t, http.StatusOK, res.StatusCode)
	requireNoLeak(t, body)
	require.Contains(t, message(t, base, 2)["prev_reason"], "last INFRA: ")

	// The admin routes show what was stored.
	admin := func(path string) map[string]any {
		res, body := call(t, http.MethodGet, base+path, bearer(adminToken), nil)
		require.Equal(t, http.StatusOK, res.StatusCode, "%s", body)
		var m map[string]any
		require.NoError(t, json.Unmarshal(body, &m))
		return m
	}
	require.Equal(t, pgDown, admin("/admin/messages/1")["reason"])
	require.Equal(t, "5 attempts; last INFRA: "+mailboxDown, admin("/admin/messages/2")["prev_reason"])
	_, err = e.st.RecordFailure(ctx, vocab.RecordFailureParams{MsgID: 1, ErrorClass: "INFRA", Reason: pgDown, NextAttemptAt: t0, Now: t0})
	require.NoError(t, err)
	require.NoError(t, e.st.FinishMessages(ctx, []vocab.Finish{{MsgID: 1, Status: vocab.StatusDead, ErrorClass: "INFRA", Reason: pgDown, Now: t0}}))
	letters := admin("/admin/dead-letters")["dead_letters"].([]any)
	require.Len(t, letters, 1)
	require.Equal(t, pgDown, letters[0].(map[string]any)["reason"])
	res, body = call(t, http.MethodGet, base+"/admin/dead-letters", nil, nil)
	requireError(t, res, body, http.StatusUnauthorized)
}

// A 5xx answer says what failed in general and the request id; the error
// itself is logged with that id.
func TestServerErrorsHideTheErrorText(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	closed, err := pgxpool.New(t.Context(), e.pg.URL)
	require.NoError(t, err)
	closed.Close()
	var lg logs
	base := e.serve(t, func(d *api.Deps) { d.Store = pgstore.New(closed); d.Log = lg.logger() })

	for _, path := range []string{"/messages/1", "/dead-letters", "/flights/7", "/all/flights?day=2026-12-03"} {
		res, body := call(t, http.MethodGet, base+path, nil, nil)
		require.GreaterOrEqual(t, res.StatusCode, 500, "%s: %s", path, body)
		requireError(t, res, body, res.StatusCode)
		var e struct {
			RequestID string `json:"request_id"`
		}
		require.NoError(t, json.Unmarshal(body, &e))
		require.Regexp(t, `^[0-9a-f]{16}$`, e.RequestID, path)
		require.Equal(t, e.RequestID, res.Header.Get("X-Request-Id"))
		// The leak check reads the body without the id: a random hex id may
		// hold "3306" or "5432" (about 1 run in 30), which leaks nothing.
		rest := bytes.ReplaceAll(body, []byte(e.RequestID), nil)
		requireNoLeak(t, rest)
		require.NotContains(t, string(rest), "closed")

		var logged bool
		for _, name := range []string{"api: read message failed", "api: list dead letters failed", "api: read flight failed", "api: list flights failed"} {
			for _, r := range lg.named(name) {
				if attr(r, "request_id") == e.RequestID {
					logged = true
					require.Contains(t, attr(r, "err"), "closed pool", "the log has the error itself")
				}
			}
		}
		require.True(t, logged, "%s: the error is logged with request id %s", path, e.RequestID)
	}
}

// /readyz logs a failed check's error in full, but once per interval per
// check: a load balancer polling through an outage is not a line per poll.
func TestReadyzLogsFailuresOncePerInterval(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	var lg logs
	base := e.serve(t, func(d *api.Deps) {
		d.Log = lg.logger()
		d.Ready = readiness.Prober(func() (string, bool) { return string(leader.Leader), false }, time.Second,
			readiness.Check{Name: "postgres", Run: func(context.Context) error { return errors.New(pgDown) }})
	})
	for range 50 {
		code, a := readyz(t, base)
		require.Equal(t, http.StatusServiceUnavailable, code)
		require.Equal(t, "connection refused", a.Checks[0].Error)
	}
	lines := lg.named("api: readiness check failed")
	require.Equal(t, 1, len(lines))
	require.Equal(t, pgDown, attr(lines[0], "err"), "the log has the error in full")

	e.clk.Advance(api.DefaultAuthInterval)
	readyz(t, base)
	lines = lg.named("api: readiness check failed")
	require.Equal(t, 2, len(lines))
	require.Equal(t, "49", attr(lines[1], "suppressed"))
}

// A dead letter's reason in msgx's own words passes whole on the public
// routes and the console, whatever its class: a class name (CODEC_ERROR) is
// not database error text.
func TestPublicReasonsKeepClassNames(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	base := e.serve(t)
	ctx := t.Context()
	ids := make([]int64, len(vocab.Classes))
	for i := range ids {
		ids[i] = int64(i + 1)
	}
	_, err := e.st.Enqueue(ctx, ids, t0)
	require.NoError(t, err)
	want := map[int64]string{}
	for i, class := range vocab.Classes {
		reason := "5 attempts; last " + string(class) + ": MSG/FLOP/STND: text mixed with elements is not handled"
		want[ids[i]] = reason
		require.NoError(t, e.st.FinishMessages(ctx, []vocab.Finish{{MsgID: ids[i], Status: vocab.StatusDead,
			ErrorClass: string(vocab.ClassExhausted), Reason: reason, Now: t0}}))
	}
	for id, reason := range want {
		require.Equal(t, reason, message(t, base, id)["reason"])
		require.Contains(t, page(t, base+"/console/messages/"+strconv.FormatInt(id, 10), http.StatusOK), html.EscapeString(reason))
	}
	_, p := deadIDs(t, base, "")
	require.Len(t, p.DeadLetters, len(want))
	for _, m := range p.DeadLetters {
		require.Equal(t, want[int64(m["msg_id"].(float64))], m["reason"])
	}
}
