package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"time"
)

// newFlags is a subcommand's flag set. Its usage is the command's text
// (synopsis, what it does, exit codes) and then its flags.
func newFlags(name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), usage)
		n := 0
		fs.VisitAll(func(*flag.Flag) { n++ })
		if n > 0 {
			fmt.Fprintln(fs.Output(), "\nflags:")
			fs.PrintDefaults()
		}
	}
	return fs
}

// parseFlags parses args. Asked for --help, it prints the usage on stdout
// (msgx decode --help | less) and says exit 0; after a flag error it prints
// the error and the usage on stderr and says exit 2. ok: go on.
func parseFlags(fs *flag.FlagSet, args []string, s streams) (code int, ok bool) {
	var buf bytes.Buffer
	fs.SetOutput(&buf)
	err := fs.Parse(args)
	fs.SetOutput(s.err)
	switch {
	case errors.Is(err, flag.ErrHelp):
		_, _ = s.out.Write(buf.Bytes())
		return exitOK, false
	case err != nil:
		_, _ = s.err.Write(buf.Bytes())
		return exitUsage, false
	}
	return exitOK, true
}

// utcFlag adds --utc: times in UTC instead of airport local time.
func utcFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("utc", false, "show times in UTC (default: airport local time with its offset, airport.timezone)")
}

// shownIn is the zone a command shows times in: the airport's, or UTC with
// --utc (status.Stamp).
func shownIn(airport *time.Location, utc bool) *time.Location {
	if utc {
		return time.UTC
	}
	return airport
}
