package pump

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/msgx-aodb/msgx/internal/vocab"
	"github.com/stretchr/testify/require"
)

// BenchmarkLargeMessagesMemory drains 40 messages of 15 MiB each (FLOPs the
// codec accepts, their bulk a comment: each holds its whole XML decoded)
// with the service's default settings (poller, pump and backfill as in
// `msgx serve`, gc.percent and gc.memory-limit), and reports the peak
// resident set of the process while draining next to the same drain of 40
// small messages in the same run, and the resident set once drained
// (memory is returned after the burst). Target: peak ≤ 400 MB.
func BenchmarkLargeMessagesMemory(b *testing.B) {
	const n = 40
	for range b.N {
		small := drainMemory(b, n, 1<<10)
		large := drainMemory(b, n, 15<<20)
		b.ReportMetric(mb(large.peak), "peak-rss-MB")
		b.ReportMetric(mb(small.peak), "small-peak-rss-MB")
		b.ReportMetric(float64(large.peak)/float64(small.peak), "ratio")
		b.ReportMetric(mb(large.before), "rss-before-MB")
		b.ReportMetric(mb(large.after), "rss-after-MB")
		b.ReportMetric(large.elapsed.Seconds(), "drain-s")
	}
}

func mb(bytes uint64) float64 { return float64(bytes) / 1e6 }

type drained struct {
	before, peak, after uint64 // resident set in bytes
	elapsed             time.Duration
}

// drainMemory drains n stand changes of about size bytes each, on n
// flights, through the service; it measures the resident set before,
// during (its peak) and after.
func drainMemory(b *testing.B, n, size int) drained {
	b.Helper()
	e := newEnv(b)
	e.Send(b, dnld(n))
	e.StepUntilWait(b)
	ids := make([]int64, n)
	for i := range n {
		id, err := e.Mailbox.Insert(b.Context(), []byte(paddedFlop(int64(i+1), strconv.Itoa(500+i), size)), start)
		require.NoError(b, err)
		ids[i] = id
	}
	runtime.GC()
	debug.FreeOSMemory() // the messages the test built are not the service's
	var d drained
	d.before = procStatus(b, "VmRSS")
	stop := sampleRSS(b)
	d.elapsed, _ = runService(b, e, n+1)
	d.peak = stop()
	d.after = procStatus(b, "VmRSS")
	for _, id := range ids {
		require.Equal(b, vocab.StatusSucceeded, e.msg(b, id).Status)
	}
	return d
}

// sampleRSS starts measuring the peak resident set: the kernel's
// high-water mark, reset when the kernel permits (clear_refs), and VmRSS
// sampled every 5 ms (the measure when it does not). stop returns the peak.
func sampleRSS(tb testing.TB) (stop func() uint64) {
	reset := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
	var (
		mu   sync.Mutex
		peak = procStatus(tb, "VmRSS")
		done = make(chan struct{})
		wg   sync.WaitGroup
	)
	wg.Go(func() {
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				rss := procStatus(tb, "VmRSS")
				mu.Lock()
				peak = max(peak, rss)
				mu.Unlock()
			}
		}
	})
	return func() uint64 {
		close(done)
		wg.Wait()
		if reset {
			peak = max(peak, procStatus(tb, "VmHWM"))
		}
		return peak
	}
}

// procStatus reads a kB field of /proc/self/status, in bytes.
func procStatus(tb testing.TB, field string) uint64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		tb.Skipf("no /proc/self/status: %v", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(status))
	for sc.Scan() {
		var kb uint64
		if _, err := fmt.Sscanf(sc.Text(), field+": %d kB", &kb); err == nil {
			return kb << 10
		}
	}
	tb.Fatalf("no %s in /proc/self/status", field)
	return 0
}

// BenchmarkHostileMemory drains the shapes whose decoded size is furthest
// from their raw size, with the service's defaults: a 30 000-flight DNLD,
// then 4 FLOPs of about 15 MiB, each 300 000 two-value records, the first
// on the download's flights (10 records a flight: applied in slices), the
// others on unknown flights. It reports the peak resident set of the
// process and the drain time. Target: peak ≤ 400 MB.
func BenchmarkHostileMemory(b *testing.B) {
	for range b.N {
		e := newEnv(b)
		msgs := []string{dnldOf(30_000, 15<<20), tinyFlop(300_000, 1, 30_000)}
		for i := range 3 {
			msgs = append(msgs, tinyFlop(300_000, int64(1_000_000*(i+1)), 300_000))
		}
		for _, m := range msgs {
			_, err := e.Mailbox.Insert(b.Context(), []byte(m), start)
			require.NoError(b, err)
		}
		runtime.GC()
		debug.FreeOSMemory() // the messages the test built are not the service's
		stop := sampleRSS(b)
		elapsed, _ := runService(b, e, 5)
		peak := stop()
		b.ReportMetric(mb(peak), "peak-rss-MB")
		b.ReportMetric(elapsed.Seconds(), "drain-s")
	}
}

// tinyFlop is a FLOP/STND of n records of two short values each, on the
// flights from flid on, round the next `flights` of them.
func tinyFlop(n int, flid int64, flights int) string {
	var body strings.Builder
	for i := range n {
		fmt.Fprintf(&body, "<FLOP><FLID>%d</FLID><STND>%d</STND></FLOP>", flid+int64(i%flights), i%1000)
	}
	return envelope("FLOP", "STND", body.String())
}

// dnldOf is a DNLD of n flights padded to at most size bytes with a remark.
func dnldOf(n, size int) string {
	recs := make([]string, n)
	pad := max(size/n-len(fltr(1_000_000, "<STND>201</STND><REMC></REMC>"))-16, 0)
	for i := range recs {
		recs[i] = fltr(int64(i+1), "<STND>201</STND><REMC>"+strings.Repeat("r", pad)+"</REMC>")
	}
	return schd("DNLD", recs...)
}
