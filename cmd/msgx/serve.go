package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/msgx-aodb/msgx/internal/app"
	"github.com/msgx-aodb/msgx/internal/logging"
)

func init() {
	register("serve", "run the service: poller, pump, backfill sweep, HTTP API", runServe)
}

const serveUsage = `usage: msgx serve [--config FILE]

Runs the service until SIGTERM or SIGINT: the HTTP API, health and metrics on
http.addr; and, while this instance holds the leader lock, the mailbox poller,
the strict-FIFO pump, the mailbox backfill and the Kafka relay. Another
instance on the same database waits as hot standby. In dev without
kafka.brokers an embedded Kafka broker is started. Configuration: --config
FILE (or $MSGX_CONFIG) under the MSGX_* variables (docs/config.md). Logs are
JSON lines on stderr.

The first signal stops HTTP, lets the step in flight commit or roll back and
exits 0; a second signal exits at once (1).

Exit codes: 0 stopped; 1 a start check failed (database unreachable, schema not
applied, port taken, Kafka topic missing) or interrupted; 2 invalid
configuration.`

func runServe(ctx context.Context, args []string, s streams) int {
	fs := newFlags("serve", serveUsage)
	configPath := configFlag(fs)
	if code, ok := parseFlags(fs, args, s); !ok {
		return code
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
	for _, w := range cfg.Deprecated {
		log.Warn("config: " + w)
	}
	if err := app.Serve(ctx, cfg, log); err != nil {
		flush() // the log's lines first, and no write of its goroutine beside this one
		fmt.Fprintf(s.err, "msgx serve: %s\n", strings.Join(strings.Fields(err.Error()), " "))
		return exitFailure
	}
	return exitOK
}
