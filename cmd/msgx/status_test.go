package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/status"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// statusHistory: one dead letter (EXHAUSTED) and a FAILED head.
func statusHistory(t *testing.T, e *opsEnv) (head int64) {
	t.Helper()
	h := newHistory(e)
	h.send(t, schdDNLD(101), false)
	h.send(t, flopSTND(101, "1"), true)
	head = 900000
	now := time.Now()
	_, err := e.st.Enqueue(t.Context(), []int64{head}, now.Add(-90*time.Second))
	require.NoError(t, err)
	_, err = e.st.RecordFailure(t.Context(), vocab.RecordFailureParams{MsgID: head, ErrorClass: "INFRA", Reason: "mailbox down",
		NextAttemptAt: now.Add(time.Minute), Now: now})
	require.NoError(t, err)
	return head
}

func TestStatusText(t *testing.T) {
	t.Parallel()
	e := newOpsEnv(t, "shadow: true\n")
	code, out, stderr := runMsgx(t, "status", "--config", e.config)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, out, "none (queue empty)")
	require.Contains(t, out, "SHADOW", "the configured mode is shown")

	statusHistory(t, e)
	code, out, stderr = runMsgx(t, "status", "--config", e.config)
	require.Equal(t, exitOK, code, stderr)
	require.Empty(t, stderr)
	lines := strings.Split(out, "\n")
	require.Less(t, len(lines), 25, "one screen:\n%s", out)
	headLine := ""
	for _, l := range lines {
		if strings.Contains(l, "head") && strings.Contains(l, "900000") {
			headLine = l
		}
	}
	require.NotEmpty(t, headLine, out)
	require.Contains(t, headLine, "FAILED")
	require.Contains(t, headLine, "age 1m") // first seen 90 s ago
	require.Contains(t, headLine, "INFRA")
	require.Contains(t, out, "EXHAUSTED 1", "dead letters by class")
	require.Contains(t, out, "KAFKA:msg", "outbox lag per target")
}

func TestStatusJSON(t *testing.T) {
	t.Parallel()
	e := newOpsEnv(t)
	head := statusHistory(t, e)
	code, out, stderr := runMsgx(t, "status", "--config", e.config, "--json")
	require.Equal(t, exitOK, code, stderr)
	var r status.Report
	require.NoError(t, json.Unmarshal([]byte(out), &r), out)
	require.NotNil(t, r.Head)
	require.Equal(t, head, r.Head.MsgID)
	require.InDelta(t, 90, r.Head.AgeSeconds, 30)
	require.Equal(t, int64(1), r.Backlog)
	require.Equal(t, int64(1), r.DeadLetters["EXHAUSTED"])
	require.Equal(t, int64(1), r.Failing["INFRA"])
	require.NotEmpty(t, r.Outbox)
	require.Nil(t, r.Role, "a CLI is no instance: no role")
	require.Equal(t, &status.Instances{}, r.Instances, "no instance runs on this database")
	require.False(t, r.Shadow)
	requireStatusKeys(t, []byte(out))
	require.True(t, strings.HasSuffix(r.At.Format(time.RFC3339Nano), "Z"), "JSON times are UTC: %s", r.At)
	require.Contains(t, out, `"at": "`+r.At.Format(time.RFC3339Nano)+`"`)
}

// requireStatusKeys checks a status JSON has exactly the keys of
// status.Report: `msgx status --json` and GET /admin/queue (whose test
// checks the same) share one shape.
func requireStatusKeys(t *testing.T, doc []byte) {
	t.Helper()
	var got, want map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(doc, &got))
	zero, err := json.Marshal(status.Report{})
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(zero, &want))
	require.ElementsMatch(t, slices.Collect(maps.Keys(want)), slices.Collect(maps.Keys(got)))
}

// TestStatusInstances is not parallel: it sets the package's hook.
func TestStatusInstances(t *testing.T) {
	e := newOpsEnv(t)
	name, since := "host-1:4242", time.Date(2026, 12, 3, 2, 30, 5, 0, time.UTC)
	var gotCfg config.Config
	statusInstances = func(_ context.Context, cfg config.Config) (status.Instances, error) {
		gotCfg = cfg
		return status.Instances{Leader: &name, LeaderSince: &since, Standby: 1}, nil
	}
	t.Cleanup(func() { statusInstances = instances })

	code, out, stderr := runMsgx(t, "status", "--config", e.config, "--json")
	require.Equal(t, exitOK, code, stderr)
	var r status.Report
	require.NoError(t, json.Unmarshal([]byte(out), &r))
	require.Equal(t, name, *r.Instances.Leader)
	require.Contains(t, out, `"leader_since": "2026-12-03T02:30:05Z"`)
	require.Equal(t, e.pgURL, gotCfg.PGURL, "the hook gets the command's configuration")

	code, out, stderr = runMsgx(t, "status", "--config", e.config)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, out, "instances     leader host-1:4242 (since 2026-12-03 10:30:05 +08:00), 1 standby")

	statusInstances = func(context.Context, config.Config) (status.Instances, error) {
		return status.Instances{}, errors.New("lock\nprobe failed")
	}
	code, out, stderr = runMsgx(t, "status", "--config", e.config)
	require.Equal(t, exitOK, code, "a failing probe does not hide the report: %s", stderr)
	require.Contains(t, out, "unknown (lock probe failed)")
}

func TestStatusFailures(t *testing.T) {
	t.Parallel()
	bad := writeConfig(t, "postgres:\n  url: postgres://u:secret@127.0.0.1:1/x\n")
	code, out, stderr := runMsgx(t, "status", "--config", bad)
	require.Equal(t, exitFailure, code)
	require.Empty(t, out)
	requireOneLine(t, "status", stderr)
	require.Contains(t, stderr, "MSGX_PG_URL")
	require.NotContains(t, stderr, "secret")

	// A database that does not exist, and one without msgx's schema: each
	// said as what it is.
	missing := strings.Replace(testdb.DefaultPostgresURL, "/postgres?", "/msgx_no_such_database?", 1)
	code, _, stderr = runMsgx(t, "status", "--config", writeConfig(t, "postgres:\n  url: "+missing+"\n"))
	require.Equal(t, exitFailure, code)
	requireOneLine(t, "status", stderr)
	require.Contains(t, stderr, "msgx status: PostgreSQL: no such database, or access denied")
	empty := testdb.PostgresEmpty(t)
	code, _, stderr = runMsgx(t, "status", "--config", writeConfig(t, "postgres:\n  url: "+empty.URL+"\n"))
	require.Equal(t, exitFailure, code)
	requireOneLine(t, "status", stderr)
	require.True(t, strings.HasPrefix(stderr, "msgx status: queue head: "), stderr)
	require.Contains(t, stderr, "schema not applied? see 'msgx schema plan'")

	code, _, stderr = runMsgx(t, "status", "--config", writeConfig(t, "no-such-key: 1\n"))
	require.Equal(t, exitUsage, code)
	require.Contains(t, stderr, "no-such-key")

	code, _, stderr = runMsgx(t, "status", "extra")
	require.Equal(t, exitUsage, code)
	requireOneLine(t, "status", stderr)
}

// Every command's --help is on stdout (msgx decode --help | less), exits 0,
// and says what the command does, its exit codes and its flags; so is
// msgx help. A mistake (no command) prints the usage on stderr and exits 2.
func TestEveryCommandsHelp(t *testing.T) {
	t.Parallel()
	require.NotEmpty(t, commands)
	for name := range commands {
		args := []string{name, "--help"}
		code, out, stderr := runMsgx(t, args...)
		require.Equal(t, exitOK, code, name)
		require.Empty(t, stderr, name)
		require.True(t, strings.HasPrefix(out, "usage: msgx "+name), "%s: %s", name, out)
		require.Contains(t, out, "Exit codes: 0", name)
	}
	for _, name := range []string{"send", "replay", "status", "decode", "schema plan", "serve", "tail"} {
		code, out, _ := runMsgx(t, append(strings.Fields(name), "--help")...)
		require.Equal(t, exitOK, code, name)
		require.Contains(t, out, "\nflags:\n", "%s lists its flags", name)
	}
	for _, help := range []string{"help", "--help", "-h"} {
		code, out, stderr := runMsgx(t, help)
		require.Equal(t, exitOK, code)
		require.Empty(t, stderr)
		for name := range commands {
			require.Contains(t, out, "  "+name+" ")
		}
	}
	code, out, stderr := runMsgx(t)
	require.Equal(t, exitUsage, code)
	require.Empty(t, out)
	require.Contains(t, stderr, "usage: msgx")

	code, out, _ = runMsgx(t, "--version")
	require.Equal(t, exitOK, code)
	require.True(t, strings.HasPrefix(out, "msgx "), out)
	require.Contains(t, out, "(commit ")
}

// msgx status shows its own attempt on each dependency (rule 20): another
// process's are not known to it. A refused mailbox and Kafka are DOWN.
func TestStatusDependencies(t *testing.T) {
	t.Parallel()
	e := newOpsEnv(t)
	code, out, stderr := runMsgx(t, "status", "--config", e.config, "--json")
	require.Equal(t, exitOK, code, stderr)
	var r status.Report
	require.NoError(t, json.Unmarshal([]byte(out), &r), out)
	require.Equal(t, map[string]bool{"postgres": true, "mailbox": true}, r.Dependencies, "no brokers configured: no kafka check")

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closed := ln.Addr().String()
	require.NoError(t, ln.Close()) // nothing listens there now: refused
	down := writeConfig(t, fmt.Sprintf("postgres:\n  url: %q\nmailbox:\n  dsn: %q\nkafka:\n  brokers: [%q]\nairport:\n  timezone: Asia/Shanghai\n",
		e.pgURL, "root@tcp("+closed+")/msgx_mailbox?parseTime=true", closed))
	code, out, stderr = runMsgx(t, "status", "--config", down)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, out, "dependencies  kafka DOWN, mailbox DOWN, postgres up")
}
