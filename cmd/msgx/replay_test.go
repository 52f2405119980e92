package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/replay"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// replayHistory: flight 101 created, then stnd1 dies (EXHAUSTED), then stnd2
// changes 101 again; ok stays SUCCEEDED.
func replayHistory(t *testing.T) (e *opsEnv, stnd1, stnd2 int64) {
	e = newOpsEnv(t)
	h := newHistory(e)
	h.send(t, schdDNLD(101, 102), false)
	stnd1 = h.send(t, flopSTND(101, "11"), true)
	stnd2 = h.send(t, flopSTND(101, "12"), false)
	require.Equal(t, "EXHAUSTED", e.message(t, stnd1).ErrorClass)
	require.Equal(t, vocab.StatusSucceeded, e.message(t, stnd2).Status)
	return e, stnd1, stnd2
}

func TestReplayDryRunShowsPlanAndWarnings(t *testing.T) {
	t.Parallel()
	e, stnd1, stnd2 := replayHistory(t)

	code, out, stderr := runMsgx(t, "replay", "--config", e.config, "--class", "EXHAUSTED", "--dry-run")
	require.Equal(t, exitOK, code, stderr)
	require.Empty(t, stderr)
	require.Contains(t, out, "replay of class EXHAUSTED: 1 message would go back to PENDING")
	row := ""
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, fmt.Sprint(stnd1)+" ") {
			row = l
		}
	}
	require.NotEmpty(t, row, out)
	for _, want := range []string{"DEAD", "EXHAUSTED", "AODB|FLOP|STND|", " 101 "} {
		require.Contains(t, row, want)
	}
	require.Contains(t, out, "\n1 warning:\n", "one warning, said in the singular")
	require.Contains(t, out, fmt.Sprintf("replaying %d would apply an older message over flight 101's state from message %d", stnd1, stnd2))
	require.Equal(t, vocab.StatusDead, e.message(t, stnd1).Status, "a dry run changes nothing")

	code, out, stderr = runMsgx(t, "replay", "--config", e.config, "--class", "exhausted", "--dry-run", "--json")
	require.Equal(t, exitOK, code, stderr)
	var plan replay.Plan
	require.NoError(t, json.Unmarshal([]byte(out), &plan), out)
	require.Equal(t, 1, plan.Total)
	require.Equal(t, stnd1, plan.Messages[0].ID)
	require.Equal(t, []int64{101}, plan.Messages[0].Flights)
	require.Len(t, plan.Warnings, 1)
	require.Equal(t, stnd2, plan.Warnings[0].ByMsgID)
}

func TestReplayNeedsYesThenReplays(t *testing.T) {
	t.Parallel()
	e, stnd1, _ := replayHistory(t)

	code, out, stderr := runMsgx(t, "replay", "--config", e.config, "--id", fmt.Sprint(stnd1))
	require.Equal(t, exitUsage, code)
	require.Contains(t, out, "would go back to PENDING", "the plan is shown")
	requireOneLine(t, "replay", stderr)
	require.Contains(t, stderr, "--yes")
	require.Equal(t, vocab.StatusDead, e.message(t, stnd1).Status)

	code, out, stderr = runMsgx(t, "replay", "--config", e.config, "--id", fmt.Sprint(stnd1), "--yes")
	require.Equal(t, exitOK, code, stderr)
	require.Equal(t, fmt.Sprintf("%d\n", stnd1), out, "the ids moved, one per line")
	require.Contains(t, stderr, fmt.Sprintf("warning: replaying %d would apply an older message over flight 101", stnd1))
	require.Contains(t, stderr, "replayed 1 message;")
	require.NotContains(t, stderr, "\r", "no bar drawn when stderr is not a terminal")
	m := e.message(t, stnd1)
	require.Equal(t, vocab.StatusPending, m.Status)
	require.Equal(t, "EXHAUSTED", m.PrevClass)
	require.Equal(t, 1, m.ReplayCount)

	// Replayed already: now it is PENDING, not replayable.
	code, _, stderr = runMsgx(t, "replay", "--config", e.config, "--id", fmt.Sprint(stnd1), "--yes")
	require.Equal(t, exitFailure, code)
	requireOneLine(t, "replay", stderr)
	require.Contains(t, stderr, "PENDING already")
}

func TestReplayRefusals(t *testing.T) {
	t.Parallel()
	e, stnd1, stnd2 := replayHistory(t)
	cfg := []string{"replay", "--config", e.config}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--class", "PROTOCOL"}, exitUsage, "class PROTOCOL is not replayable (replayable: CODEC_ERROR, UNSUPPORTED, INFRA, EXHAUSTED)"},
		{[]string{"--class", "MALFORMED", "--yes"}, exitUsage, "not replayable"},
		{[]string{"--id", "999999", "--yes"}, exitFailure, "999999 not found"},
		{[]string{"--id", fmt.Sprint(stnd2), "--id", fmt.Sprint(stnd1), "--yes"}, exitFailure, fmt.Sprintf("not replayable: %d SUCCEEDED", stnd2)},
		{[]string{"--id", "1", "--class", "INFRA"}, exitUsage, "not both"},
		{[]string{}, exitUsage, "msgx replay: name --id N (repeatable) or --class CLASS\n"},
		{[]string{"--class", "BOGUS"}, exitUsage, "unknown class BOGUS (replayable: CODEC_ERROR, UNSUPPORTED, INFRA, EXHAUSTED)"},
		{[]string{"--id", "abc"}, exitUsage, "not a message id"},
		{[]string{"--class", "INFRA", "--dry-run", "--yes"}, exitUsage, "exclude each other"},
		{[]string{"--class", "INFRA", "17"}, exitUsage, "unexpected argument"},
	} {
		code, out, stderr := runMsgx(t, append(cfg, c.args...)...)
		require.Equal(t, c.code, code, "%v: %s", c.args, stderr)
		require.Empty(t, out, c.args)
		if c.want == "not a message id" { // the flag package adds the usage
			require.Contains(t, stderr, c.want)
			continue
		}
		requireOneLine(t, "replay", stderr)
		require.Contains(t, stderr, c.want, c.args)
	}
	require.Equal(t, vocab.StatusDead, e.message(t, stnd1).Status, "a refused replay moves nothing, not even the valid ids")

	code, out, stderr := runMsgx(t, append(cfg, "--class", "INFRA", "--yes")...)
	require.Equal(t, exitOK, code, stderr)
	require.Empty(t, out)
	require.Contains(t, stderr, "nothing to replay")
}

func TestReplayUnreachableDatabase(t *testing.T) {
	t.Parallel()
	config := writeConfig(t, "postgres:\n  url: postgres://u:secret@127.0.0.1:1/x\n")
	code, out, stderr := runMsgx(t, "replay", "--config", config, "--class", "INFRA", "--dry-run")
	require.Equal(t, exitFailure, code)
	require.Empty(t, out)
	requireOneLine(t, "replay", stderr)
	require.Contains(t, stderr, "MSGX_PG_URL")
	require.NotContains(t, stderr, "secret")
}
