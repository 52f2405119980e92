package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/msgx-aodb/msgx/internal/app"
	"github.com/msgx-aodb/msgx/internal/logging"
)

func init() {
	register("serve", "run the service: poller, pump, backfill sweep, HTTP API", runServe)
}

const serveUsage = `usage: msgx serve

Runs the service until SIGTERM or SIGINT: polls the mailbox into the queue,
processes it in strict FIFO order, backfills the mailbox and serves the HTTP
API on $MSGX_HTTP_ADDR. Configuration comes from the MSGX_* environment
variables (docs/config.md); logs are JSON lines on stderr. On a signal it
stops accepting HTTP, lets the message step in flight commit or roll back,
and exits 0. Exit 1: a start check failed (database unreachable, schema not
applied, port taken); exit 2: invalid configuration.`

func runServe(ctx context.Context, args []string, s streams) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(s.err)
	fs.Usage = func() { fmt.Fprintln(s.err, serveUsage); fs.PrintDefaults() }
	configPath := configFlag(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(s.err, "msgx serve: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	cfg, ok := loadConfig("serve", *configPath, s)
	if !ok {
		return exitUsage
	}
	log, flush := logging.New(s.err, cfg.LogLevel)
	defer flush()
	if err := app.Serve(ctx, cfg, log); err != nil {
		fmt.Fprintf(s.err, "msgx serve: %s\n", strings.Join(strings.Fields(err.Error()), " "))
		return exitFailure
	}
	return exitOK
}
