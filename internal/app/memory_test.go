package app

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/testdb"
)

// A real `msgx serve` with the default memory settings drains the shapes
// furthest from their raw size — a 30 000-flight download of 15 MiB, then
// two FLOPs of 15 MiB of 300 000 two-value records each on unknown flights
// — with a peak resident set (VmHWM) under 400 MB. One such FLOP alone took
// msgx past 1.4 GB before records were compact. (BenchmarkHostileMemory
// adds a FLOP of as many records on the download's flights, applied in
// slices; too slow for this test.)
func TestHostileShapesStayUnder400MB(t *testing.T) {
	if testing.Short() {
		t.Skip("drains 45 MiB of messages")
	}
	// Not parallel: its drain is timed and its peak measured, both under 60 s
	// on an idle machine.
	pg := testdb.Postgres(t)
	mbdb, dsn := testdb.Mailbox(t)
	addr := freeAddr(t)
	env := serviceEnv("MSGX_PG_URL="+pg.URL, "MSGX_MAILBOX_DSN="+dsn, "MSGX_HTTP_ADDR="+addr,
		"MSGX_AIRPORT_TZ=Asia/Shanghai", "MSGX_POLL_INTERVAL=50ms", "MSGX_BACKFILL_INTERVAL=200ms")
	const flights = 30_000
	records := make([]string, flights)
	pad := strings.Repeat("r", (15<<20)/flights-len(fltr(flights, "<STND>201</STND><REMC></REMC>"))-16)
	for i := range records {
		records[i] = fltr(int64(i+1), "<STND>201</STND><REMC>"+pad+"</REMC>")
	}
	tiny := func(seqn int, flid func(i int) int) string {
		var b strings.Builder
		for i := range 300_000 {
			fmt.Fprintf(&b, "<FLOP><FLID>%d</FLID><STND>%d</STND></FLOP>", flid(i), i%1000)
		}
		return sisMsg("FLOP", "STND", seqn, b.String())
	}
	mb := mailbox.New(mbdb, mailbox.WithZone(shanghai))
	for _, m := range []string{
		dnld(1, records...),
		tiny(2, func(i int) int { return 1_000_000 + i }),
		tiny(3, func(i int) int { return 2_000_000 + i }),
	} {
		_, err := mb.Insert(t.Context(), []byte(m), time.Now())
		require.NoError(t, err)
	}

	began := time.Now()
	bin, err := buildPlainBin() // the production build: a race build's memory is several times larger
	require.NoError(t, err)
	p := startBinary(t, bin, env, addr)
	eventually(t, 3*time.Minute, "3 messages terminal", func() bool {
		require.True(t, p.running(), "serve died: %s", p.stderr.String())
		return count(t, pg.Pool, "SELECT count(*) FROM proc_state WHERE status IN ('SUCCEEDED', 'SKIPPED', 'DEAD')") == 3
	})
	require.Equal(t, 1, succeeded(t, pg.Pool), "the download applied (the FLOPs match no flight): %s", p.stderr.String())
	t.Logf("drained in %s", time.Since(began))
	hwm := vmHWM(t, p.cmd.Process.Pid)
	t.Logf("peak resident set %.0f MB", hwm/1e6)
	require.LessOrEqual(t, hwm, 400e6, "peak resident set of msgx serve")
	code, _ := p.terminate(t, 10*time.Second)
	require.Equal(t, 0, code)
}

// vmHWM is the peak resident set of a process, in bytes.
func vmHWM(t *testing.T, pid int) float64 {
	t.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(status))
	for sc.Scan() {
		var kb float64
		if _, err := fmt.Sscanf(sc.Text(), "VmHWM: %f kB", &kb); err == nil {
			return kb * 1024
		}
	}
	t.Fatal("no VmHWM in /proc/<pid>/status")
	return 0
}
