package pump

import (
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// BenchmarkSnapshotCPU (issue #23): CPU time per flight of one DNLD drained
// from the mailbox by poller, pump and backfill as in `msgx serve`
// (runService), measured as BenchmarkTenantCPU measures a drain:
//
//   - new: the DNLD of flights that do not exist yet (the first download);
//   - same: the same flights downloaded again, unchanged (the daily resend:
//     every flight read back, compared, nothing changed).
//
// Each case drains one DNLD of 2 000 and of 10 000 flights with every
// repeated group (fullRecord) and reports msgx-µs/flight, pg-µs/flight (the
// whole server), pg-own-µs/flight (the benchmark's backends) and
// total-µs/flight (msgx + the whole PostgreSQL + MariaDB, as
// BenchmarkTenantCPU's drainCPU measures a drain). With
// MSGX_BENCH_PG_STATEMENTS (scripts/pg-profile.sh) it logs the measured
// DNLD's statements and table work per flight.
func BenchmarkSnapshotCPU(b *testing.B) {
	for _, again := range []bool{false, true} {
		for _, flights := range []int{2000, 10000} {
			name := "new/"
			if again {
				name = "same/"
			}
			b.Run(name+strconv.Itoa(flights), func(b *testing.B) {
				for range b.N {
					snapshotCPU(b, flights, again)
				}
			})
		}
	}
}

func snapshotCPU(b *testing.B, flights int, again bool) {
	e := newEnv(b)
	msgs := 1
	if again {
		_, err := e.Mailbox.Insert(b.Context(), []byte(dnld(flights)), e.Clock.Now())
		require.NoError(b, err)
		runService(b, e, msgs)
		msgs++
	}
	_, err := e.Mailbox.Insert(b.Context(), []byte(dnld(flights)), e.Clock.Now())
	require.NoError(b, err)

	statements := pgStatements(b, e)
	c, _ := drainCPU(b, e, postmasterPID(b, e), mariadbPID(b, e.MailboxDB), msgs)
	statements(flights)

	requireAllSucceeded(b, e, msgs)

	perFlight := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(flights) }
	b.ReportMetric(perFlight(c.self), "msgx-µs/flight")
	b.ReportMetric(perFlight(c.pg), "pg-µs/flight")
	b.ReportMetric(perFlight(c.own), "pg-own-µs/flight")
	b.ReportMetric(perFlight(c.total()), "total-µs/flight")
}
