package api_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/api"
	"github.com/msgx-aodb/msgx/internal/leader"
	"github.com/msgx-aodb/msgx/internal/metrics"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/status"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// page GETs a console page, checks it is HTML under the strict CSP with no
// inline script, and returns its body.
func page(t *testing.T, url string, want int) string {
	t.Helper()
	res, body := call(t, http.MethodGet, url, nil, nil)
	require.Equal(t, want, res.StatusCode, "%s: %s", url, body)
	require.Equal(t, "text/html; charset=utf-8", res.Header.Get("Content-Type"), url)
	csp := res.Header.Get("Content-Security-Policy")
	require.Contains(t, csp, "script-src 'self'", url)
	require.Contains(t, csp, "default-src 'none'", url)
	require.NotContains(t, csp, "unsafe-inline", url)
	for _, m := range scriptTag.FindAllStringSubmatch(string(body), -1) {
		require.Contains(t, m[1], ` src="/console/static/`, "%s: every script is a file of the console", url)
		require.Empty(t, m[2], "%s: no inline script", url)
	}
	require.Equal(t, 2, strings.Count(string(body), "<script"), url)
	require.NotRegexp(t, `(?i)(src|href)="https?://`, string(body), "%s: nothing from elsewhere", url)
	require.NotRegexp(t, `(?i)\son[a-z]+="`, string(body), "%s: no inline handlers", url)
	require.NotContains(t, string(body), ` style="`, url)
	return string(body)
}

var scriptTag = regexp.MustCompile(`(?s)<script([^>]*)>(.*?)</script>`)

// hx sends what the console's htmx sends: HX-Request, the token, JSON.
func hx(t *testing.T, method, url, token, body string) (*http.Response, string) {
	t.Helper()
	hdr := http.Header{"Hx-Request": {"true"}}
	if token != "" {
		hdr.Set("Authorization", "Bearer "+token)
	}
	if body != "" {
		hdr.Set("Content-Type", "application/json")
	}
	var rd *strings.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	var res *http.Response
	var b []byte
	if rd != nil {
		res, b = call(t, method, url, hdr, rd)
	} else {
		res, b = call(t, method, url, hdr, nil)
	}
	return res, string(b)
}

func TestConsolePages(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	met := metrics.New(nil, e.clk)
	base := e.serve(t, withAdmin, func(d *api.Deps) {
		d.Decode.Location = airport
		d.Metrics = met
		d.Mode = func() (string, bool) { return string(leader.Leader), false }
	})
	met.Sample(e.clk.Now(), &status.Report{Backlog: 0})
	h := makeHistory(t, e, base)
	met.MessageFinished("FLOP", vocab.StatusSucceeded, "", time.Second)
	met.MessageFinished("", vocab.StatusDead, "MALFORMED", time.Second) // never decoded: no kind
	e.clk.Advance(30 * time.Second)
	met.Sample(e.clk.Now(), &status.Report{Backlog: 2, Head: &status.Head{AgeSeconds: 42}})

	t.Run("Overview", func(t *testing.T) {
		res, _ := call(t, http.MethodGet, base+"/console", nil, nil)
		require.Equal(t, http.StatusOK, res.StatusCode, "/console redirects to /console/")
		body := page(t, base+"/console/", http.StatusOK)
		require.Contains(t, body, ">leader<")
		require.Contains(t, body, "none (queue empty)")
		require.Contains(t, body, `<a class="count bad" href="/console/dead-letters?class=EXHAUSTED">EXHAUSTED 1</a>`, "dead letters by class, from the status report")
		require.Contains(t, body, "<svg class=\"chart\"", "the chart of the last hour")
		require.Contains(t, body, "<polyline", "drawn from the samples")
		require.Regexp(t, `<td>FLOP</td><td>SUCCEEDED</td><td class="num">1</td>`, body, "outcomes of the last hour by kind and status")
		require.Contains(t, body, `<td>UNKNOWN</td><td>DEAD</td>`, "a kind never bound is UNKNOWN, as in the metrics")
		require.NotContains(t, body, "(none)")
		require.Contains(t, body, "no maintenance job has run yet")
		require.Contains(t, body, "no open requests")
	})

	t.Run("DeadLetters", func(t *testing.T) {
		body := page(t, base+"/console/dead-letters?class=EXHAUSTED", http.StatusOK)
		require.Contains(t, body, `<td>EXHAUSTED</td><td>UNKNOWN</td>`, "the kind column is filled: it never decoded")
		require.Contains(t, body, `href="/console/messages/`+strconv.FormatInt(h.unsup, 10)+`"`)
		require.Contains(t, body, "EXHAUSTED (1)")
		require.Contains(t, body, `hx-post="/admin/replay"`, "replay behind the admin API")
		page(t, base+"/console/dead-letters?class=NOPE", http.StatusBadRequest)
		body = page(t, base+"/console/dead-letters?class=MALFORMED", http.StatusOK)
		require.Contains(t, body, "no dead letters")
	})

	t.Run("Message", func(t *testing.T) {
		body := page(t, base+"/console/messages/"+strconv.FormatInt(h.unsup, 10), http.StatusOK)
		require.Contains(t, body, "Message "+strconv.FormatInt(h.unsup, 10))
		require.Contains(t, body, `<span class="tag dead">DEAD</span>`)
		require.Contains(t, body, "EXHAUSTED")
		require.Contains(t, body, `hx-get="/admin/messages/`+strconv.FormatInt(h.unsup, 10)+`/raw"`, "raw XML on demand")
		require.Contains(t, body, "Replay this message")
		page(t, base+"/console/messages/999999", http.StatusNotFound)
		page(t, base+"/console/messages/x", http.StatusBadRequest)
	})

	t.Run("RawXMLNeedsTheTokenAndIsEscaped", func(t *testing.T) {
		url := base + "/admin/messages/" + strconv.FormatInt(h.unsup, 10) + "/raw"
		res, _ := hx(t, http.MethodGet, url, "", "")
		require.Equal(t, http.StatusUnauthorized, res.StatusCode)
		res, body := hx(t, http.MethodGet, url, adminToken, "")
		require.Equal(t, http.StatusOK, res.StatusCode, body)
		require.Contains(t, body, `<pre class="raw" id="raw-xml">`)
		require.Contains(t, body, "&lt;XXXX&gt;1&lt;/XXXX&gt;", "the XML shown as text")
		res, raw := call(t, http.MethodGet, url, bearer(adminToken), nil)
		require.Equal(t, "application/xml", res.Header.Get("Content-Type"))
		require.Contains(t, string(raw), "<XXXX>1</XXXX>", "without htmx: the raw XML itself")
	})

	t.Run("ReplayDryRunThenApply", func(t *testing.T) {
		res, body := hx(t, http.MethodPost, base+"/admin/replay", "", `{"ids":[`+strconv.FormatInt(h.unsup, 10)+`],"dry_run":true}`)
		require.Equal(t, http.StatusUnauthorized, res.StatusCode, "no write without the token: %s", body)
		res, body = hx(t, http.MethodPost, base+"/admin/replay", adminToken, `{"ids":[`+strconv.FormatInt(h.unsup, 10)+`],"dry_run":true}`)
		require.Equal(t, http.StatusOK, res.StatusCode, body)
		require.Equal(t, "text/html; charset=utf-8", res.Header.Get("Content-Type"))
		require.Contains(t, body, "Dry run: 1 message(s) would move back to PENDING")
		require.Contains(t, body, "flight-overwrite", "the overwrite warning first")
		require.Contains(t, body, `<input type="hidden" name="dry_run" value="false">`, "apply offered after the preview")
		m, err := e.st.Message(t.Context(), h.unsup)
		require.NoError(t, err)
		require.Equal(t, vocab.StatusDead, m.Status, "a dry run changes nothing")
		// The JSON API answers the same handler's JSON without HX-Request.
		res, jb := postReplay(t, base, `{"ids":[`+strconv.FormatInt(h.unsup, 10)+`],"dry_run":true}`)
		require.Equal(t, http.StatusOK, res.StatusCode)
		var p preview
		require.NoError(t, json.Unmarshal(jb, &p))
		require.Equal(t, 1, p.Total)
	})

	t.Run("Flights", func(t *testing.T) {
		body := page(t, base+"/console/flights", http.StatusOK)
		require.Contains(t, body, `name="q"`)
		// It opens on today (the injected clock's date in the airport zone),
		// SODT in airport time, not the raw ddMONyyHHmm.
		require.Contains(t, body, `id="flight-day" value="2026-12-02"`)
		require.Contains(t, body, "1 flight(s) of 2026-12-02")
		require.Contains(t, body, `<td><time datetime="2026-12-02T02:30:00Z" data-utc="2026-12-02 02:30:00Z">2026-12-02 10:30:00 +08:00</time></td>`)
		require.NotContains(t, body, "02DEC261030")
		res, _ := call(t, http.MethodGet, base+"/console/flights?q=7", nil, nil)
		require.Equal(t, http.StatusOK, res.StatusCode)
		require.Equal(t, "/console/flights/7", res.Request.URL.Path, "a FLID opens the flight")
		body = page(t, base+"/console/flights?q=ca7&day=2026-12-02", http.StatusOK)
		require.Contains(t, body, `<a href="/console/flights/7">7</a></td><td>CA7</td>`, "by flight number within the day")
		body = page(t, base+"/console/flights?q=MU1&day=2026-12-02", http.StatusOK)
		require.Contains(t, body, "0 flight(s)")
		body = page(t, base+"/console/flights?day=2026-12-02", http.StatusOK)
		require.Contains(t, body, "1 flight(s) of 2026-12-02")
		page(t, base+"/console/flights?q=CA7", http.StatusBadRequest)
		page(t, base+"/console/flights?day=2026-13-02", http.StatusBadRequest)
	})

	t.Run("Flight", func(t *testing.T) {
		body := page(t, base+"/console/flights/7", http.StatusOK)
		require.Contains(t, body, "Flight 7 CA7")
		require.Contains(t, body, `<td>SODT<div class="muted meaning">scheduled date/time (its local date is the operation day)</div></td><td class="mono">02DEC261030</td><td class="mono">2026-12-02 10:30:00 &#43;08:00</td><td class="mono">2026-12-02 08:30:00 &#43;08:00</td>`, "raw, parsed and when it was set (airport time)")
		require.Regexp(t, `(?s)<h3>GTDT \(3\)[^<]*<span class="muted meaning">gate allocations</span> <span class="muted">set 2026-12-02 08:30:00 &#43;08:00</span></h3>.*<td>1</td><td>1</td>.*<td>2</td><td>4</td>.*<td>3</td><td>2</td>`, body, "the detail list in order, and when it was set")
		require.Contains(t, body, "History of versions (3)")
		require.Contains(t, body, `>written at</th>`, "the history's time is when msgx wrote the version")
		// Every SIS code with a glossary entry is labelled with it (one
		// glossary: sis.Glossary, also docs/decode.md's).
		require.Contains(t, body, `<td>MVIN<div class="muted meaning">movement: A arrival, D departure</div></td>`)
		require.Contains(t, body, `<td>STND<div class="muted meaning">stand</div></td>`)
		require.Contains(t, body, `<h3>GTDT (3) <span class="muted meaning">gate allocations</span> <span class="muted">set`)
		for _, m := range regexp.MustCompile(`<tr><td>([A-Z]{4})(<div|</td>)`).FindAllStringSubmatch(body, -1) {
			if sis.Meaning(m[1]) != "" {
				require.Equal(t, "<div", m[2], "%s has a meaning and shows it", m[1])
			}
		}
		require.Contains(t, body, `<b>STND</b> <s>201</s> → 202`, "what changed, newest first")
		require.Contains(t, body, `<a href="/console/messages/`+strconv.FormatInt(h.ok, 10)+`">`, "by which message")
		page(t, base+"/console/flights/404", http.StatusNotFound)
	})

	t.Run("Outbox", func(t *testing.T) {
		body := page(t, base+"/console/outbox", http.StatusOK)
		require.Contains(t, body, "KAFKA:msg")
		require.Contains(t, body, "no dead events")
		page(t, base+"/console/outbox?target=nope", http.StatusBadRequest)
	})

	t.Run("Requests", func(t *testing.T) {
		body := page(t, base+"/console/requests", http.StatusOK)
		require.Contains(t, body, "no open requests")
		require.Contains(t, body, "no maintenance job has run yet")
		require.Contains(t, body, "requests are not configured on this instance")

		// The jobs' last runs, from the status report.
		at := time.Date(2026, 12, 2, 3, 31, 0, 0, time.UTC)
		require.NoError(t, e.st.SaveJobRun(t.Context(), store.JobRun{Job: "history", StartedAt: at, Duration: 1500 * time.Millisecond,
			Swept: store.Swept{Rows: 12}}))
		require.NoError(t, e.st.SaveJobRun(t.Context(), store.JobRun{Job: "archive", StartedAt: at, Duration: time.Second, Error: "statement timeout"}))
		body = page(t, base+"/console/requests", http.StatusOK)
		require.Contains(t, body, `<td>history</td><td><time datetime="2026-12-02T03:31:00Z" data-utc="2026-12-02 03:31:00Z">2026-12-02 11:31:00 +08:00</time></td><td class="num">12</td><td class="num">1.5 s</td><td>ok</td>`)
		require.Contains(t, body, `<td>archive</td>`)
		require.Contains(t, body, "FAILED: statement timeout")
	})

	t.Run("Static", func(t *testing.T) {
		for _, f := range []string{"console.css", "console.js", "htmx-2.0.4.min.js"} {
			res, b := call(t, http.MethodGet, base+"/console/static/"+f, nil, nil)
			require.Equal(t, http.StatusOK, res.StatusCode, f)
			require.NotEmpty(t, b, f)
		}
	})

	t.Run("DeletedFlightIsMarked", func(t *testing.T) {
		sendID(t, base, sisMsg("FDEL", "NONE", 5, "<FLOP><FLID>7</FLID></FLOP>"))
		e.drain(t)
		body := page(t, base+"/console/flights/7", http.StatusOK)
		require.Contains(t, body, `<span class="tag bad">deleted</span>`)
		require.Contains(t, body, "TOMBSTONE")
	})
}

// The RQFD of the requests page: the form posts to /admin/requests, which
// answers the console a fragment; the page then lists the open request.
func TestConsoleRequests(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	base := e.serve(t, e.withRequests(false))
	body := page(t, base+"/console/requests", http.StatusOK)
	require.Contains(t, body, `hx-post="/admin/requests"`)
	require.Contains(t, body, `name="day"`)

	const rqfd = `{"kind":"RQFD","from":"2026-12-04T00:00","to":"2026-12-04T23:59"}`
	res, frag := hx(t, http.MethodPost, base+"/admin/requests", "", rqfd)
	require.Equal(t, http.StatusUnauthorized, res.StatusCode, "no write without the token: %s", frag)
	res, frag = hx(t, http.MethodPost, base+"/admin/requests", adminToken, rqfd)
	require.Equal(t, http.StatusCreated, res.StatusCode, frag)
	require.Equal(t, "text/html; charset=utf-8", res.Header.Get("Content-Type"))
	require.Regexp(t, `<h3>Request \d+ RQFD: SENT</h3>`, frag)

	body = page(t, base+"/console/requests", http.StatusOK)
	require.Regexp(t, `<td>RQFD</td><td>SENT</td><td>0s</td>`, body, "the open request with its age")
	require.NotContains(t, body, "no open requests")
}

// The JSON twins of the console's flight history and dead events.
func TestFlightHistoryAndDeadEventsJSON(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	base := e.serve(t, withAdmin, func(d *api.Deps) { d.Decode.Location = airport })
	h := makeHistory(t, e, base)
	var hist struct {
		FLID     int64 `json:"flid"`
		Current  bool  `json:"current"`
		Versions []struct {
			MsgID        int64  `json:"msg_id"`
			StateVersion int64  `json:"state_version"`
			EventType    string `json:"event_type"`
			Changes      []struct {
				Field, From, To string
			} `json:"changes"`
		} `json:"versions"`
	}
	getJSON(t, base+"/flights/7/history", &hist)
	require.True(t, hist.Current)
	require.Len(t, hist.Versions, 3)
	require.Equal(t, []int64{h.dnld, h.later, h.ok}, []int64{hist.Versions[0].MsgID, hist.Versions[1].MsgID, hist.Versions[2].MsgID})
	require.Equal(t, int64(3), hist.Versions[2].StateVersion)
	last := hist.Versions[2].Changes
	require.Len(t, last, 1, "%+v", last)
	require.Equal(t, "STND", last[0].Field)
	require.Equal(t, "201", last[0].From)
	require.Equal(t, "202", last[0].To)
	require.NotEmpty(t, hist.Versions[0].Changes, "the first version sets every element")

	res, body := call(t, http.MethodGet, base+"/flights/404/history", nil, nil)
	requireError(t, res, body, http.StatusNotFound)

	var dead struct {
		Target     string            `json:"target"`
		DeadEvents []json.RawMessage `json:"dead_events"`
		Count      int               `json:"count"`
	}
	getJSON(t, base+"/outbox/dead-events", &dead)
	require.Equal(t, vocab.TargetMsg, dead.Target)
	require.Empty(t, dead.DeadEvents)
	res, body = call(t, http.MethodGet, base+"/outbox/dead-events?target=x", nil, nil)
	requireError(t, res, body, http.StatusBadRequest)
}

// A late row (rule 17) is marked on its message page and counted, with a
// link, on the overview; GET /messages/{id} carries the mark.
func TestConsoleShowsLateRows(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	base := e.serve(t, func(d *api.Deps) { d.Metrics = metrics.New(nil, e.clk) })
	_, err := e.st.Enqueue(t.Context(), []int64{20}, e.clk.Now())
	require.NoError(t, err)
	require.NoError(t, e.st.FinishMessages(t.Context(), []vocab.Finish{{MsgID: 20, Status: vocab.StatusSucceeded, Now: e.clk.Now()}}))
	_, err = e.st.Enqueue(t.Context(), []int64{19}, e.clk.Now())
	require.NoError(t, err)

	body := page(t, base+"/console/messages/19", http.StatusOK)
	require.Contains(t, body, ">late:20</span>")
	require.NotContains(t, page(t, base+"/console/messages/20", http.StatusOK), "late:")
	body = page(t, base+"/console/", http.StatusOK)
	require.Contains(t, body, "0 gaps given up, 1 late rows")
	require.Contains(t, body, `<a href="/console/messages/19">19</a> late:20`)
	m := message(t, base, 19)
	require.Equal(t, "late:20", m["late"])
}

// The overview shows each dependency's last attempt (rule 20): a mailbox
// the poller cannot read is down there, queue empty or not.
func TestConsoleShowsDependencies(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	m := metrics.New(nil, e.clk)
	base := e.serve(t, func(d *api.Deps) { d.Metrics = m })
	require.Contains(t, page(t, base+"/console/", http.StatusOK), "not attempted yet")
	m.DependencyUp("mailbox", false)
	m.DependencyUp("postgres", true)
	body := page(t, base+"/console/", http.StatusOK)
	require.Contains(t, body, `<span class="tag bad">mailbox down</span>`)
	require.Contains(t, body, `<span class="tag good">postgres up</span>`)
}

// A reused identity (rule 2) is counted, with a link, on the overview.
func TestConsoleShowsIdentityConflicts(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	base := e.serve(t, func(d *api.Deps) { d.Metrics = metrics.New(nil, e.clk) })
	require.Contains(t, page(t, base+"/console/", http.StatusOK), "0 identity conflicts")
	_, err := e.st.Enqueue(t.Context(), []int64{30, 31}, e.clk.Now())
	require.NoError(t, err)
	holder := int64(30)
	bind := &vocab.Binding{IdentityKey: "AODB|FLOP|STND|2002"}
	require.NoError(t, e.st.FinishMessages(t.Context(), []vocab.Finish{{MsgID: 30, Status: vocab.StatusSucceeded, Bind: bind, Now: e.clk.Now()}}))
	require.NoError(t, e.st.FinishMessages(t.Context(), []vocab.Finish{{MsgID: 31, Status: vocab.StatusSkipped, Bind: bind,
		Reason: "duplicate-of:30:content-differs", DuplicateOf: &holder, Now: e.clk.Now()}}))

	body := page(t, base+"/console/", http.StatusOK)
	require.Contains(t, body, `1 identity conflicts</span> · <a href="/console/messages/31">31</a> duplicate-of:30:content-differs`)
}

// Without an admin token the console says that admin actions are disabled
// instead of inviting a token that cannot work.
func TestConsoleWithoutAdminToken(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	base := e.serve(t, func(d *api.Deps) { d.Decode.Location = airport })
	for _, p := range []string{"/console/", "/console/dead-letters", "/console/requests"} {
		body := page(t, base+p, http.StatusOK)
		require.Contains(t, body, "admin actions are disabled on this server (no admin.token)", p)
		require.NotContains(t, body, "needs the admin token", p)
		require.NotContains(t, body, `id="token-form"`, p)
	}
	withToken := e.serve(t, withAdmin, func(d *api.Deps) { d.Decode.Location = airport })
	body := page(t, withToken+"/console/dead-letters", http.StatusOK)
	require.Contains(t, body, "needs the admin token (top right)")
	require.NotContains(t, body, "admin actions are disabled")
}
