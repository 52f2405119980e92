package pump

import (
	"context"
	"io"
	"log/slog"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/backfill"
	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/gctune"
	"github.com/msgx-aodb/msgx/internal/ingress"
	"github.com/msgx-aodb/msgx/internal/wake"
)

// runService runs poller, pump and backfill like `msgx serve` (service)
// until every message is terminal and backfilled, then stops them; it
// returns the elapsed time and the largest live heap sampled meanwhile.
func runService(tb testing.TB, e *env, n int) (time.Duration, uint64) {
	tb.Helper()
	s := startService(tb, e)
	defer s.stop()
	return s.drain(tb, n)
}

// service is the pump and the backfiller running as in `msgx serve`, with
// its default settings, on the real clock, from startService to stop:
// what the pump keeps from message to message (its state cache) carries
// over from one drain to the next, as in a service that runs all day. The
// poller runs only inside drain, so a benchmark fills the mailbox while
// nothing reads it.
type service struct {
	e         *env
	enqueued  *wake.Signal
	sizes     *ingress.SizeHints
	cancel    context.CancelFunc
	done      sync.WaitGroup
	restoreGC func()
}

func startService(tb testing.TB, e *env) *service {
	tb.Helper()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	// The garbage collector of msgx serve (gc.percent, gc.memory-limit).
	d := config.Defaults()
	s := &service{e: e, enqueued: wake.New(), sizes: ingress.NewSizeHints(), // as internal/app wires them
		restoreGC: gctune.Apply(d.GCPercent, d.MemoryLimit(), quiet)}
	real := clock.Real{}
	bf := backfill.New(e.Store, e.Mailbox, real, quiet, backfill.DefaultConfig())
	cfg := e.pump.cfg
	cfg.Enqueued = s.enqueued
	pump := New(e.Store, s.sizes.Reader(e.Mailbox), bf.Notify, real, quiet, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	s.done.Add(2)
	go func() { defer s.done.Done(); assert.NoError(tb, pump.Run(ctx)) }()
	go func() { defer s.done.Done(); assert.NoError(tb, bf.Run(ctx)) }()
	return s
}

// stop stops the pump and the backfiller and waits for them.
func (s *service) stop() {
	s.cancel()
	s.done.Wait()
	s.restoreGC()
}

// drain runs the poller until every message of the mailbox is terminal and
// backfilled (n of them, for the failure's report); it returns the elapsed
// time and the largest live heap sampled meanwhile.
func (s *service) drain(tb testing.TB, n int) (time.Duration, uint64) {
	tb.Helper()
	e := s.e
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	pcfg := ingress.DefaultConfig()
	pcfg.Enqueued, pcfg.Sizes = s.enqueued, s.sizes
	poller := ingress.NewPoller(e.Store, e.Mailbox, clock.Real{}, quiet, pcfg)

	// The newest row: the drain is over once the poller has passed it.
	// MAX reads one entry of the key; the list of every unprocessed id read
	// before read n rows of the mailbox inside the drain BenchmarkTenantCPU
	// measures (1 Handler_read_next per message that msgx serve never does).
	var last int64
	require.NoError(tb, e.MailboxDB.QueryRowContext(tb.Context(), "SELECT MAX(CMINMSGS_ID) FROM cminmsgs").Scan(&last))
	ctx, cancel := context.WithCancel(context.Background())
	polled := make(chan struct{})
	defer func() { cancel(); <-polled }()
	began := time.Now()
	go func() { defer close(polled); assert.NoError(tb, poller.Run(ctx)) }()
	var peak uint64
	var ms runtime.MemStats
	deadline := time.Now().Add(5 * time.Minute)
	for {
		if time.Now().After(deadline) {
			counts, _ := e.Store.QueueCounts(tb.Context())
			todos, _ := e.Store.DueBackfills(tb.Context(), time.Now().Add(time.Hour), 3)
			tb.Fatalf("service did not finish %d messages in time: %+v, todos %+v", n, counts, todos)
		}
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapInuse)
		// Cheap checks, each made only once the one before it passed, so
		// observing costs the service next to nothing: the poller passed the
		// newest row, no unfinished head, no todo left. (The todo check
		// reads the young backfill_todo's dead rows; made every 20 ms it was
		// ≈ 10 µs of PostgreSQL per FLOP message, the drain's largest read.)
		if done, err := serviceDone(tb.Context(), e.Store, last); err != nil || done {
			require.NoError(tb, err)
			return time.Since(began), peak
		}
		time.Sleep(20 * time.Millisecond) // observing progress, not ordering anything
	}
}
