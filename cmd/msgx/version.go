package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
)

// version and commit are set at build time (Makefile):
// -ldflags "-X main.version=... -X main.commit=...". Without them the commit
// is the one Go stamped into the binary, if any (-buildvcs).
var (
	version = "dev"
	commit  = ""
)

func init() {
	register("version", "print the build version (also msgx --version)", runVersion)
}

const versionUsage = `usage: msgx version

Prints the version, the commit it was built from and the Go version.

Exit codes: 0 printed; 2 unexpected arguments.`

func runVersion(_ context.Context, args []string, s streams) int {
	fs := newFlags("version", versionUsage)
	if code, ok := parseFlags(fs, args, s); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(s.err, "msgx version: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	rev, goVersion := commit, runtime.Version()
	if bi, ok := debug.ReadBuildInfo(); ok {
		goVersion = bi.GoVersion
		for _, kv := range bi.Settings {
			if kv.Key == "vcs.revision" && rev == "" {
				rev = kv.Value
			}
		}
	}
	if rev == "" {
		rev = "unknown"
	}
	fmt.Fprintf(s.out, "msgx %s (commit %s, %s)\n", version, rev, goVersion)
	return exitOK
}
