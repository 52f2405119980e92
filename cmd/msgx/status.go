package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/msgx-aodb/msgx/internal/oneline"
	"github.com/msgx-aodb/msgx/internal/status"
	"github.com/msgx-aodb/msgx/internal/store"
)

func init() {
	register("status", "queue head and its age, backlog, dead letters, outbox lag, backfill todos", runStatus)
}

const statusUsage = `usage: msgx status [--json] [--utc] [--config FILE]

Prints what the queue, the outbox and the mailbox backfill of the configured
PostgreSQL are doing now: the queue head (the smallest unfinished message,
which every later one waits for) and its age, the backlog, FAILED and DEAD
messages by error class, the outbox lag per Kafka target, the backfill todos,
and which instance leads and how many wait as standby. --json prints the
same report as JSON (the shape of GET /admin/queue; times in UTC). Text times
are airport local time with its offset; --utc shows them in UTC.

Exit codes: 0 printed; 1 the database could not be read; 2 bad flags or
invalid configuration.`

// statusInstances reads which instance leads and how many wait
// (status_role.go); a test may replace it.
var statusInstances = instances

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
	inst, err := statusInstances(ctx, cfg)
	if err != nil {
		msg := oneline.Err(err)
		inst = status.Instances{Error: &msg}
	}
	r.Instances = &inst

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
