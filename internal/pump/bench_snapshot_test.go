package pump

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// BenchmarkSnapshotCPU (issue #23): CPU time per flight of one DNLD drained
// from the mailbox by poller, pump and backfill as in `msgx serve`
// (service), measured as BenchmarkTenantCPU measures a drain:
//
//   - new: the DNLD of flights that do not exist yet (the first download);
//   - same: the same flights downloaded again, unchanged (the daily resend:
//     every flight compared, nothing changed);
//   - changed: the same flights downloaded again, each with one value
//     changed (REMC; issue #34's resend changing every flight: every flight
//     compared, rewritten, its events written);
//   - changed-restarted: changed, by a service started after the first
//     download (its state cache empty: every flight read back in full).
//
// The resends are drained by the service that drained the first download,
// as msgx serve runs all day: the states it wrote are in the pump's cache
// (up to its bound, 5 000 flights), so a resend reads their stamps only.
//
// Each case drains one DNLD of 2 000 and of 10 000 flights with every
// repeated group (fullRecord) and reports msgx-µs/flight, pg-µs/flight (the
// whole server), pg-own-µs/flight (the benchmark's backends) and
// total-µs/flight (msgx + the whole PostgreSQL + MariaDB, as
// BenchmarkTenantCPU's drainCPU measures a drain). With
// MSGX_BENCH_PG_STATEMENTS (scripts/pg-profile.sh) it logs the measured
// DNLD's statements and table work per flight.
func BenchmarkSnapshotCPU(b *testing.B) {
	for _, resend := range []string{"new", "same", "changed", "changed-restarted"} {
		for _, flights := range []int{2000, 10000} {
			b.Run(resend+"/"+strconv.Itoa(flights), func(b *testing.B) {
				for range b.N {
					snapshotCPU(b, flights, resend)
				}
			})
		}
	}
}

// snapshotCPU drains one DNLD of flights: the first download (resend "new")
// or, after it, the same flights again ("same") or each changed ("changed",
// "changed-restarted").
func snapshotCPU(b *testing.B, flights int, resend string) {
	e := newEnv(b)
	svc := startService(b, e)
	defer func() { svc.stop() }()
	msgs := 1
	if resend != "new" {
		_, err := e.Mailbox.Insert(b.Context(), []byte(dnld(flights)), e.Clock.Now())
		require.NoError(b, err)
		svc.drain(b, msgs)
		msgs++
	}
	if resend == "changed-restarted" {
		svc.stop()
		svc = startService(b, e)
	}
	measured := dnld(flights) // a SEQN of its own: not a duplicate of the first
	if strings.HasPrefix(resend, "changed") {
		measured = strings.ReplaceAll(measured, "<REMC>ok</REMC>", "<REMC>resent</REMC>")
	}
	_, err := e.Mailbox.Insert(b.Context(), []byte(measured), e.Clock.Now())
	require.NoError(b, err)

	statements := pgStatements(b, e)
	c, _ := drainCPU(b, svc, postmasterPID(b, e), mariadbPID(b, e.MailboxDB), msgs)
	statements(flights)

	requireAllSucceeded(b, e, msgs)

	perFlight := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(flights) }
	b.ReportMetric(perFlight(c.self), "msgx-µs/flight")
	b.ReportMetric(perFlight(c.pg), "pg-µs/flight")
	b.ReportMetric(perFlight(c.own), "pg-own-µs/flight")
	b.ReportMetric(perFlight(c.total()), "total-µs/flight")
	b.ReportMetric(float64(c.allocs)/float64(flights), "allocs/flight")
	b.ReportMetric(float64(c.allocBytes)/1024/float64(flights), "alloc-KB/flight")
}
