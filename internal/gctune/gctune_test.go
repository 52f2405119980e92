package gctune

import (
	"io"
	"log/slog"
	"math"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/require"
)

// serve sets the GC target from gc.percent and the memory limit from
// gc.memory-limit, unless GOGC or GOMEMLIMIT is in the environment; restore
// puts back what was there. Not parallel: the settings are the process's.
func TestApply(t *testing.T) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	before, beforeLimit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetGCPercent(before)
	defer debug.SetMemoryLimit(beforeLimit)

	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	restore := Apply(400, 300<<20, quiet)
	require.Equal(t, 400, Percent(), "gc.percent applied")
	require.Equal(t, int64(300<<20), debug.SetMemoryLimit(-1), "gc.memory-limit applied")
	restore()
	require.Equal(t, 100, Percent(), "restored")
	require.Equal(t, int64(math.MaxInt64), debug.SetMemoryLimit(-1), "restored")

	t.Setenv("GOGC", "150")
	t.Setenv("GOMEMLIMIT", "1GiB")
	Apply(400, 300<<20, quiet)
	require.Equal(t, 100, Percent(), "GOGC from the environment wins: left as the runtime set it")
	require.Equal(t, int64(math.MaxInt64), debug.SetMemoryLimit(-1), "GOMEMLIMIT from the environment wins")
}
