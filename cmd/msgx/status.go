package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/oneline"
	"github.com/msgx-aodb/msgx/internal/status"
	"github.com/msgx-aodb/msgx/internal/store"
)

func init() {
	register("status", "queue head and its age, backlog, dead letters, outbox lag, backfill todos", runStatus)
}

const statusUsage = `usage: msgx status [--json] [--config FILE]

Prints what the queue, the outbox and the mailbox backfill of the configured
PostgreSQL are doing now: the queue head (the smallest unfinished message,
which every later one waits for) and its age, the backlog, FAILED and DEAD
messages by error class, the outbox lag per Kafka target, the backfill todos,
and the role of the instance (leader or standby) when known. --json prints the
same report as JSON (the shape of GET /admin/queue).

Exit codes: 0 printed; 1 the database could not be read; 2 bad flags or
invalid configuration.`

// statusRole reports the role of the service instance that the
// configuration names: leader.Leader, leader.Standby or
// leader.Starting. It is the hook for the leader lock (issue #6 item 4):
// nil, or a result of "", leaves the role out of the report; an error is
// shown as role "unknown (...)". The lead sets it from the package that owns
// the advisory lock, e.g. in an init function:
//
//	statusRole = func(ctx context.Context, cfg config.Config) (string, error) { return leader.Probe(ctx, cfg) }
var statusRole func(ctx context.Context, cfg config.Config) (string, error)

func runStatus(ctx context.Context, args []string, s streams) int {
	fs := newFlags("status", statusUsage)
	configPath := configFlag(fs)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	utc := utcFlag(fs)
	if code, ok := parseFlags(fs, args, s); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(s.err, "msgx status: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	cfg, ok := loadConfig("status", *configPath, s)
	if !ok {
		return exitUsage
	}
	st, err := openStore(ctx, cfg)
	if err != nil {
		fmt.Fprintf(s.err, "msgx status: %s\n", err)
		return exitFailure
	}
	defer st.Close()

	r, err := status.Collect(ctx, st, time.Now())
	if err != nil {
		hint := ""
		if errors.Is(err, store.ErrSchema) {
			hint = " (schema not applied? see 'msgx schema plan')"
		}
		fmt.Fprintf(s.err, "msgx status: %s%s\n", oneline.Err(err), hint)
		return exitFailure
	}
	r.Shadow = cfg.Shadow
	if statusRole != nil {
		shown := cfg
		shown.Location = shownIn(cfg.Location, *utc)
		role, err := statusRole(ctx, shown)
		if err != nil {
			role = "unknown (" + oneline.Err(err) + ")"
		}
		r.Role = role
	}

	if *asJSON {
		enc := json.NewEncoder(s.out)
		enc.SetIndent("", "  ")
		err = enc.Encode(r)
	} else {
		err = r.WriteText(s.out, shownIn(cfg.Location, *utc))
	}
	if err != nil {
		fmt.Fprintf(s.err, "msgx status: %s\n", oneline.Err(err))
		return exitFailure
	}
	return exitOK
}
