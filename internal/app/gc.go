package app

import (
	"log/slog"
	"os"
	"runtime/debug"
)

// tuneGC sets the garbage collector's target of the service (gc.percent)
// unless GOGC is set in the environment, which wins as it does for any Go
// program.
func tuneGC(percent int, log *slog.Logger) {
	if env := os.Getenv("GOGC"); env != "" {
		log.Info("garbage collector: GOGC from the environment", "gogc", env)
		return
	}
	debug.SetGCPercent(percent)
}
