package main

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Every flag a command takes is in its usage text above the flag list (the
// synopsis or the prose): `msgx request --help` once lacked --utc.
func TestUsageNamesEveryFlag(t *testing.T) {
	t.Parallel()
	var calls [][]string
	for name := range commands {
		calls = append(calls, []string{name, "--help"})
	}
	calls = append(calls, []string{"request", "list", "--help"}, []string{"request", "flights", "--help"},
		[]string{"schema", "apply", "--help"})
	slices.SortFunc(calls, func(a, b []string) int { return strings.Compare(strings.Join(a, " "), strings.Join(b, " ")) })
	flagLine := regexp.MustCompile(`(?m)^  -([a-z0-9-]+)`)
	checked := 0
	for _, args := range calls {
		code, out, stderr := runMsgx(t, args...)
		require.Equal(t, exitOK, code, "%q: %s", args, stderr)
		usage, flags, ok := strings.Cut(out, "\nflags:\n")
		if !ok {
			continue // a command of subcommands: its flags are the subcommand's
		}
		for _, m := range flagLine.FindAllStringSubmatch(flags, -1) {
			require.Contains(t, usage, "--"+m[1], "%q: the usage text names --%s", args, m[1])
			checked++
		}
	}
	require.Greater(t, checked, 30, "flags were checked")
}
