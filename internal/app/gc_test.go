package app

import (
	"io"
	"log/slog"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/require"
)

// serve sets the GC target from gc.percent, unless GOGC is in the
// environment. Not parallel: the setting is the process's.
func TestTuneGC(t *testing.T) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)

	t.Setenv("GOGC", "")
	tuneGC(400, quiet)
	require.Equal(t, 400, debug.SetGCPercent(100), "gc.percent applied")

	t.Setenv("GOGC", "150")
	tuneGC(400, quiet)
	require.Equal(t, 100, debug.SetGCPercent(100), "GOGC from the environment wins: left as the runtime set it")
}
