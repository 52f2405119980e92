package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/msgx-aodb/msgx/internal/vocab"
	"github.com/stretchr/testify/require"
)

// requestIDs parses "REQUEST_ID<TAB>COUTMSGS_ID".
func requestIDs(t *testing.T, out string) (int64, int64) {
	t.Helper()
	a, b, ok := strings.Cut(strings.TrimSpace(out), "\t")
	require.True(t, ok, out)
	id, err := strconv.ParseInt(a, 10, 64)
	require.NoError(t, err)
	oid, err := strconv.ParseInt(b, 10, 64)
	require.NoError(t, err)
	return id, oid
}

func TestRequestCommands(t *testing.T) {
	t.Parallel()
	e := newOpsEnv(t)

	code, out, stderr := runMsgx(t, "request", "flights", "--config", e.config, "--from", "2026-12-04T00:00", "--to", "2026-12-04T23:59")
	require.Equal(t, exitOK, code, stderr)
	id, oid := requestIDs(t, out)
	req, err := e.st.Request(t.Context(), id)
	require.NoError(t, err)
	require.Equal(t, vocab.RequestSent, req.Status)
	require.Equal(t, oid, *req.OutboundID)
	require.True(t, req.RangeBegin.Equal(mustLocal(t, "2026-12-04T00:00")), "airport local time: %s", req.RangeBegin)
	require.Contains(t, stderr, "sent as coutmsgs "+strconv.FormatInt(oid, 10))
	stampRe := `\d{4}-\d\d-\d\d \d\d:\d\d:\d\d`
	require.Regexp(t, `expires `+stampRe+` \+08:00$`, strings.TrimSpace(stderr), "airport time with its offset")

	code, out, stderr = runMsgx(t, "request", "ref", "--config", e.config, "airl")
	require.Equal(t, exitOK, code, stderr)
	refID, _ := requestIDs(t, out)

	code, out, stderr = runMsgx(t, "request", "list", "--config", e.config)
	require.Equal(t, exitOK, code, stderr)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 3, out)
	require.Contains(t, lines[0], "COUTMSGS")
	require.Contains(t, lines[1], "RQRD:AIRL")
	require.Contains(t, lines[2], "2026-12-04T00:00..2026-12-04T23:59 +08:00", "the range in airport time, with its offset")
	require.Contains(t, lines[2], "SENT")
	require.Contains(t, lines[2], "operator", "who registered it")
	// Times in airport local time with the zone; --utc in UTC.
	require.Regexp(t, stampRe+` \+08:00`, lines[2])
	code, out, stderr = runMsgx(t, "request", "list", "--utc", "--config", e.config)
	require.Equal(t, exitOK, code, stderr)
	require.Regexp(t, stampRe+`Z`, out)
	require.NotRegexp(t, stampRe+` \+08:00`, out)

	code, out, stderr = runMsgx(t, "request", "list", "--json", "--config", e.config)
	require.Equal(t, exitOK, code, stderr)
	var reqs []vocab.Request
	require.NoError(t, json.Unmarshal([]byte(out), &reqs))
	require.Equal(t, []int64{refID, id}, []int64{reqs[0].ID, reqs[1].ID})
	require.Contains(t, out, `"from": "2026-12-03T16:00:00Z"`, "JSON times are UTC (docs/api.md, Times)")

	code, out, stderr = runMsgx(t, "status", "--config", e.config)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, out, "RQFD SENT, age")
	require.Contains(t, out, "RQRD:AIRL SENT, age")
	require.Regexp(t, `msgx status at `+stampRe+` \+08:00\n`, out)
	require.Regexp(t, `expires `+stampRe+` \+08:00`, out)
	code, out, stderr = runMsgx(t, "status", "--utc", "--config", e.config)
	require.Equal(t, exitOK, code, stderr)
	require.Regexp(t, `msgx status at `+stampRe+`Z\n`, out)
}

func TestRequestBadArguments(t *testing.T) {
	t.Parallel()
	e := newOpsEnv(t)
	for _, args := range [][]string{
		{"request"},
		{"request", "nope"},
		{"request", "flights", "--from", "2026-12-04", "--to", "2026-12-04T23:59"},
		{"request", "flights", "--from", "2026-12-05T00:00", "--to", "2026-12-04T23:59"},
		{"request", "flights", "--to", "2026-12-04T23:59"},
		{"request", "flights", "--from", "2026-12-04T00:00", "--to", "2026-12-11T00:00"}, // 8 days: over request.max-days 7
		{"request", "ref"},
		{"request", "ref", "NOPE"},
		{"request", "ref", "AIRL", "GLST"},
		{"request", "list", "--limit", "0"},
	} {
		code, _, stderr := runMsgx(t, append(args, "--config", e.config)...)
		require.Equal(t, exitUsage, code, "%v: %s", args, stderr)
	}
	reqs, err := e.st.Requests(t.Context(), 1<<62, 10)
	require.NoError(t, err)
	require.Empty(t, reqs, "nothing registered")
}

// A flights request spans at most request.max-days operation days (both
// ends counted): a longer one exits 2 naming the setting, before anything
// is registered or sent.
func TestRequestFlightsMaxDays(t *testing.T) {
	t.Parallel()
	e := newOpsEnv(t, "request:\n  max-days: 2\n")
	code, _, stderr := runMsgx(t, "request", "flights", "--config", e.config, "--from", "2026-12-04T00:00", "--to", "2026-12-06T00:00")
	require.Equal(t, exitUsage, code, stderr)
	require.Equal(t, "msgx request flights: --from/--to: the range spans 3 operation days (2026-12-04 to 2026-12-06), more than request.max-days 2; request it in parts\n", stderr)
	reqs, err := e.st.Requests(t.Context(), 1<<62, 10)
	require.NoError(t, err)
	require.Empty(t, reqs, "nothing registered")

	code, _, stderr = runMsgx(t, "request", "flights", "--config", e.config, "--from", "2026-12-04T00:00", "--to", "2026-12-05T23:59")
	require.Equal(t, exitOK, code, stderr)
}

func TestRequestFailures(t *testing.T) {
	t.Parallel()
	shadow := newOpsEnv(t, "shadow: true\n")
	code, _, stderr := runMsgx(t, "request", "ref", "AIRL", "--config", shadow.config)
	require.Equal(t, exitFailure, code)
	requireOneLine(t, "request ref", stderr)
	require.Contains(t, stderr, "shadow mode never writes")

	down := newOpsEnv(t, "")
	cfg := writeConfig(t, "postgres:\n  url: \""+down.pgURL+"\"\nmailbox:\n  dsn: \"root@tcp(127.0.0.1:1)/nope\"\n")
	code, _, stderr = runMsgx(t, "request", "ref", "AIRL", "--config", cfg)
	require.Equal(t, exitFailure, code)
	requireOneLine(t, "request ref", stderr)
}

func mustLocal(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.ParseInLocation("2006-01-02T15:04", s, opsZone)
	require.NoError(t, err)
	return v
}
