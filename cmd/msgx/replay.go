package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/oneline"
	"github.com/msgx-aodb/msgx/internal/plural"
	"github.com/msgx-aodb/msgx/internal/replay"
	"github.com/msgx-aodb/msgx/internal/sis"
)

func init() {
	register("replay", "move FAILED/DEAD messages of a replayable class back to PENDING (--dry-run previews)", runReplay)
}

const replayUsage = `usage: msgx replay (--id N [--id N ...] | --class CLASS) [--dry-run | --yes] [--json] [--config FILE]

Moves FAILED and DEAD messages of the replayable classes (CODEC_ERROR,
UNSUPPORTED, INFRA, EXHAUSTED) back to PENDING: attempts reset, identity kept,
the old error kept as audit. MALFORMED and PROTOCOL are never replayed.

A replayed message is processed again in MSG_ID order among what is still
unfinished, so it is applied over whatever later messages made of its flights
meanwhile. The plan lists each message (id, status, class, reason, attempts,
identity, flights) and warns where a flight, a snapshot day or a reference
record now holds the state of a later message.

  --dry-run  print the plan and change nothing
  --yes      replay: print the warnings, move the messages in batches (with a
             progress bar) and print the ids moved, one per line
  (neither)  print the plan, then ask for --yes

Exit codes: 0 done (or nothing to replay); 1 an id is unknown or not
replayable, or a database failed; 2 bad flags, a class that is never
replayed, no --yes, or an invalid configuration.`

// idList is a repeatable --id flag; each value may also be a comma list.
type idList []int64

func (l *idList) String() string { return fmt.Sprint([]int64(*l)) }

func (l *idList) Set(v string) error {
	for part := range strings.SplitSeq(v, ",") {
		id, err := strconv.ParseInt(strings.TrimSpace(part), 10, 64)
		if err != nil || id <= 0 {
			return fmt.Errorf("%q is not a message id (a positive integer)", part)
		}
		*l = append(*l, id)
	}
	return nil
}

func runReplay(ctx context.Context, args []string, s streams) int {
	fs := newFlags("replay", replayUsage)
	configPath := configFlag(fs)
	var ids idList
	fs.Var(&ids, "id", "mailbox id (MSG_ID) to replay; repeat the flag for more")
	class := fs.String("class", "", "replay every FAILED/DEAD message of this error class")
	dryRun := fs.Bool("dry-run", false, "print the plan and change nothing")
	yes := fs.Bool("yes", false, "really replay")
	asJSON := fs.Bool("json", false, "print the plan (and the ids moved) as JSON")
	if code, ok := parseFlags(fs, args, s); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(s.err, "msgx replay: unexpected argument %q (ids go with --id)\n", fs.Arg(0))
		return exitUsage
	}
	if *dryRun && *yes {
		fmt.Fprintln(s.err, "msgx replay: --dry-run and --yes exclude each other")
		return exitUsage
	}
	f := replay.Filter{IDs: ids, Class: strings.ToUpper(strings.TrimSpace(*class))}
	if err := f.Validate(); err != nil {
		msg := err.Error()
		switch {
		case len(ids) == 0 && f.Class == "":
			msg = "name --id N (repeatable) or --class CLASS"
		case len(ids) > 0 && f.Class != "":
			msg = "name --id N (repeatable) or --class CLASS, not both"
		}
		fmt.Fprintf(s.err, "msgx replay: %s\n", msg)
		return exitUsage
	}
	cfg, ok := loadConfig("replay", *configPath, s)
	if !ok {
		return exitUsage
	}

	st, err := openStore(ctx, cfg)
	if err != nil {
		fmt.Fprintf(s.err, "msgx replay: %s\n", err)
		return exitFailure
	}
	defer st.Close()
	// Without the mailbox the plan is still listed, each message with a
	// warning that nothing could be checked.
	var raws replay.RawReader
	mb, db, err := openMailbox(ctx, cfg)
	if err != nil {
		raws = unreachable{err}
	} else {
		defer db.Close()
		raws = mb
	}

	plan, err := replay.Preview(ctx, st, raws, f, replay.Options{Decode: decodeOptions(cfg)})
	if err != nil {
		fmt.Fprintf(s.err, "msgx replay: %s\n", oneline.Err(err))
		return exitFailure
	}
	if len(plan.Rejected) > 0 {
		parts := make([]string, len(plan.Rejected))
		for i, r := range plan.Rejected {
			parts[i] = fmt.Sprintf("%d %s", r.ID, r.Reason)
		}
		fmt.Fprintf(s.err, "msgx replay: not replayable: %s; nothing replayed\n", strings.Join(parts, "; "))
		return exitFailure
	}
	if plan.Total == 0 {
		fmt.Fprintf(s.err, "msgx replay: nothing to replay: no FAILED or DEAD message of class %s\n", f.Class)
		if *asJSON {
			writeJSON(s.out, plan)
		}
		return exitOK
	}

	if !*yes {
		if *asJSON {
			writeJSON(s.out, plan)
		} else {
			writePlan(s.out, plan)
		}
		if *dryRun {
			return exitOK
		}
		fmt.Fprintln(s.err, "msgx replay: review the plan above, then re-run with --yes to replay (--dry-run only previews)")
		return exitUsage
	}

	for _, w := range plan.Warnings {
		fmt.Fprintf(s.err, "warning: %s\n", w.Text)
	}
	bar := newBar(s.err, plan.Total, "replaying")
	moved, err := replay.Apply(ctx, st, f, time.Now(), func(done, total int) {
		bar.ChangeMax(total)
		_ = bar.Set(done)
	})
	if err != nil {
		_ = bar.Exit()
		printMoved(s.out, moved, *asJSON)
		fmt.Fprintf(s.err, "msgx replay: %s (the %s printed were replayed)\n", oneline.Err(err), plural.Count(len(moved), "id"))
		return exitFailure
	}
	_ = bar.Finish()
	printMoved(s.out, moved, *asJSON)
	fmt.Fprintf(s.err, "msgx replay: replayed %s; the service processes them in MSG_ID order ('msgx status')\n", plural.Count(len(moved), "message"))
	return exitOK
}

// decodeOptions are the service's codec options of a configuration, so the
// plan decodes messages as the pump does.
func decodeOptions(cfg config.Config) sis.Options {
	d := sis.DefaultOptions()
	if cfg.Location != nil {
		d.Location = cfg.Location
	}
	if cfg.MaxMessageBytes > 0 {
		d.MaxSize = cfg.MaxMessageBytes
	}
	d.IgnoreTypes = append([]string{}, cfg.IgnoreTypes...)
	d.IncludeDayBoundary = cfg.IncludeDayBoundary
	return d
}

// unreachable is the mailbox when it could not be opened.
type unreachable struct{ err error }

func (u unreachable) ReadRaws(context.Context, []int64) (map[int64][]byte, error) { return nil, u.err }

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

func printMoved(w io.Writer, moved []int64, asJSON bool) {
	if asJSON {
		writeJSON(w, struct {
			Replayed []int64 `json:"replayed"`
		}{moved})
		return
	}
	for _, id := range moved {
		fmt.Fprintln(w, id)
	}
}

// writePlan prints the plan for a human: a summary, one line per message,
// then the warnings.
func writePlan(w io.Writer, p replay.Plan) {
	what := "ids " + strings.Trim(fmt.Sprint(p.Filter.IDs), "[]")
	if p.Filter.Class != "" {
		what = "class " + p.Filter.Class
	}
	fmt.Fprintf(w, "replay of %s: %s would go back to PENDING", what, plural.Count(p.Total, "message"))
	if p.Truncated {
		fmt.Fprintf(w, " (the first %d listed)", len(p.Messages))
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "MSG_ID\tSTATUS\tCLASS\tATTEMPTS\tIDENTITY\tFLIGHTS\tREASON")
	for _, m := range p.Messages {
		identity := m.Identity
		if identity == "" {
			identity = "-"
		}
		flights := "-"
		if len(m.Flights) > 0 {
			flights = strings.Trim(fmt.Sprint(m.Flights), "[]")
			flights = strings.ReplaceAll(flights, " ", ",")
		}
		reason := strings.Join(strings.Fields(m.Reason), " ")
		if r := []rune(reason); len(r) > 80 {
			reason = string(r[:80]) + "…"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%s\t%s\t%s\n", m.ID, m.Status, m.Class, m.Attempts, identity, flights, reason)
	}
	_ = tw.Flush()
	if len(p.Warnings) == 0 {
		fmt.Fprintln(w, "\nno warnings: no flight, snapshot day or reference record holds a later message's state")
		return
	}
	fmt.Fprintf(w, "\n%s:\n", plural.Count(len(p.Warnings), "warning"))
	for _, wn := range p.Warnings {
		fmt.Fprintf(w, "  %s\n", wn.Text)
	}
}
