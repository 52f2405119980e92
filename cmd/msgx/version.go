package main

import (
	"context"
	"flag"
	"fmt"
	"runtime/debug"
)

// version is set at build time: -ldflags "-X main.version=...".
var version = "dev"

func init() {
	register("version", "print the build version", runVersion)
}

func runVersion(_ context.Context, args []string, s streams) int {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.SetOutput(s.err)
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	rev := "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, kv := range bi.Settings {
			if kv.Key == "vcs.revision" {
				rev = kv.Value
			}
		}
		fmt.Fprintf(s.out, "msgx %s (commit %s, %s)\n", version, rev, bi.GoVersion)
		return exitOK
	}
	fmt.Fprintf(s.out, "msgx %s\n", version)
	return exitOK
}
