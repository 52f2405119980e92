package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/msgx-aodb/msgx/internal/aodbrequest"
	"github.com/msgx-aodb/msgx/internal/app"
	"github.com/msgx-aodb/msgx/internal/backfill"
	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/ingress"
	"github.com/msgx-aodb/msgx/internal/maintenance"
	"github.com/msgx-aodb/msgx/internal/oneline"
	"github.com/msgx-aodb/msgx/internal/store"
)

func init() {
	register("maintenance", "run one maintenance job now ("+strings.Join(jobRegistry(config.Defaults()).Names(), ", ")+"), or preview it", runMaintenance)
}

// jobRegistry is the leader's registry of jobs under cfg, without the
// databases: for their names and lines (the help texts list it, never a
// list by hand) and to check a job's name before connecting.
func jobRegistry(cfg config.Config) *maintenance.Registry {
	return app.MaintenanceJobs(app.MaintenanceParams{Config: cfg, Store: nil, Clock: clock.Real{},
		Expire: nil, Reconcile: nil, Backfill: nil})
}

// maintenanceUsage is the command's help, its job list from the registry.
func maintenanceUsage() string {
	var jobs strings.Builder
	for _, j := range jobRegistry(config.Defaults()).Jobs() {
		line := strings.TrimRight(fmt.Sprintf("  %-9s %s", j.Name(), wrap(maintenance.Doc(j), 64, "\n            ")), " ")
		jobs.WriteString(line + "\n")
	}
	return strings.Replace(maintenanceUsageText, "{{jobs}}\n", jobs.String(), 1)
}

// wrap breaks text into lines of at most width runes at spaces, joined by sep.
func wrap(text string, width int, sep string) string {
	var lines []string
	var line string
	for _, w := range strings.Fields(text) {
		if line != "" && len([]rune(line))+1+len([]rune(w)) > width {
			lines, line = append(lines, line), w
			continue
		}
		line = strings.TrimSpace(line + " " + w)
	}
	return strings.Join(append(lines, line), sep)
}

const maintenanceUsageText = `usage: msgx maintenance run <job> [--dry-run] [--config FILE]

Runs one maintenance job once, now, and prints what it did: how many rows it
moved or deleted and the oldest and newest of them. --dry-run prints what it
would do and changes nothing. The leader runs the same jobs on their own
schedule (docs/config.md, section Maintenance); a run by hand is recorded as
their last run (msgx status), a dry run is not.

jobs:
{{jobs}}

Exit codes: 0 done; 1 the job failed (what it committed before is printed);
2 bad flags, unknown job or invalid configuration.`

func runMaintenance(ctx context.Context, args []string, s streams) int {
	fs := newFlags("maintenance", maintenanceUsage())
	configPath := configFlag(fs)
	dry := fs.Bool("dry-run", false, "print what the job would do; change nothing")
	// Flags may come before or after "run <job>".
	var pos []string
	for rest := args; ; {
		if code, ok := parseFlags(fs, rest, s); !ok {
			return code
		}
		if fs.NArg() == 0 {
			break
		}
		pos, rest = append(pos, fs.Arg(0)), fs.Args()[1:]
	}
	if len(pos) != 2 || pos[0] != "run" {
		fmt.Fprintln(s.err, "msgx maintenance: usage: msgx maintenance run <job> [--dry-run] (run 'msgx maintenance --help')")
		return exitUsage
	}
	cfg, ok := loadConfig("maintenance", *configPath, s)
	if !ok {
		return exitUsage
	}
	clk := clock.Real{}
	if _, err := jobRegistry(cfg).Job(pos[1]); err != nil {
		fmt.Fprintf(s.err, "msgx maintenance: %s\n", err)
		return exitUsage
	}
	st, err := openStore(ctx, cfg)
	if err != nil {
		fmt.Fprintf(s.err, "msgx maintenance: %s\n", err)
		return exitFailure
	}
	defer st.Close()
	// The request expiry first finds a send a crash interrupted, in the mailbox.
	expire := func(ctx context.Context) (int, error) {
		mb, db, err := openMailbox(ctx, cfg)
		if err != nil {
			return 0, err
		}
		defer db.Close()
		return aodbrequest.New(st, mb, clk, slog.New(slog.NewTextHandler(io.Discard, nil)), app.RequestConfig(cfg), nil).Expiry().RunOnce(ctx)
	}
	var poller *ingress.Poller // the reconciliation pass reads the mailbox
	if pos[1] == "reconcile" {
		mb, db, err := openMailbox(ctx, cfg)
		if err != nil {
			fmt.Fprintf(s.err, "msgx maintenance: %s\n", err)
			return exitFailure
		}
		defer db.Close()
		quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
		poller = ingress.NewPoller(st, mb, clk, quiet, ingress.Config{Shadow: cfg.Shadow})
	}
	// The backfill sweep writes the due todos to the mailbox.
	sweep := func(ctx context.Context) (int, int, error) {
		mb, db, err := openMailbox(ctx, cfg)
		if err != nil {
			return 0, 0, err
		}
		defer db.Close()
		return backfill.New(st, mb, clk, slog.New(slog.NewTextHandler(io.Discard, nil)),
			backfill.Config{Interval: cfg.BackfillInterval}).Sweep(ctx)
	}
	job, _ := app.MaintenanceJobs(app.MaintenanceParams{Config: cfg, Store: st, Clock: clk,
		Expire: expire, Reconcile: poller, Backfill: sweep}).Job(pos[1])
	if h, ok := job.(*maintenance.History); ok {
		h.QueueWait = 0 // by hand: say at once that the queue is busy
	}
	runner := &maintenance.Runner{Store: st, Clock: clk, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	var res maintenance.Result
	run, err := runner.RunOnce(ctx, resultOf(job, &res), *dry)
	fmt.Fprintln(s.out, summary(job.Name(), res, run.Duration, *dry))
	if err != nil {
		fmt.Fprintf(s.err, "msgx maintenance: %s failed: %s\n", job.Name(), oneline.Err(err))
		return exitFailure
	}
	return exitOK
}

// resultOf wraps a job to keep its Result (RunOnce records only the counts).
func resultOf(j maintenance.Job, into *maintenance.Result) maintenance.Job {
	return resultJob{Job: j, into: into}
}

type resultJob struct {
	maintenance.Job
	into *maintenance.Result
}

func (r resultJob) Run(ctx context.Context, dry bool) (maintenance.Result, error) {
	res, err := r.Job.Run(ctx, dry)
	*r.into = res
	return res, err
}

// summary is the one line a run prints, e.g.
// "history: moved 12 flights by operation day, oldest 2026-11-20, newest 2026-11-25 (took 1.2s)".
func summary(job string, r maintenance.Result, took time.Duration, dry bool) string {
	var b strings.Builder
	verb := "done:"
	if dry {
		verb = "dry run, would do:"
	}
	fmt.Fprintf(&b, "%s: %s ", job, verb)
	part(&b, r.Swept, r.What)
	for _, p := range r.Also {
		b.WriteString("; ")
		part(&b, p.Swept, p.What)
	}
	if r.Note != "" {
		fmt.Fprintf(&b, " (%s)", r.Note)
	}
	fmt.Fprintf(&b, " in %s", took.Round(time.Millisecond))
	return b.String()
}

// part is one kind of rows of a summary: "12 flights, operation day from
// 2026-11-20 to 2026-11-25".
func part(b *strings.Builder, s store.Swept, what string) {
	rows, by, _ := strings.Cut(what, " by ")
	fmt.Fprintf(b, "%d %s", s.Rows, rows)
	if s.Oldest != nil {
		layout := time.RFC3339
		if strings.HasSuffix(what, "operation day") {
			layout = time.DateOnly
		}
		fmt.Fprintf(b, ", %s from %s to %s", by, s.Oldest.Format(layout), s.Newest.Format(layout))
	}
}
