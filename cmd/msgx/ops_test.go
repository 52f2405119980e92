package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/pump"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Helpers of the operator command tests (send, replay, status): real
// PostgreSQL and MariaDB, a configuration file naming them, and the real
// pipeline to make history.

var opsZone, _ = time.LoadLocation("Asia/Shanghai")

// opsEnv is a configured msgx: its databases and a --config file for them.
type opsEnv struct {
	pgURL, dsn string
	st         store.Store
	mb         *mailbox.Mailbox
	config     string // path of the YAML configuration
}

func newOpsEnv(t *testing.T, extraYAML ...string) *opsEnv {
	t.Helper()
	pg := testdb.Postgres(t)
	db, dsn := testdb.Mailbox(t)
	e := &opsEnv{pgURL: pg.URL, dsn: dsn, st: pgstore.New(pg.Pool), mb: mailbox.New(db, mailbox.WithZone(opsZone))}
	e.config = writeConfig(t, fmt.Sprintf("postgres:\n  url: %q\nmailbox:\n  dsn: %q\nairport:\n  timezone: Asia/Shanghai\n%s",
		pg.URL, dsn, strings.Join(extraYAML, "")))
	return e
}

func writeConfig(t *testing.T, yaml string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "msgx.yaml")
	require.NoError(t, os.WriteFile(p, []byte(yaml), 0o600))
	return p
}

// requireOneLine checks an error output: one line, prefixed by the command.
func requireOneLine(t *testing.T, cmd, stderr string) {
	t.Helper()
	require.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
	require.True(t, strings.HasPrefix(stderr, "msgx "+cmd+": "), stderr)
}

// history runs the real pump over messages sent one at a time; a message
// sent with down=true meets a mailbox outage and, with one attempt allowed,
// ends DEAD(EXHAUSTED).
type history struct {
	e    *opsEnv
	clk  *clock.Fake
	pump *pump.Pump

	mu   sync.Mutex
	down int64
}

func newHistory(e *opsEnv) *history {
	h := &history{e: e, clk: clock.NewFake(time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC))}
	cfg := pump.DefaultConfig()
	cfg.Decode.Location = opsZone
	cfg.MaxAttempts = 1
	h.pump = pump.New(e.st, h, nil, h.clk, slog.New(slog.NewTextHandler(io.Discard, nil)), cfg)
	return h
}

func (h *history) ReadRaws(ctx context.Context, ids []int64) (map[int64][]byte, error) {
	h.mu.Lock()
	down := h.down
	h.mu.Unlock()
	for _, id := range ids {
		if id == down {
			// A failure of this message (an outage would pause the pump
			// instead of counting an attempt).
			return nil, fmt.Errorf("read %d: injected failure", id)
		}
	}
	return h.e.mb.ReadRaws(ctx, ids)
}

func (h *history) RawSizes(ctx context.Context, ids []int64) (map[int64]int, error) {
	return h.e.mb.RawSizes(ctx, ids)
}

func (h *history) send(t *testing.T, xml string, down bool) int64 {
	t.Helper()
	id, err := h.e.mb.Insert(t.Context(), []byte(xml), h.clk.Now())
	require.NoError(t, err)
	_, err = h.e.st.Enqueue(t.Context(), []int64{id}, h.clk.Now())
	require.NoError(t, err)
	if down {
		h.mu.Lock()
		h.down = id
		h.mu.Unlock()
	}
	for range 100 {
		wait, err := h.pump.Step(t.Context())
		require.NoError(t, err)
		head, err := h.e.st.QueueHead(t.Context(), 1)
		require.NoError(t, err)
		if len(head) == 0 {
			break
		}
		h.clk.Advance(max(wait, time.Second))
	}
	h.mu.Lock()
	h.down = 0
	h.mu.Unlock()
	return id
}

// opsSeq numbers the messages of the tests, which run in parallel.
var opsSeq atomic.Int64

func sisMessage(typ, styp, body string) string {
	return fmt.Sprintf(`<MSG><META><SNDR>AODB</SNDR><SEQN>%d</SEQN><DTTM>20261202080000</DTTM><TYPE>%s</TYPE><STYP>%s</STYP></META>%s</MSG>`,
		7000+opsSeq.Add(1), typ, styp, body)
}

func schdDNLD(flids ...int64) string {
	var recs strings.Builder
	for _, f := range flids {
		fmt.Fprintf(&recs, `<FLTR><FLID>%d</FLID><ALCD>CA</ALCD><FLNO>CA%d</FLNO><MVIN>D</MVIN><SODT>02DEC261030</SODT></FLTR>`, f, f)
	}
	return sisMessage("SCHD", "DNLD", fmt.Sprintf("<SCHD><RECS>%d</RECS>%s</SCHD>", len(flids), recs.String()))
}

func flopSTND(flid int64, stand string) string {
	return sisMessage("FLOP", "STND", fmt.Sprintf("<FLOP><FLID>%d</FLID><STND>%s</STND></FLOP>", flid, stand))
}

func (e *opsEnv) message(t *testing.T, id int64) vocab.QueueEntry {
	t.Helper()
	m, err := e.st.Message(t.Context(), id)
	require.NoError(t, err)
	return m
}
