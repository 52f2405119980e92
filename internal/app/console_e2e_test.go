package app

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/testdb"
)

// chromiumPath finds a headless-capable Chromium. Missing, the console's
// end-to-end test skips with one line — except in CI (CI=true), where
// .ci/run installs it, and a missing browser is a failure.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("console e2e: no chromium on PATH in CI (.ci/run installs it: apt-get install -y chromium)")
	}
	t.Skip("console e2e skipped: no chromium on PATH (apt-get install -y chromium to run it; CI=true makes this a failure)")
	return ""
}

// The console in a real headless Chromium against a real `msgx serve` with
// the sample day and one dead letter: find a flight by its number,
// open the dead letter, show its raw XML and preview its replay with the
// admin token entered in the page, and send an RQFD for a day. MSGX_CONSOLE_SCREENSHOT=<path> also
// writes the overview's screenshot there (docs/console.png).
func TestConsoleInChromium(t *testing.T) {
	browser := chromiumPath(t)
	t.Parallel()
	pg := testdb.Postgres(t)
	_, dsn := testdb.Mailbox(t)
	addr := freeAddr(t)
	const token = "console-e2e-admin-token-0123456789"
	env := serviceEnv("MSGX_PG_URL="+pg.URL, "MSGX_MAILBOX_DSN="+dsn, "MSGX_HTTP_ADDR="+addr,
		"MSGX_AIRPORT_TZ=Asia/Shanghai", "MSGX_POLL_INTERVAL=50ms", "MSGX_ADMIN_TOKEN="+token,
		"MSGX_HTTP_SEND_TOKEN="+testSendToken, "MSGX_MAX_ATTEMPTS=1", "MSGX_BACKOFF_BASE=10ms")
	p := startProc(t, env, addr)

	// The day, with a FLOP for CA1501 this build cannot take (an element it
	// does not know) after its first change: DEAD(EXHAUSTED) at once
	// (one attempt), and the day's next message for CA1501 lands after it.
	day := sampleDay(t)
	var bad, last int64
	for i, x := range day {
		last = post(t, p.base, x)
		if i == 1 {
			bad = post(t, p.base, `<?xml version="1.0" encoding="UTF-8"?><MSG><META><SNDR>AODB</SNDR><SEQN>5099</SEQN>`+
				`<DTTM>20261203060100</DTTM><TYPE>FLOP</TYPE><STYP>STND</STYP></META>`+
				`<FLOP><FLID>30001</FLID><STND>150</STND><XXXX>1</XXXX></FLOP></MSG>`)
		}
	}
	eventually(t, 30*time.Second, "the day processed, the bad FLOP dead", func() bool {
		_, a := getMessage(t, p.base, last)
		_, b := getMessage(t, p.base, bad)
		return a.Status != "" && a.Status != "PENDING" && b.Status == "DEAD"
	})

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(browser), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.WindowSize(1366, 768))
	actx, cancelAlloc := chromedp.NewExecAllocator(t.Context(), opts...)
	defer cancelAlloc()
	ctx, cancelCtx := chromedp.NewContext(actx)
	defer cancelCtx()
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()

	// Find a flight by its number within the day, open it.
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(p.base+"/console/flights"),
		chromedp.WaitVisible(chromedp.ID("flight-q")),
		chromedp.SendKeys(chromedp.ID("flight-q"), "CA1501"),
		chromedp.SetValue(chromedp.ID("flight-day"), "2026-12-03"),
		chromedp.Click(chromedp.ID("flight-search")),
		chromedp.WaitVisible(chromedp.CSS(`#flights a[href="/console/flights/30001"]`)),
		chromedp.Click(chromedp.CSS(`#flights a[href="/console/flights/30001"]`)),
		chromedp.WaitVisible(chromedp.ID("history")),
	), "find a flight")
	flightText := text(t, ctx, chromedp.CSS("main"))
	require.Contains(t, flightText, "Flight 30001 CA1501")
	require.Contains(t, flightText, "History of versions")
	// Times in airport local time with the zone (CA1501's SODT 03DEC260705
	// is 07:05 there, the previous evening in UTC); the UTC box shows UTC.
	require.Regexp(t, `03DEC260705\s+2026-12-03 07:05:00 \+08:00`, flightText, "SODT raw and parsed, airport time")
	require.Regexp(t, `updated 2026-12-0\d \d\d:\d\d:\d\d \+08:00`, flightText)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("utc-toggle"))), "tick UTC")
	require.Regexp(t, `updated 2026-12-0\d \d\d:\d\d:\d\dZ`, text(t, ctx, chromedp.CSS("main")))
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("utc-toggle"))), "untick UTC")
	require.Regexp(t, `updated 2026-12-0\d \d\d:\d\d:\d\d \+08:00`, text(t, ctx, chromedp.CSS("main")))

	// The admin token, entered once and kept by the tab.
	require.NoError(t, chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.ID("token-input"), token),
		chromedp.Click(chromedp.ID("token-keep")),
	), "enter the token")
	require.Contains(t, text(t, ctx, chromedp.ID("token-state")), "kept for this session")

	// Open the dead letter, its raw XML, and preview its replay.
	link := chromedp.CSS(fmt.Sprintf(`#dead-letters a[href="/console/messages/%d"]`, bad))
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(p.base+"/console/dead-letters"),
		chromedp.WaitVisible(link),
		chromedp.Click(link),
		chromedp.WaitVisible(chromedp.ID("message")),
		chromedp.Click(chromedp.ID("raw-button")),
		chromedp.WaitVisible(chromedp.ID("raw-xml")),
	), "open a dead letter and its raw XML")
	require.Contains(t, text(t, ctx, chromedp.ID("raw-xml")), "<XXXX>1</XXXX>", "the raw XML as text")
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Click(chromedp.ID("replay-preview-button")),
		chromedp.WaitVisible(chromedp.ID("replay-preview")),
	), "preview the replay")
	preview := text(t, ctx, chromedp.ID("replay-preview"))
	require.Contains(t, preview, "Dry run: 1 message(s) would move back to PENDING")
	require.Contains(t, preview, "flight-overwrite of flight 30001", "the overwrite warning before apply")
	_, m := getMessage(t, p.base, bad)
	require.Equal(t, "DEAD", m.Status, "a dry run changes nothing")

	// An RQFD for a day, with the same token.
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(p.base+"/console/requests"),
		chromedp.SetValue(chromedp.ID("rqfd-day"), "2026-12-04"),
		chromedp.Click(chromedp.ID("rqfd-send")),
		chromedp.WaitVisible(chromedp.ID("request-sent")),
	), "send an RQFD")
	require.Regexp(t, `Request \d+ RQFD: SENT`, text(t, ctx, chromedp.ID("request-sent")))
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(p.base+"/console/dead-letters")))

	// A second instance without an admin token (a standby on the same
	// database) says its admin actions are disabled instead of asking for a
	// token that cannot work.
	addr2 := freeAddr(t)
	env2 := serviceEnv("MSGX_PG_URL="+pg.URL, "MSGX_MAILBOX_DSN="+dsn, "MSGX_HTTP_ADDR="+addr2,
		"MSGX_AIRPORT_TZ=Asia/Shanghai", "MSGX_HTTP_SEND_TOKEN="+testSendToken)
	p2 := startProc(t, env2, addr2)
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(p2.base+"/console/dead-letters"),
		chromedp.WaitVisible(chromedp.ID("admin-off")),
	), "the console of an instance without admin token")
	require.Contains(t, text(t, ctx, chromedp.ID("admin-off")), "admin actions are disabled on this server (no admin.token)")
	require.NotContains(t, text(t, ctx, chromedp.CSS("main")), "needs the admin token")
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(p.base+"/console/dead-letters")))

	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err, "screenshot")
	requirePNG(t, shot)

	if path := os.Getenv("MSGX_CONSOLE_SCREENSHOT"); path != "" {
		require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(p.base+"/console/"), chromedp.WaitVisible(chromedp.ID("queue"))))
		overview, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		require.NoError(t, err)
		requirePNG(t, overview)
		require.NoError(t, os.WriteFile(path, overview, 0o644))
	}
}

// text is the text of the element sel selects.
func text[S chromedp.Selectable](t *testing.T, ctx context.Context, sel S) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(sel))
	require.NoError(t, err)
	return s
}

// requirePNG checks a screenshot is a PNG of the window's size with more
// than one colour in it (a blank page would be one).
func requirePNG(t *testing.T, b []byte) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	require.NoError(t, err)
	bounds := img.Bounds()
	require.GreaterOrEqual(t, bounds.Dx(), 1000, "screenshot width")
	colours := map[[4]uint32]bool{}
	for y := bounds.Min.Y; y < bounds.Max.Y && len(colours) < 10; y += 7 {
		for x := bounds.Min.X; x < bounds.Max.X; x += 7 {
			r, g, bl, a := img.At(x, y).RGBA()
			colours[[4]uint32{r, g, bl, a}] = true
		}
	}
	require.Greater(t, len(colours), 3, "the screenshot is not blank")
}
