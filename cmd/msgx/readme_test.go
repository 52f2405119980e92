package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The README's expected output of `make run` is the demo's (scripts/demo.sh
// prints `msgx request list` and `msgx status`). Times, ids and counts vary
// with the run, so this compares the shape msgx prints today with the
// README's copy: the request list's columns, the status report's sections
// in order and the queue section's lines. A column, a section or a line
// added to msgx without the README (an ORIGIN column, the ingress section)
// fails here; then paste a fresh demo's output into the README.
func TestReadmeStatus(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	readme := string(b)

	// The demo's day through the real pump.
	e := newOpsEnv(t)
	h := newHistory(e)
	files, err := filepath.Glob("../../testdata/sample-day/*.xml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		xml, err := os.ReadFile(f)
		require.NoError(t, err)
		h.send(t, string(xml), false)
	}

	code, out, stderr := runMsgx(t, "request", "list", "--config", e.config)
	require.Equal(t, exitOK, code, stderr)
	header := strings.Fields(strings.SplitN(out, "\n", 2)[0])
	require.Contains(t, header, "KIND", out)
	wantHeader := regexp.MustCompile(`(?m)^` + strings.Join(header, ` +`) + ` *$`)
	require.True(t, wantHeader.MatchString(readme), "the README's request list lacks msgx's columns: %v", header)

	code, out, stderr = runMsgx(t, "status", "--config", e.config)
	require.Equal(t, exitOK, code, stderr)
	block := readmeStatusBlock(t, readme)
	require.Equal(t, statusShape(out), statusShape(block),
		"the README's `msgx status` (left: msgx today)\n%s\n--- README:\n%s", out, block)

	// The counts of the day are the README's (the demo's one message more,
	// the AODB's answer to its airline request, SUCCEEDED, is not counted).
	require.Equal(t, statusValue(out, "by status"), statusValue(block, "by status"), "the README's counts are not the sample day's:\n%s", out)
	require.Equal(t, statusValue(out, "dead letters"), statusValue(block, "dead letters"), "the README's dead letters are not the sample day's:\n%s", out)
}

// statusValue parses a "STATUS n, STATUS n" line of the report ("-": none).
func statusValue(report, label string) map[string]int {
	m := regexp.MustCompile(`(?m)^  ` + label + ` +(.*)$`).FindStringSubmatch(report)
	out := map[string]int{}
	if m == nil {
		return nil
	}
	for _, part := range strings.Split(m[1], ", ") {
		var k string
		var n int
		if _, err := fmt.Sscanf(part, "%s %d", &k, &n); err == nil {
			out[k] = n
		}
	}
	return out
}

// readmeStatusBlock is the README's status report: from "msgx status at" to
// the first empty line.
func readmeStatusBlock(t *testing.T, readme string) string {
	t.Helper()
	_, after, ok := strings.Cut(readme, "\nmsgx status at ")
	require.True(t, ok, "the README shows msgx status")
	block, _, _ := strings.Cut(after, "\n\n")
	return "msgx status at " + block
}

// statusShape is the report's section headers in order, and the labels of
// the queue section's lines (its lines are always there; the other
// sections list what exists: outbox targets, requests, jobs).
func statusShape(report string) []string {
	var shape []string
	section := ""
	for _, line := range strings.Split(report, "\n")[1:] {
		switch {
		case line == "":
		case !strings.HasPrefix(line, " "):
			section = line
			shape = append(shape, line)
		case section == "queue":
			label, _, _ := strings.Cut(strings.TrimSpace(line), "  ")
			shape = append(shape, "queue: "+label)
		}
	}
	return shape
}
