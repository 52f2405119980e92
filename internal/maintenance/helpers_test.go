package maintenance

import (
	"context"
	"database/sql"
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
	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/pipeline"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/testdb"
)

var (
	shanghai, _ = time.LoadLocation("Asia/Shanghai")
	start       = time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC) // 16:00 in Shanghai
)

// env is the pump and the jobs on real databases with a fake clock.
type env struct {
	pg   *testdb.PG
	st   store.Store
	mbdb *sql.DB
	mb   *mailbox.Mailbox
	clk  *clock.Fake
	pump *pipeline.Pump
}

func newEnv(t testing.TB) *env {
	t.Helper()
	pg := testdb.Postgres(t)
	mbdb, _ := testdb.Mailbox(t)
	e := &env{pg: pg, st: pgstore.New(pg.Pool), mbdb: mbdb, mb: mailbox.New(mbdb, mailbox.WithZone(shanghai)), clk: clock.NewFake(start)}
	cfg := pipeline.DefaultPumpConfig()
	cfg.Decode.Location = shanghai
	e.pump = pipeline.NewPump(e.st, e.mb, nil, e.clk, quiet(), cfg)
	return e
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func (e *env) base() Base { return Base{Store: e.st, Clock: e.clk, Batch: 100} }

func (e *env) history() *History {
	return &History{Base: e.base(), At: DailyAt{Hour: 3, Minute: 30, Location: shanghai},
		Retention: DefaultHistoryRetention, Enabled: true}
}

// send writes a message into the mailbox and enqueues it, as the poller would.
func (e *env) send(t testing.TB, xml string) int64 {
	t.Helper()
	id, err := e.mb.Insert(t.Context(), []byte(xml), e.clk.Now())
	require.NoError(t, err)
	_, err = e.st.Enqueue(t.Context(), []int64{id}, e.clk.Now())
	require.NoError(t, err)
	return id
}

// drain steps the pump until the queue is empty.
func (e *env) drain(t testing.TB) {
	t.Helper()
	for range 1000 {
		_, err := e.pump.Step(t.Context())
		require.NoError(t, err)
		head, err := e.st.QueueHead(t.Context(), 1)
		require.NoError(t, err)
		if len(head) == 0 {
			return
		}
	}
	t.Fatal("queue not drained")
}

func (e *env) count(t testing.TB, query string, args ...any) int {
	t.Helper()
	var n int
	require.NoError(t, e.pg.Pool.QueryRow(t.Context(), query, args...).Scan(&n))
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
