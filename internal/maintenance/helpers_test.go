package maintenance

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/pump"
	"github.com/msgx-aodb/msgx/internal/testenv"
)

var (
	shanghai = testenv.Zone
	start    = testenv.Start // 16:00 in Shanghai
)

// env is the pump and the jobs on the shared test environment.
type env struct {
	*testenv.Env
}

func newEnv(t testing.TB) *env {
	t.Helper()
	e := &env{Env: testenv.New(t)}
	cfg := pump.DefaultConfig()
	cfg.Decode.Location = shanghai
	e.Pump = pump.New(e.Store, e.Mailbox, nil, e.Clock, quiet(), cfg)
	return e
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func (e *env) base() Base { return Base{Store: e.Store, Clock: e.Clock, Batch: 100} }

func (e *env) history() *History {
	return &History{Base: e.base(), At: DailyAt{Hour: 3, Minute: 30, Location: shanghai},
		Retention: DefaultHistoryRetention, Enabled: true}
}

func (e *env) count(t testing.TB, query string, args ...any) int {
	t.Helper()
	var n int
	require.NoError(t, e.PG.Pool.QueryRow(t.Context(), query, args...).Scan(&n))
	return n
}

// SIS messages (docs/decode.md).

var seq atomic.Int64

func envelope(typ, styp, body string) string {
	return fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?>
<MSG>
 <META><SNDR>AODB</SNDR><SEQN>%d</SEQN><DTTM>20261202080000</DTTM><TYPE>%s</TYPE><STYP>%s</STYP></META>
 %s
</MSG>`, 1000+seq.Add(1), typ, styp, body)
}

// adft creates flights on 2 Dec 2026 (local), each with two gates.
func adft(flids ...int64) string {
	var recs strings.Builder
	for _, f := range flids {
		fmt.Fprintf(&recs, `<FLTR><FLID>%d</FLID><ALCD>CA</ALCD><FLNO>CA%d</FLNO><MVIN>D</MVIN><SODT>02DEC261030</SODT>`+
			`<GTDT GTNO="1"><GATE>A1</GATE></GTDT><GTDT GTNO="2"><GATE>A2</GATE></GTDT></FLTR>`, f, f)
	}
	return envelope("SCHD", "ADFT", fmt.Sprintf("<SCHD><RECS>%d</RECS>%s</SCHD>", len(flids), recs.String()))
}

func fdel(flid int64) string {
	return envelope("FDEL", "NONE", fmt.Sprintf("<FDEL><FLID>%d</FLID></FDEL>", flid))
}

// recClock records the waits asked of a fake clock.
type recClock struct {
	*clock.Fake
	mu    sync.Mutex
	waits []time.Duration
}

func (c *recClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	c.waits = append(c.waits, d)
	c.mu.Unlock()
	return c.Fake.After(d)
}

func (c *recClock) lastWait() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.waits) == 0 {
		return -1
	}
	return c.waits[len(c.waits)-1]
}

// countingJob counts its runs; block, when set, holds each run until closed.
type countingJob struct {
	name     string
	schedule Schedule
	runs     atomic.Int32
	block    chan struct{}
}

func (j *countingJob) Name() string       { return j.name }
func (j *countingJob) Schedule() Schedule { return j.schedule }
func (j *countingJob) Run(ctx context.Context, _ bool) (Result, error) {
	j.runs.Add(1)
	if j.block != nil {
		select {
		case <-j.block:
		case <-ctx.Done():
			return Result{}, ctx.Err()
		}
	}
	return Result{}, nil
}
