// Command msgx is the one binary of the service: every operation is a
// subcommand (serve, decode, schema, version, ...). Subcommands stay thin:
// flags → config → internal packages.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"
)

// Exit codes, documented in docs/cli.md.
const (
	exitOK      = 0 // success
	exitFailure = 1 // the command ran and failed (unreachable database, ...)
	exitUsage   = 2 // bad flags or arguments; for decode: the message was rejected
)

// streams are the standard streams a subcommand talks to; tests swap them.
type streams struct {
	in       io.Reader
	out, err io.Writer
}

// command is one subcommand. run returns the process exit code.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, s streams) int
}

// commands is filled by the init functions of the subcommand files.
var commands = map[string]command{}

func register(name, summary string, run func(context.Context, []string, streams) int) {
	commands[name] = command{summary: summary, run: run}
}

func main() {
	ctx := onSignals(context.Background(), os.Stderr, func() { os.Exit(exitFailure) })
	os.Exit(dispatch(ctx, os.Args[1:], streams{in: os.Stdin, out: os.Stdout, err: os.Stderr}))
}

// onSignals returns a context cancelled by the first SIGINT or SIGTERM — the
// command shuts down gracefully — and calls exit on the second: an operator
// who insists gets the process gone at once (PostgreSQL rolls back whatever
// transaction was open; nothing committed is lost).
func onSignals(parent context.Context, stderr io.Writer, exit func()) context.Context {
	ctx, cancel := context.WithCancel(parent)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sigs
		cancel()
		<-sigs
		fmt.Fprintln(stderr, "msgx: second signal, exiting at once")
		exit()
	}()
	return ctx
}

func dispatch(ctx context.Context, args []string, s streams) int {
	switch {
	case len(args) == 0: // a mistake: the usage goes with the error output
		usage(s.err)
		return exitUsage
	case args[0] == "-h" || args[0] == "--help" || args[0] == "help": // asked for: msgx help | less
		usage(s.out)
		return exitOK
	case args[0] == "--version" || args[0] == "-version":
		args = append([]string{"version"}, args[1:]...)
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(s.err, "msgx: unknown command %q (run 'msgx help')\n", args[0])
		return exitUsage
	}
	return cmd.run(ctx, args[1:], s)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: msgx <command> [flags]\n\ncommands:")
	names := make([]string, 0, len(commands))
	width := 0
	for n := range commands {
		names = append(names, n)
		width = max(width, len(n))
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-*s %s\n", width, n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'msgx <command> --help' for the flags of a command.")
}
