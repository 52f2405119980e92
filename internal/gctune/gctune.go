// Package gctune sets the Go garbage collector of msgx serve from the
// configuration: its target (gc.percent, as GOGC) and its soft memory limit
// (gc.memory-limit, as GOMEMLIMIT). An environment variable wins over its
// setting, as it does for any Go program.
//
// The two cooperate: a high target trades heap for throughput while the
// live data is small (many small messages), and the limit caps what that
// trade may cost when the live data is large (runs of large messages): near
// the limit the collector runs as often as it must, whatever the target.
// The limit is soft: live data above it is kept, the collector then runs
// more often (the runtime caps its share of the CPU at about half).
package gctune

import (
	"log/slog"
	"math"
	"os"
	"runtime/debug"
)

// Apply sets the collector's target percent and memory limit in bytes (0:
// none), each unless GOGC or GOMEMLIMIT is set in the environment. It
// returns a function restoring the previous settings.
func Apply(percent int, limit int64, log *slog.Logger) (restore func()) {
	prevPercent, prevLimit := Percent(), debug.SetMemoryLimit(-1) // a negative limit only reads it
	if env := os.Getenv("GOGC"); env != "" {
		log.Info("garbage collector: GOGC from the environment", "gogc", env)
	} else {
		debug.SetGCPercent(percent)
	}
	if env := os.Getenv("GOMEMLIMIT"); env != "" {
		log.Info("garbage collector: GOMEMLIMIT from the environment", "gomemlimit", env)
	} else {
		if limit <= 0 {
			limit = math.MaxInt64 // the runtime's "no limit"
		}
		debug.SetMemoryLimit(limit)
	}
	return func() {
		debug.SetGCPercent(prevPercent)
		debug.SetMemoryLimit(prevLimit)
	}
}

// Percent is the collector's current target (GOGC).
func Percent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}
