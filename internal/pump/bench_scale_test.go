//go:build scale

package pump

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/maintenance"
	"github.com/msgx-aodb/msgx/internal/sis/sistest"
	"github.com/msgx-aodb/msgx/internal/status"
)

// BenchmarkYearScale (issue #35, `make bench-scale`; build tag scale, so
// `make test` and `make bench` never build it): the same drain on an empty
// database and on one holding a year of history, interleaved (empty first in
// odd rounds, the year first in even ones), each round on fresh databases,
// and the big/empty ratios of
//
//   - flop-ratio: FLOP throughput (20 000 FLOPs of the realistic mix, wall
//     time of poller, pump and backfill as in msgx serve);
//   - resend-ratio: CPU per flight (msgx + PostgreSQL + MariaDB, drainCPU)
//     of a DNLD resend on a new day that changes every flight: the day's
//     first DNLD of 2 000 flights, then the same flights changed;
//   - status-ratio: what `msgx status` reads (status.Collect), the median of
//     five;
//   - <job>-ratio: one run of each maintenance job with the service's
//     defaults (no pause between batches).
//
// The history is testdata/yearscale/postgres.sql and mailbox.sql, generated
// in SQL: 10 M archived messages, 300 000 archived flights, 20 000 live
// flights over 14 days, 1 M delivered outbox rows, 2 M processed mailbox
// rows at MSGX_BENCH_SCALE=1 (the default; 0.1 for a tenth, to iterate),
// analyzed as autovacuum would have. MSGX_BENCH_SCALE_ROUNDS rounds (default
// 1); a ratio is of the rounds' medians, the absolute figures are logged.
func BenchmarkYearScale(b *testing.B) {
	scale := envFloat(b, "MSGX_BENCH_SCALE", 1)
	rounds := int(envFloat(b, "MSGX_BENCH_SCALE_ROUNDS", 1))
	for range b.N {
		var empty, big []scaleFigures
		for r := range rounds {
			// Every other round the year first: a drift of the machine over
			// the rounds then weighs on both sides alike.
			if r%2 == 0 {
				empty = append(empty, yearRun(b, 0))
				big = append(big, yearRun(b, scale))
			} else {
				big = append(big, yearRun(b, scale))
				empty = append(empty, yearRun(b, 0))
			}
			b.Logf("round %d: empty %s", r+1, empty[r])
			b.Logf("round %d: year  %s", r+1, big[r])
		}
		e, y := medianFigures(empty), medianFigures(big)
		b.ReportMetric(y.flopsPerSec/e.flopsPerSec, "flop-ratio")
		b.ReportMetric(y.resendPerFlight/e.resendPerFlight, "resend-ratio")
		b.ReportMetric(y.status/e.status, "status-ratio")
		b.ReportMetric(y.flopsPerSec, "year-flops/s")
		b.ReportMetric(y.resendPerFlight, "year-resend-µs/flight")
		b.ReportMetric(y.status*1000, "year-status-ms")
		for _, name := range slices.Sorted(maps.Keys(y.jobs)) {
			b.ReportMetric(y.jobs[name]/max(e.jobs[name], 1e-6), name+"-ratio")
			b.ReportMetric(y.jobs[name]*1000, "year-"+name+"-ms")
		}
	}
}

// scaleFigures are one drain's figures; times in seconds, CPU in µs.
type scaleFigures struct {
	flopsPerSec     float64
	resendPerFlight float64
	newPerFlight    float64
	status          float64
	jobs            map[string]float64
}

func (f scaleFigures) String() string {
	var jobs []string
	for _, name := range slices.Sorted(maps.Keys(f.jobs)) {
		jobs = append(jobs, fmt.Sprintf("%s %.3f s", name, f.jobs[name]))
	}
	return fmt.Sprintf("FLOPs %.0f msgs/s, DNLD new %.0f µs/flight, resend %.0f µs/flight, status %.3f s, jobs: %s",
		f.flopsPerSec, f.newPerFlight, f.resendPerFlight, f.status, strings.Join(jobs, ", "))
}

// yearRun is one round on fresh databases holding scale years of history
// (0: empty).
func yearRun(b *testing.B, scale float64) scaleFigures {
	const flights, n = 2000, 20000
	e := newEnv(b)
	if scale > 0 {
		began := time.Now()
		generateYear(b, e, scale)
		b.Logf("a year at scale %g generated in %s", scale, time.Since(began).Round(time.Second))
	}
	pgPID, myPID := postmasterPID(b, e), mariadbPID(b, e.MailboxDB)
	var f scaleFigures
	// The AODB's SEQN goes on from the history's (empty or not, the same
	// messages): a run's identities are neighbours of the newest archived
	// ones in the identity index, as on site.
	sistest.SeqAbove(yearSeqn)

	// The new day's first DNLD, then its resend changing every flight.
	_, err := e.Mailbox.Insert(b.Context(), []byte(dnld(flights)), e.Clock.Now())
	require.NoError(b, err)
	svc := startService(b, e) // one service all day, as on site
	defer svc.stop()
	first, _ := drainCPU(b, svc, pgPID, myPID, 1)
	f.newPerFlight = float64(first.total().Microseconds()) / flights
	resent := strings.ReplaceAll(dnld(flights), "<REMC>ok</REMC>", "<REMC>resent</REMC>")
	_, err = e.Mailbox.Insert(b.Context(), []byte(resent), e.Clock.Now())
	require.NoError(b, err)
	again, _ := drainCPU(b, svc, pgPID, myPID, 1)
	f.resendPerFlight = float64(again.total().Microseconds()) / flights

	fillMailbox(b, e, n, flights)
	report := pgStatements(b, e)
	began := time.Now()
	drainCPU(b, svc, pgPID, myPID, n)
	f.flopsPerSec = n / time.Since(began).Seconds()
	report(n)

	f.status = statusTime(b, e)
	f.jobs = jobTimes(b, e)
	return f
}

// yearSeqn is the first SEQN after the generated year's; the year ends
// there whatever its scale. Its SEQNs rise per subtype, ten of them, so the
// year (10.19 M messages) takes 1.02 M SEQNs below it, and the benchmark's
// stay inside the mailbox's mediumint (8 388 607): a SEQN beyond it would
// be backfilled as NULL with a warning per message.
const yearSeqn = 2_000_000

// generateYear fills both databases from testdata/yearscale.
func generateYear(b *testing.B, e *env, scale float64) {
	n := func(full int) string { return strconv.Itoa(max(1, int(float64(full)*scale))) }
	hst, live := n(10_000_000), n(190_000)
	hstN, _ := strconv.Atoi(hst)
	liveN, _ := strconv.Atoi(live)
	// The live flights whatever the scale: the new day's members must stay
	// below autovacuum's analyze threshold, as on site.
	vars := strings.NewReplacer("{{HST}}", hst, "{{LIVE}}", live, "{{FLIGHTS}}", "20000",
		"{{ARCHIVED}}", n(300_000), "{{EVENTS}}", n(1_000_000), "{{SNAPS}}", n(20_000),
		"{{SKIP_DAY}}", "2026-12-02", // dnld()'s SODT
		"{{SEQN}}", strconv.Itoa(yearSeqn-(hstN+liveN)/10-1),
		"{{MAILBOX}}", n(2_000_000), "{{LAST}}", strconv.Itoa(hstN+liveN))
	for _, stmt := range scaleStatements(b, "postgres.sql", vars) {
		_, err := e.PG.Pool.Exec(b.Context(), stmt)
		require.NoError(b, err, stmt)
	}
	// Without the mailbox client's read timeout (30 s): 2 M rows take longer
	// on a busy machine.
	cfg, err := mysql.ParseDSN(e.MailboxDSN)
	require.NoError(b, err)
	cfg.ReadTimeout, cfg.WriteTimeout = 0, 0
	conn, err := mysql.NewConnector(cfg)
	require.NoError(b, err)
	mb := sql.OpenDB(conn)
	defer mb.Close()
	for _, stmt := range scaleStatements(b, "mailbox.sql", vars) {
		_, err := mb.ExecContext(b.Context(), stmt)
		require.NoError(b, err, stmt)
	}
}

// scaleStatements are a testdata/yearscale file's statements (one per
// ";\n"), placeholders replaced.
func scaleStatements(b *testing.B, name string, vars *strings.Replacer) []string {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "yearscale", name))
	require.NoError(b, err)
	var out []string
	for _, s := range strings.Split(vars.Replace(string(data)), ";\n") {
		var lines []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.HasPrefix(strings.TrimSpace(l), "--") {
				lines = append(lines, l)
			}
		}
		if s := strings.TrimSpace(strings.Join(lines, "\n")); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// statusTime is the median of five reads of what `msgx status` reports.
func statusTime(b *testing.B, e *env) float64 {
	var ts []float64
	for range 5 {
		began := time.Now()
		_, err := status.Collect(b.Context(), e.Store, time.Now())
		require.NoError(b, err)
		ts = append(ts, time.Since(began).Seconds())
	}
	slices.Sort(ts)
	return ts[len(ts)/2]
}

// jobTimes runs each standard maintenance job once, with the defaults but
// no pause between batches, and returns its time.
func jobTimes(b *testing.B, e *env) map[string]float64 {
	cfg := config.Defaults()
	cfg.Maintenance.Pause = 0
	out := map[string]float64{}
	for _, j := range maintenance.Standard(cfg, e.Store, clock.Real{}).Jobs() {
		began := time.Now()
		_, err := j.Run(context.WithoutCancel(b.Context()), false)
		require.NoError(b, err, j.Name())
		out[j.Name()] = time.Since(began).Seconds()
	}
	return out
}

// medianFigures is each figure's median over the rounds.
func medianFigures(fs []scaleFigures) scaleFigures {
	med := func(get func(scaleFigures) float64) float64 {
		vs := make([]float64, len(fs))
		for i, f := range fs {
			vs[i] = get(f)
		}
		slices.Sort(vs)
		return vs[len(vs)/2]
	}
	out := scaleFigures{
		flopsPerSec:     med(func(f scaleFigures) float64 { return f.flopsPerSec }),
		resendPerFlight: med(func(f scaleFigures) float64 { return f.resendPerFlight }),
		newPerFlight:    med(func(f scaleFigures) float64 { return f.newPerFlight }),
		status:          med(func(f scaleFigures) float64 { return f.status }),
		jobs:            map[string]float64{},
	}
	for name := range fs[0].jobs {
		out.jobs[name] = med(func(f scaleFigures) float64 { return f.jobs[name] })
	}
	return out
}

func envFloat(b *testing.B, name string, def float64) float64 {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	v, err := strconv.ParseFloat(s, 64)
	require.NoError(b, err, name)
	return v
}
