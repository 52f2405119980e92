package main

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/app"
	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/store"
)

func TestMaintenanceRunHistory(t *testing.T) {
	t.Parallel()
	// Flights of 2 Dec 2026, quiet for an hour of the wall clock.
	e := newOpsEnv(t, "history:\n  retention: 1h\n")
	h := newHistory(e)
	h.send(t, schdDNLD(101, 102), false)
	_, err := e.st.Flights(t.Context(), []int64{101})
	require.NoError(t, err)

	code, out, stderr := runMsgx(t, "maintenance", "run", "history", "--dry-run", "--config", e.config)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, out, "history: dry run, would do: 2 flights, operation day from 2026-12-02 to 2026-12-02")
	states, err := e.st.Flights(t.Context(), []int64{101, 102})
	require.NoError(t, err)
	require.Len(t, states, 2, "a dry run changes nothing")
	code, out, _ = runMsgx(t, "status", "--config", e.config)
	require.Equal(t, exitOK, code)
	require.Contains(t, out, "none run yet", "a dry run is not recorded")

	code, out, stderr = runMsgx(t, "maintenance", "--config", e.config, "run", "history")
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, out, "history: done: 2 flights")
	states, err = e.st.Flights(t.Context(), []int64{101, 102})
	require.NoError(t, err)
	require.Empty(t, states)

	code, out, stderr = runMsgx(t, "status", "--config", e.config)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, out, "maintenance")
	require.Regexp(t, `history +last run \S+ \S+ \S+, took \S+, 2 rows`, out)
}

func TestMaintenanceRunUnknownJob(t *testing.T) {
	t.Parallel()
	e := newOpsEnv(t)
	code, _, stderr := runMsgx(t, "maintenance", "run", "reqs", "--config", e.config)
	require.Equal(t, exitUsage, code)
	requireOneLine(t, "maintenance", stderr)
	require.Contains(t, stderr, `unknown maintenance job "reqs" (available: archive, history, outbox, requests, snaplog)`)

	code, _, stderr = runMsgx(t, "maintenance", "purge", "--config", e.config)
	require.Equal(t, exitUsage, code)
	requireOneLine(t, "maintenance", stderr)
}

func TestMaintenanceHistoryDisabled(t *testing.T) {
	t.Parallel()
	e := newOpsEnv(t, "history:\n  retention: 1h\n  enabled: false\n")
	newHistory(e).send(t, schdDNLD(101), false)
	code, out, stderr := runMsgx(t, "maintenance", "run", "history", "--config", e.config)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, out, "history: done: 0 flights (history.enabled=false: nothing moved or deleted)")
	states, err := e.st.Flights(t.Context(), []int64{101})
	require.NoError(t, err)
	require.Len(t, states, 1)
}

// The request expiry is a maintenance job like the others: a request past
// its deadline is EXPIRED by it, and its dry run counts what is due.
func TestMaintenanceRunRequests(t *testing.T) {
	t.Parallel()
	e := newOpsEnv(t)
	past := time.Now().Add(-time.Hour)
	req, err := e.st.InsertRequest(t.Context(), store.NewRequest{Type: "RQRD", Key: "RQRD:AIRL", List: "AIRL", Sender: "MSGX", Seqn: 1,
		Now: past, ExpiresAt: past.Add(10 * time.Minute)})
	require.NoError(t, err)
	require.NoError(t, e.st.MarkRequestSent(t.Context(), store.SentRequest{ID: req.ID, OutboundID: 1, SentAt: past, ExpiresAt: past.Add(10 * time.Minute)}))

	code, out, stderr := runMsgx(t, "maintenance", "run", "requests", "--dry-run", "--config", e.config)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, out, "requests: dry run, would do: 1 requests")
	code, out, stderr = runMsgx(t, "maintenance", "run", "requests", "--config", e.config)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, out, "requests: done: 1 requests")
	open, err := e.st.OpenRequests(t.Context())
	require.NoError(t, err)
	require.Empty(t, open, "expired")
	require.Empty(t, stderr, "one line on stdout, no log lines")
}

// msgx help and msgx maintenance --help list every job of the registry (a
// new job appears without editing a list), and the command list is aligned.
func TestHelpListsEveryJob(t *testing.T) {
	t.Parallel()
	code, help, _ := runMsgx(t, "help")
	require.Equal(t, exitOK, code)
	code, usage, _ := runMsgx(t, "maintenance", "--help")
	require.Equal(t, exitOK, code)
	names := app.MaintenanceJobs(config.Defaults(), nil, clock.Real{}, nil).Names()
	require.Contains(t, names, "requests")
	for _, n := range names {
		require.Contains(t, help, n)
		require.Regexp(t, `(?m)^  `+n+`\b`, usage)
	}
	col := -1
	for _, l := range strings.Split(help, "\n") {
		if m := regexp.MustCompile(`^  ([a-z]+)( +)\S`).FindStringSubmatch(l); m != nil {
			if col < 0 {
				col = len(m[1]) + len(m[2])
			}
			require.Equal(t, col, len(m[1])+len(m[2]), "aligned: %q", l)
		}
	}
}
