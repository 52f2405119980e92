package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
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

// The snaplog job also deletes the INGRESS_GAP rows given up more than
// snaplog.retention ago (spec §8), and its line counts them, dry or not.
func TestMaintenanceRunSnapLogSweepsIngressGaps(t *testing.T) {
	t.Parallel()
	e := newOpsEnv(t)
	old := time.Date(2020, 3, 1, 8, 0, 0, 0, time.UTC) // far older than 90 days on any wall clock
	require.NoError(t, e.st.RecordGap(t.Context(), store.Gap{Source: "cminmsgs", From: 5, To: 6, SeenAt: old.Add(-time.Minute), GivenUpAt: old}))
	recent := time.Now().UTC().Truncate(time.Second)
	require.NoError(t, e.st.RecordGap(t.Context(), store.Gap{Source: "cminmsgs", From: 9, To: 9, SeenAt: recent, GivenUpAt: recent}))

	code, out, stderr := runMsgx(t, "maintenance", "run", "snaplog", "--dry-run", "--config", e.config)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, out, "snaplog: dry run, would do: 0 snapshot log rows; 1 ingress gaps, give-up time from 2020-03-01T08:00:00Z to 2020-03-01T08:00:00Z")
	gaps, err := e.st.IngressIrregular(t.Context(), time.Time{}, 10)
	require.NoError(t, err)
	require.Equal(t, int64(2), gaps.Gaps, "a dry run deletes nothing")

	code, out, stderr = runMsgx(t, "maintenance", "run", "snaplog", "--config", e.config)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, out, "snaplog: done: 0 snapshot log rows; 1 ingress gaps")
	gaps, err = e.st.IngressIrregular(t.Context(), time.Time{}, 10)
	require.NoError(t, err)
	require.Equal(t, int64(1), gaps.Gaps)
	require.Equal(t, int64(9), gaps.LatestGaps[0].From, "the recent gap stays")
}

func TestMaintenanceRunUnknownJob(t *testing.T) {
	t.Parallel()
	e := newOpsEnv(t)
	code, _, stderr := runMsgx(t, "maintenance", "run", "reqs", "--config", e.config)
	require.Equal(t, exitUsage, code)
	requireOneLine(t, "maintenance", stderr)
	require.Contains(t, stderr, `unknown maintenance job "reqs" (available: archive, backfill, history, outbox, reconcile, requests, snaplog)`)

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
	require.NoError(t, e.st.MarkRequestSent(t.Context(), store.MarkRequestSentParams{ID: req.ID, OutboundID: 1, SentAt: past, ExpiresAt: past.Add(10 * time.Minute)}))

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

// A sweep by hand never outruns the queue: while a message naming a flight
// is queued, nothing is swept and the line says why; once it is processed
// (on the live flight) the sweep moves the flights.
func TestMaintenanceRunHistoryWaitsForTheQueue(t *testing.T) {
	t.Parallel()
	e := newOpsEnv(t, "history:\n  retention: 1h\n")
	h := newHistory(e)
	h.send(t, schdDNLD(101, 102), false)
	flop, err := e.mb.Insert(t.Context(), []byte(flopSTND(101, "305")), h.clk.Now())
	require.NoError(t, err)
	_, err = e.st.Enqueue(t.Context(), []int64{flop}, h.clk.Now())
	require.NoError(t, err)

	code, out, stderr := runMsgx(t, "maintenance", "run", "history", "--config", e.config)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, out, "history: done: 0 flights (the queue is not empty (message "+strconv.FormatInt(flop, 10)+" is PENDING)")
	states, err := e.st.Flights(t.Context(), []int64{101, 102})
	require.NoError(t, err)
	require.Len(t, states, 2, "nothing swept")

	_, err = h.pump.Step(t.Context())
	require.NoError(t, err)
	require.Equal(t, vocab.StatusSucceeded, e.message(t, flop).Status, "applied to the live flight")
	code, out, stderr = runMsgx(t, "maintenance", "run", "history", "--config", e.config)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, out, "history: done: 2 flights")
}

// The backfill sweep is a job like the others (it was "unknown job"): the
// dry run counts the due todos and changes nothing, the run writes them to
// the mailbox and is recorded as the job's last run.
func TestMaintenanceRunBackfill(t *testing.T) {
	t.Parallel()
	e := newOpsEnv(t)
	h := newHistory(e) // its pump hands no todo to a backfiller: they wait for the sweep
	id := h.send(t, schdDNLD(101), false)
	row, err := e.mb.Get(t.Context(), id)
	require.NoError(t, err)
	require.Nil(t, row.ProcessedAt)

	code, out, stderr := runMsgx(t, "maintenance", "run", "backfill", "--dry-run", "--config", e.config)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, out, "backfill: dry run, would do: 1 mailbox rows, processing time from 2026-12-02T08:00:00Z to 2026-12-02T08:00:00Z")
	row, err = e.mb.Get(t.Context(), id)
	require.NoError(t, err)
	require.Nil(t, row.ProcessedAt, "a dry run changes nothing")

	code, out, stderr = runMsgx(t, "maintenance", "run", "backfill", "--config", e.config)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, out, "backfill: done: 1 mailbox rows")
	require.Empty(t, stderr)
	row, err = e.mb.Get(t.Context(), id)
	require.NoError(t, err)
	require.NotNil(t, row.ProcessedAt)
	require.Equal(t, "SUCCEEDED", row.Status)

	code, out, stderr = runMsgx(t, "status", "--config", e.config)
	require.Equal(t, exitOK, code, stderr)
	require.Regexp(t, `backfill +last run \S+ \S+ \S+, took \S+, 1 rows`, out)
}

// The reconciliation pass runs by hand: an unprocessed mailbox row behind the
// watermark that the queue lacks, at any age, is enqueued — a late row when a
// larger id finished — and msgx status shows it.
func TestMaintenanceRunReconcile(t *testing.T) {
	t.Parallel()
	e := newOpsEnv(t)
	old, err := e.mb.Insert(t.Context(), []byte("<MSG/>"), time.Now().Add(-72*time.Hour))
	require.NoError(t, err)
	newer, err := e.mb.Insert(t.Context(), []byte("<MSG/>"), time.Now())
	require.NoError(t, err)
	_, err = e.st.Enqueue(t.Context(), []int64{newer}, time.Now())
	require.NoError(t, err)
	require.NoError(t, e.st.FinishMessages(t.Context(), []vocab.Finish{{MsgID: newer, Status: vocab.StatusDead, ErrorClass: "MALFORMED", Now: time.Now()}}))
	require.NoError(t, e.st.AdvanceIngressMark(t.Context(), store.AdvanceIngressMarkParams{Source: "cminmsgs", LastID: newer, Now: time.Now()}))

	code, out, stderr := runMsgx(t, "maintenance", "run", "reconcile", "--dry-run", "--config", e.config)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, out, "reconcile: dry run, would do: 1 mailbox rows")
	_, err = e.st.Message(t.Context(), old)
	require.ErrorIs(t, err, store.ErrNotFound)

	code, out, stderr = runMsgx(t, "maintenance", "run", "reconcile", "--config", e.config)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, out, "reconcile: done: 1 mailbox rows (2 unprocessed rows up to the watermark, 1 late)")
	m, err := e.st.Message(t.Context(), old)
	require.NoError(t, err)
	require.Equal(t, vocab.StatusPending, m.Status)
	require.Equal(t, newer, *m.LateAfter)

	code, out, stderr = runMsgx(t, "status", "--config", e.config)
	require.Equal(t, exitOK, code, stderr)
	require.Regexp(t, `late rows +1, newest \d+ late:\d+`, out)
	require.Regexp(t, `reconcile +last run`, out)
}

// msgx help and msgx maintenance --help list every job of the registry (a
// new job appears without editing a list), and the command list is aligned.
func TestHelpListsEveryJob(t *testing.T) {
	t.Parallel()
	code, help, _ := runMsgx(t, "help")
	require.Equal(t, exitOK, code)
	code, usage, _ := runMsgx(t, "maintenance", "--help")
	require.Equal(t, exitOK, code)
	names := jobRegistry(config.Defaults()).Names()
	require.Subset(t, names, []string{"requests", "reconcile", "backfill"})
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
