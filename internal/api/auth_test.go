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

// At most AuthFailures failures per client address per AuthInterval are
// answered 401; beyond them 429 with Retry-After, even with the right token,
// until the allowance refills. Admin and send failures count together; other
// addresses are not affected.
func TestFailedAuthenticationIsLimitedPerClient(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	h := api.NewRouter(api.Deps{Store: e.st, Mailbox: e.mb, Clock: e.clk, Log: quiet,
		AdminToken: adminToken, SendToken: sendToken, AuthFailures: 3, AuthInterval: time.Minute})
	const guesser, other = "192.0.2.7:40000", "192.0.2.8:40000"
	admin := func(remote, token string) *httptest.ResponseRecorder {
		return serveDirect(h, http.MethodGet, "/admin/queue", remote, bearer(token), "")
	}

	require.Equal(t, http.StatusUnauthorized, admin(guesser, "guess-1").Code)
	require.Equal(t, http.StatusUnauthorized, serveDirect(h, http.MethodPost, "/cminmsgs/send", guesser, xmlHeader("Bearer guess-2"), xmlBody).Code)
	require.Equal(t, http.StatusUnauthorized, admin(guesser, "").Code, "a missing token is a failure too")
	for _, token := range []string{"guess-4", adminToken} {
		rec := admin(guesser, token)
		require.Equal(t, http.StatusTooManyRequests, rec.Code, "beyond 3 failures, whatever the token: %s", rec.Body)
		require.Equal(t, "20", rec.Header().Get("Retry-After"), "one failure's worth refills in 60 s / 3")
		require.Contains(t, rec.Body.String(), "retry after 20 s")
	}
	rec := serveDirect(h, http.MethodPost, "/cminmsgs/send", guesser, xmlHeader("Bearer "+sendToken), xmlBody)
	require.Equal(t, http.StatusTooManyRequests, rec.Code)
	require.Zero(t, e.rows(t))

	// Another address is not held back by the guesser.
	require.Equal(t, http.StatusOK, admin(other, adminToken).Code)
	require.Equal(t, http.StatusUnauthorized, admin(other, "x").Code)

	// After Retry-After one failure's worth is back.
	e.clk.Advance(19 * time.Second)
	require.Equal(t, http.StatusTooManyRequests, admin(guesser, adminToken).Code)
	e.clk.Advance(time.Second)
	require.Equal(t, http.StatusOK, admin(guesser, adminToken).Code, "the right token passes again")
	require.Equal(t, http.StatusUnauthorized, admin(guesser, "guess-5").Code)
	require.Equal(t, http.StatusTooManyRequests, admin(guesser, "guess-6").Code)
}

// 12 001 failures from one client are one warning per interval, with the
// count of those not logged.
func TestFailedAuthenticationLogIsLimited(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	var lg logs
	h := api.NewRouter(api.Deps{Store: e.st, Mailbox: e.mb, Clock: e.clk, Log: lg.logger(),
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
	lines := lg.named("api: authentication failed")
	require.Equal(t, 1, len(lines), "one line for 12 001 failures in one interval")
	require.Equal(t, "198.51.100.9", attr(lines[0], "client"))
	require.Equal(t, "0", attr(lines[0], "suppressed"))

	e.clk.Advance(api.DefaultAuthInterval)
	serveDirect(h, http.MethodGet, "/admin/queue", guesser, bearer("again"), "")
	lines = lg.named("api: authentication failed")
	require.Equal(t, 2, len(lines))
	require.Equal(t, "12000", attr(lines[1], "suppressed"), "the next line counts the failures not logged")

	// Another client has its own line.
	serveDirect(h, http.MethodGet, "/admin/queue", "198.51.100.10:5555", bearer("x"), "")
	require.Equal(t, 3, len(lg.named("api: authentication failed")))
}
