package api_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/api"
	"github.com/msgx-aodb/msgx/internal/metrics"
)

const sendToken = "ingest-token-of-the-airport-0123456789"

func withSend(d *api.Deps) { d.SendToken = sendToken }

// xmlHeader is a send's headers with an optional Authorization.
func xmlHeader(auth string) http.Header {
	h := http.Header{"Content-Type": {"application/xml"}}
	if auth != "" {
		h.Set("Authorization", auth)
	}
	return h
}

func TestSendNeedsTheTokenWhenConfigured(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	base := e.serve(t, withSend, withAdmin, func(d *api.Deps) { d.AuthFailures = 1000 })
	for name, auth := range map[string]string{
		"none": "", "wrong": "Bearer not-the-ingest-token", "admin's": "Bearer " + adminToken,
		"basic": "Basic " + sendToken, "no scheme": sendToken, "empty bearer": "Bearer ",
	} {
		res, body := call(t, http.MethodPost, base+"/cminmsgs/send", xmlHeader(auth), strings.NewReader(xmlBody))
		requireError(t, res, body, http.StatusUnauthorized)
		require.Contains(t, res.Header.Get("WWW-Authenticate"), `Bearer realm="msgx send"`, name)
	}
	require.Zero(t, e.rows(t), "nothing written without the token")

	res, body := call(t, http.MethodPost, base+"/cminmsgs/send", xmlHeader("Bearer "+sendToken), strings.NewReader(xmlBody))
	require.Equal(t, http.StatusOK, res.StatusCode, "%s", body)
	require.Equal(t, 1, e.rows(t))
	// The admin token is no ingest token, nor the other way round.
	res, body = call(t, http.MethodGet, base+"/admin/queue", bearer(sendToken), nil)
	requireError(t, res, body, http.StatusUnauthorized)
}

// serveDirect answers one request through the router with the given peer
// address (the failure limit is per client address).
func serveDirect(h http.Handler, method, path, remote string, hdr http.Header, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.RemoteAddr = remote
	for k, v := range hdr {
		req.Header[k] = v
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// At most AuthFailures failures per client address and credential kind per
// AuthInterval are answered 401; beyond them a wrong or missing token is 429
// with Retry-After until the allowance refills. The right token always
// passes; other addresses are not affected.
func TestFailedAuthenticationIsLimitedPerClient(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	h := newRouter(t, api.Deps{Store: e.st, Mailbox: e.mb, Clock: e.clk, Log: quiet,
		AdminToken: adminToken, SendToken: sendToken, AuthFailures: 3, AuthInterval: time.Minute})
	const guesser, other = "192.0.2.7:40000", "192.0.2.8:40000"
	admin := func(remote, token string) *httptest.ResponseRecorder {
		return serveDirect(h, http.MethodGet, "/admin/queue", remote, bearer(token), "")
	}

	require.Equal(t, http.StatusUnauthorized, admin(guesser, "guess-1").Code)
	require.Equal(t, http.StatusUnauthorized, admin(guesser, "guess-2").Code)
	require.Equal(t, http.StatusUnauthorized, admin(guesser, "").Code, "a missing token is a failure too")
	for _, token := range []string{"guess-4", ""} {
		rec := admin(guesser, token)
		require.Equal(t, http.StatusTooManyRequests, rec.Code, "beyond 3 failures: %s", rec.Body)
		require.Equal(t, "20", rec.Header().Get("Retry-After"), "one failure's worth refills in 60 s / 3")
		require.Contains(t, rec.Body.String(), "too many failed admin authentications from this address; retry after 20 s")
	}

	// Another address is not held back by the guesser.
	require.Equal(t, http.StatusUnauthorized, admin(other, "x").Code)

	// After Retry-After one failure's worth is back.
	e.clk.Advance(19 * time.Second)
	require.Equal(t, http.StatusTooManyRequests, admin(guesser, "guess-5").Code)
	e.clk.Advance(time.Second)
	require.Equal(t, http.StatusUnauthorized, admin(guesser, "guess-6").Code, "one failure's worth is back")
	require.Equal(t, http.StatusTooManyRequests, admin(guesser, "guess-7").Code)
}

// Issue #26 item 2: wrong admin tokens from an address (behind NAT, anyone)
// never lock out the AODB's valid send token from that address, nor the
// valid admin token itself; send failures have their own allowance.
func TestAValidTokenIsNeverLimited(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	met := metrics.New(nil, e.clk)
	h := newRouter(t, api.Deps{Store: e.st, Mailbox: e.mb, Clock: e.clk, Log: quiet, Metrics: met,
		AdminToken: adminToken, SendToken: sendToken, AuthFailures: 10, AuthInterval: time.Minute})
	const nat = "203.0.113.5:40000"
	admin := func(token string) int {
		return serveDirect(h, http.MethodGet, "/admin/queue", nat, bearer(token), "").Code
	}
	send := func(token string) int {
		return serveDirect(h, http.MethodPost, "/cminmsgs/send", nat, xmlHeader("Bearer "+token), xmlBody).Code
	}

	for i := range 10 {
		require.Equal(t, http.StatusUnauthorized, admin("guess-"+strconv.Itoa(i)))
	}
	require.Equal(t, http.StatusTooManyRequests, admin("guess-10"), "wrong admin tokens beyond the limit")
	require.Equal(t, http.StatusOK, send(sendToken), "the valid send token from the same address")
	require.Equal(t, 1, e.rows(t))
	require.Equal(t, http.StatusOK, admin(adminToken), "the valid admin token after many wrong ones")
	require.Equal(t, http.StatusTooManyRequests, admin("guess-11"), "a valid token refills nothing")

	// Send failures are counted on their own.
	for i := range 10 {
		require.Equal(t, http.StatusUnauthorized, send("guess-"+strconv.Itoa(i)))
	}
	require.Equal(t, http.StatusTooManyRequests, send("guess-10"))
	require.Equal(t, http.StatusOK, send(sendToken))
	require.Equal(t, 2, e.rows(t))

	rec := serveDirect(h, http.MethodGet, "/metrics", nat, nil, "")
	require.Equal(t, http.StatusOK, rec.Code)
	for _, line := range []string{
		`msgx_auth_failures_total{kind="admin",limited="false"} 10`,
		`msgx_auth_failures_total{kind="admin",limited="true"} 2`,
		`msgx_auth_failures_total{kind="send",limited="false"} 10`,
		`msgx_auth_failures_total{kind="send",limited="true"} 1`,
	} {
		require.Contains(t, rec.Body.String(), line+"\n")
	}
}

// 12 001 failures from one client are at most two warnings per interval and
// kind (failing, limited), each with the count of those not logged.
func TestFailedAuthenticationLogIsLimited(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	var lg logs
	h := newRouter(t, api.Deps{Store: e.st, Mailbox: e.mb, Clock: e.clk, Log: lg.logger(),
		AdminToken: adminToken, SendToken: sendToken})
	const guesser = "198.51.100.9:5555"
	for i := range 12001 {
		path, hdr := "/admin/queue", bearer("guess-"+strconv.Itoa(i))
		if i%2 == 1 {
			path, hdr = "/cminmsgs/send", xmlHeader("Bearer guess-"+strconv.Itoa(i))
		}
		rec := serveDirect(h, http.MethodPost, path, guesser, hdr, "")
		require.Contains(t, []int{http.StatusUnauthorized, http.StatusTooManyRequests}, rec.Code)
	}
	// Per client and kind one line while failing, one once limited.
	lines := lg.named("api: authentication failed")
	require.Equal(t, 4, len(lines), "4 lines for 12 001 failures in one interval")
	for i, want := range [][2]string{{"admin", "false"}, {"send", "false"}, {"admin", "true"}, {"send", "true"}} {
		require.Equal(t, "198.51.100.9", attr(lines[i], "client"))
		require.Equal(t, want[0], attr(lines[i], "kind"))
		require.Equal(t, want[1], attr(lines[i], "limited"), "the first refusal by the limit names who is limited")
		require.Equal(t, "0", attr(lines[i], "suppressed"))
	}

	e.clk.Advance(api.DefaultAuthInterval)
	serveDirect(h, http.MethodGet, "/admin/queue", guesser, bearer("again"), "")
	lines = lg.named("api: authentication failed")
	require.Equal(t, 5, len(lines))
	require.Equal(t, "9", attr(lines[4], "suppressed"), "the next line counts the failures not logged")
	require.Equal(t, "false", attr(lines[4], "limited"), "the allowance refilled")

	// Another client has its own line.
	serveDirect(h, http.MethodGet, "/admin/queue", "198.51.100.10:5555", bearer("x"), "")
	require.Equal(t, 6, len(lg.named("api: authentication failed")))
}
