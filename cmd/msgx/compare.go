package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/msgx-aodb/msgx/internal/compare"
	"github.com/msgx-aodb/msgx/internal/dbopen"
	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/oneline"
	"github.com/msgx-aodb/msgx/internal/sis"
)

func init() {
	register("compare", "compare two flight states field by field: two databases, or a database and a DNLD/RESP file", runCompare)
}

const compareUsage = `usage: msgx compare [--a URL] (--b URL | --dnld FILE) [--config FILE] [--day YYYY-MM-DD] [--strict [--ignore COLUMNS]] [--payloads] [--json] [--tz ZONE]

Compares the flight states of A with B field by field and prints every
difference: per flight every scalar (raw and parsed), every structure, every
detail list (count, order, ORDINAL, SOURCE_SEQ, each attribute), the
payload collections, lifecycle, operation day and FDAY. NULL and an empty
value differ. Each side is read in one snapshot (a read-only REPEATABLE
READ transaction), so a live database is never read half old, half new.
The bookkeeping columns (state_version, last_message_id, created_at,
updated_at, deleted_at) are each site's own and are left out unless
--strict; the summary prints every rule that left something out.

  --a URL --b URL     two msgx databases (e.g. a shadow instance and the
                      live one); --day limits both to one operation day;
                      --a defaults to postgres.url of the configuration
                      (--config / $MSGX_CONFIG, MSGX_PG_URL), like every
                      other command
  --a URL --dnld FILE a database against a DNLD/RESP file, what the AODB
                      says the days of the file are: only what each record
                      carries is compared, plus lifecycle (ACTIVE) and the
                      operation day; A is limited to the flights the file
                      lists and the ACTIVE flights of its days
  --strict            compare the bookkeeping columns too (a database and
                      its copy; two independently fed sites differ there)
  --ignore COLUMNS    with --strict, bookkeeping columns still not to
                      compare, comma separated
  --payloads          with --b, compare each flight's latest KAFKA:msg
                      event too (its type, and its payload field by field;
                      the payload's bookkeeping fields follow --strict)

Output: one line per difference on stdout (flight, group, item, field,
kind, both values), the summary on stderr; --json prints one JSON document
(differences and summary) on stdout instead. A progress bar is drawn on a
terminal.

Exit codes: 0 equal; 1 different; 2 nothing compared (no flight on either
side: an empty day, a DNLD without records), bad flags, an unreadable file
or a database failure.`

func runCompare(ctx context.Context, args []string, s streams) int {
	fs := newFlags("compare", compareUsage)
	configPath := configFlag(fs)
	aURL := fs.String("a", "", "PostgreSQL URL of msgx database A (default postgres.url of the configuration)")
	bURL := fs.String("b", "", "PostgreSQL URL of msgx database B")
	dnld := fs.String("dnld", "", "DNLD/RESP file to compare A with")
	dayFlag := fs.String("day", "", "operation day YYYY-MM-DD (default: every day; with --dnld the file's days)")
	ignoreFlag := fs.String("ignore", "", `with --strict: bookkeeping columns not to compare (comma list, or "bookkeeping")`)
	strict := fs.Bool("strict", false, "compare the bookkeeping columns too")
	payloads := fs.Bool("payloads", false, "compare each flight's latest KAFKA:msg event too (with --b)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	tzDefault := os.Getenv("MSGX_AIRPORT_TZ")
	if tzDefault == "" {
		tzDefault = sis.DefaultZone
	}
	tz := fs.String("tz", tzDefault, "airport time zone of the DNLD's times (env MSGX_AIRPORT_TZ)")
	if code, ok := parseFlags(fs, args, s); !ok {
		return code
	}
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(s.err, "msgx compare: "+format+"\n", a...)
		return exitUsage
	}
	switch {
	case fs.NArg() > 0:
		return usageErr("unexpected argument %q", fs.Arg(0))
	case (*bURL == "") == (*dnld == ""):
		return usageErr("give exactly one of --b and --dnld")
	case *payloads && *dnld != "":
		return usageErr("--payloads needs --b: a DNLD file has no KAFKA:msg events")
	}
	if *aURL == "" {
		cfg, ok := loadConfig("compare", *configPath, s)
		if !ok {
			return exitUsage
		}
		*aURL = cfg.PGURL
	}
	if *bURL != "" && sameDatabase(*aURL, *bURL) {
		return usageErr("--a and --b name the same database (%s): a database compared with itself always agrees; give --b the other instance's URL", redactURL(*bURL))
	}
	var day *time.Time
	if *dayFlag != "" {
		d, err := time.Parse(time.DateOnly, *dayFlag)
		if err != nil {
			return usageErr("--day %q: want YYYY-MM-DD", *dayFlag)
		}
		day = &d
	}
	ignore, err := parseIgnore(*ignoreFlag)
	if err != nil {
		return usageErr("%v", err)
	}
	if !*strict {
		ignore, _ = parseIgnore("bookkeeping")
	}
	loc, err := time.LoadLocation(*tz)
	if err != nil {
		return usageErr("--tz %q: %v", *tz, err)
	}

	rep := &compare.Report{A: redactURL(*aURL), Strict: *strict, Ignored: ignore}
	opt := compare.Options{Ignore: ignore}
	var b map[int64]*flight.State
	var snap *compare.Snapshot
	if *dnld != "" {
		raw, err := os.ReadFile(*dnld)
		if err != nil {
			return usageErr("%v", err)
		}
		sopt := sis.DefaultOptions()
		sopt.Location = loc
		if snap, err = compare.FromSnapshot(raw, sopt); err != nil {
			return usageErr("%s: %v", *dnld, err)
		}
		b, opt.Masks = snap.States, snap.Masks
		rep.B = "DNLD file " + *dnld
		rep.Notes = append(rep.Notes,
			"B is a DNLD/RESP file: per flight only the elements its record carries are compared, plus lifecycle (a listed flight is ACTIVE) and operation day; FDAY, versions, message ids and timestamps are not in a DNLD and are not compared",
			"A is limited to the flights the file lists and the ACTIVE flights of its operation days")
	}

	load := compare.LoadOptions{Day: day, Payloads: *payloads}
	sideA, err := loadSide(ctx, s, *aURL, "--a", "reading A", load)
	if err != nil {
		fmt.Fprintf(s.err, "msgx compare: %v\n", err)
		return exitUsage
	}
	a := sideA.States
	if snap != nil {
		a = compare.ScopeToSnapshot(a, snap)
		if day != nil {
			a, b = onDay(a, *day), onDay(b, *day)
		}
	} else {
		rep.B = redactURL(*bURL)
		sideB, err := loadSide(ctx, s, *bURL, "--b", "reading B", load)
		if err != nil {
			fmt.Fprintf(s.err, "msgx compare: %v\n", err)
			return exitUsage
		}
		b = sideB.States
		if *payloads {
			opt.OutboundA, opt.OutboundB = sideA.Outbound, sideB.Outbound
			rep.Notes = append(rep.Notes, "each flight's latest KAFKA:msg event is compared too (group KAFKA:msg): its type, and its payload field by field but for the ignored bookkeeping fields")
		}
	}
	rep.Scope = scopeText(day, snap)
	rep.Notes = append(rep.Notes, "detail rows are compared as the flight state holds them: their RECORD_VERSION, CREATED_AT and UPDATED_AT are write bookkeeping and not part of it")

	flights := len(a) // the union of the two sides: Compare's steps
	for id := range b {
		if _, ok := a[id]; !ok {
			flights++
		}
	}
	bar := newBar(s.err, flights, "comparing")
	opt.Progress = func() { _ = bar.Add(1) }
	rep.Diffs, rep.Summary = compare.Compare(a, b, opt)
	_ = bar.Finish()

	if *asJSON {
		err = rep.WriteJSON(s.out)
	} else if err = rep.WriteText(s.out); err == nil {
		err = rep.WriteSummary(s.err)
	}
	if err != nil {
		fmt.Fprintf(s.err, "msgx compare: %v\n", err)
		return exitUsage
	}
	if rep.Empty() {
		if *asJSON { // the text summary says it already
			fmt.Fprintf(s.err, "msgx compare: nothing was compared: neither side has a flight in %s\n", rep.Scope)
		}
		return exitUsage
	}
	if !rep.Equal() {
		return exitFailure
	}
	return exitOK
}

// loadSide reads the flights of one database in one snapshot, with a
// progress bar.
func loadSide(ctx context.Context, s streams, rawURL, flagName, what string, opt compare.LoadOptions) (*compare.Side, error) {
	pool, err := dbopen.Postgres(ctx, rawURL, flagName, opsDB)
	if err != nil {
		return nil, err
	}
	defer pool.Close()
	bar := newBar(s.err, -1, what)
	defer bar.Finish() //nolint:errcheck // drawing only
	opt.Progress = func(n int) { _ = bar.Set(n) }
	side, err := compare.Load(ctx, pool, opt)
	if err != nil {
		return nil, fmt.Errorf("%s: read flights: %s", flagName, oneline.Err(err))
	}
	return side, nil
}

// parseIgnore checks --ignore against the bookkeeping columns.
func parseIgnore(v string) ([]string, error) {
	var out []string
	for part := range strings.SplitSeq(v, ",") {
		part = strings.TrimSpace(part)
		switch {
		case part == "":
		case part == "bookkeeping":
			out = append(out, compare.Bookkeeping...)
		case slices.Contains(compare.Bookkeeping, part):
			out = append(out, part)
		default:
			return nil, fmt.Errorf("--ignore %q: only bookkeeping columns may be ignored (%s, or bookkeeping)", part, strings.Join(compare.Bookkeeping, ", "))
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

func onDay(m map[int64]*flight.State, day time.Time) map[int64]*flight.State {
	out := map[int64]*flight.State{}
	for id, s := range m {
		if s.OperationDay.Format(time.DateOnly) == day.Format(time.DateOnly) {
			out[id] = s
		}
	}
	return out
}

func scopeText(day *time.Time, snap *compare.Snapshot) string {
	switch {
	case day != nil:
		return "operation day " + day.Format(time.DateOnly)
	case snap != nil:
		days := make([]string, len(snap.Days))
		for i, d := range snap.Days {
			days[i] = d.Format(time.DateOnly)
		}
		return "operation days of the file: " + strings.Join(days, ", ")
	}
	return "every operation day"
}

// redactURL hides the password of a database URL in the report.
// sameDatabase says whether two PostgreSQL URLs (or key=value strings) name
// one database: the same hosts, ports and database name, whoever connects.
func sameDatabase(a, b string) bool {
	ca, errA := pgconn.ParseConfig(a)
	cb, errB := pgconn.ParseConfig(b)
	if errA != nil || errB != nil {
		return a == b
	}
	return ca.Host == cb.Host && ca.Port == cb.Port && ca.Database == cb.Database
}

func redactURL(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return u.Redacted()
	}
	return "(database URL)"
}
