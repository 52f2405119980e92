package relay

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/kafka"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

const (
	topicMsg   = "msgx.flight.msg"
	topicSchd  = "msgx.flight.schd"
	partitions = 6
)

var start = time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)

// env is a relay on a real PostgreSQL and a 3-broker kfake cluster, with a
// fake clock.
type env struct {
	st   store.Store
	clk  *clock.Fake
	kf   *kfake.Cluster
	kcfg kafka.Config
	cl   *kgo.Client
	cfg  Config
	obs  *counter
	log  *slog.Logger
}

func newEnv(t testing.TB, mutate ...func(*Config)) *env {
	t.Helper()
	kf, err := kfake.NewCluster(kfake.NumBrokers(3), kfake.SeedTopics(partitions, topicMsg, topicSchd))
	require.NoError(t, err)
	t.Cleanup(kf.Close)
	kcfg := kafka.DefaultConfig()
	kcfg.Brokers = kf.ListenAddrs()
	kcfg.ProduceTimeout = 2 * time.Second
	kcfg.DialTimeout = time.Second
	// The tests lower topics' max.message.bytes to 64 KiB; the client's cap
	// must not exceed it (see kafka.Config.MaxRecordBytes).
	kcfg.MaxRecordBytes = 65536
	// A fault leaves the leader where it was: refresh metadata quickly, as
	// after a real leader change, so the client's retries fit the tests'
	// timeouts.
	cl, err := kafka.NewClient(kcfg, kgo.MetadataMinAge(100*time.Millisecond))
	require.NoError(t, err)
	t.Cleanup(cl.Close)
	cfg := Config{BatchSize: 100, MaxAttempts: 3, BackoffBase: time.Second, BackoffCap: 4 * time.Second, ProduceTimeout: 3 * time.Second, StoreTimeout: 10 * time.Second}
	for _, m := range mutate {
		m(&cfg)
	}
	return &env{
		st: pgstore.New(testdb.Postgres(t).Pool), clk: clock.NewFake(start), kf: kf, kcfg: kcfg, cl: cl, cfg: cfg,
		obs: &counter{}, log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
}

func (e *env) dispatcher() *Dispatcher {
	return NewDispatcher(e.st, e.cl, topicMsg, e.clk, e.log, e.obs, e.cfg)
}

func (e *env) aggregator() *Aggregator {
	return NewAggregator(e.st, e.cl, topicSchd, e.clk, e.log, e.obs, e.cfg)
}

// event is an outbox event of message msg for flight flid at version.
func event(target string, msg, flid, version int64, payload string) vocab.NewEvent {
	if payload == "" {
		payload = fmt.Sprintf(`{"flid":%d,"state_version":%d}`, flid, version)
	}
	return vocab.NewEvent{
		Target: target, EventType: vocab.EventUpsert, MsgID: msg, FLID: flid, StateVersion: version,
		IdempotencyKey: vocab.IdempotencyKey(msg, flid, version, target), Payload: []byte(payload), CreatedAt: start,
	}
}

func tombstone(target string, msg, flid, version int64) vocab.NewEvent {
	e := event(target, msg, flid, version, "")
	e.EventType = vocab.EventTombstone
	return e
}

// insert writes events as the pipeline does: a KAFKA:schd event is the
// flight's mark, its payload on its KAFKA:msg twin (added here when the test
// did not list it and it is not stored yet). Marks are set in the order
// listed, a later change of a flight replacing its mark.
func (e *env) insert(t testing.TB, events ...vocab.NewEvent) {
	t.Helper()
	listed := map[string]bool{} // twins listed or already stored
	for _, ev := range events {
		listed[ev.IdempotencyKey] = true
		if ev.Target == vocab.TargetSchd {
			for _, stored := range e.eventsOf(t, ev.MsgID) {
				listed[stored.IdempotencyKey] = true
			}
		}
	}
	var rows []vocab.NewEvent
	var marks []vocab.SchdMark
	for _, ev := range events {
		if ev.Target != vocab.TargetSchd {
			rows = append(rows, ev)
			continue
		}
		twin := ev
		twin.Target = vocab.TargetMsg
		twin.IdempotencyKey = vocab.IdempotencyKey(ev.MsgID, ev.FLID, ev.StateVersion, vocab.TargetMsg)
		if ev.EventType == vocab.EventTombstone {
			twin.Payload = nil
		}
		if !listed[twin.IdempotencyKey] {
			rows = append(rows, twin)
		}
		marks = append(marks, vocab.SchdMark{FLID: ev.FLID, MsgID: ev.MsgID, StateVersion: ev.StateVersion, EventType: ev.EventType, CreatedAt: ev.CreatedAt})
	}
	require.NoError(t, e.st.InsertEvents(t.Context(), rows))
	for _, m := range marks {
		require.NoError(t, e.st.MarkSchd(t.Context(), []vocab.SchdMark{m}))
	}
}

// marks are the pending KAFKA:schd marks, due or not.
func (e *env) marks(t testing.TB) []store.Event {
	t.Helper()
	due, err := e.st.DueSchdMarks(t.Context(), store.DueSchdMarksParams{Now: start.Add(24 * 365 * time.Hour), Max: 100_000})
	require.NoError(t, err)
	return due
}

// drain steps the dispatcher until nothing is pending or ready.
func (e *env) drain(t testing.TB, d *Dispatcher) {
	t.Helper()
	for range 10_000 {
		n, err := d.Step(t.Context())
		require.NoError(t, err)
		if n == 0 {
			return
		}
	}
	t.Fatal("dispatcher did not settle")
}

// settle steps the dispatcher until nothing is pending, letting any backoff
// pass on the fake clock.
func (e *env) settle(t testing.TB, d *Dispatcher) {
	t.Helper()
	for range 1000 {
		_, err := d.Step(t.Context())
		require.NoError(t, err)
		if len(e.pending(t, vocab.TargetMsg)) == 0 {
			return
		}
		e.clk.Advance(e.cfg.BackoffCap)
	}
	t.Fatal("dispatcher did not settle")
}

func (e *env) pending(t testing.TB, target string) []store.Event {
	t.Helper()
	evs, err := e.st.PendingEvents(t.Context(), target, 100_000)
	require.NoError(t, err)
	return evs
}

func (e *env) eventsOf(t testing.TB, msg int64) []store.Event {
	t.Helper()
	evs, err := e.st.EventsOfMessage(t.Context(), msg)
	require.NoError(t, err)
	return evs
}

// schdOf is the KAFKA:schd event of a message: its flight's pending mark,
// or the dead letter a mark left.
func (e *env) schdOf(t testing.TB, msg int64) store.Event {
	t.Helper()
	for _, ev := range e.marks(t) {
		if ev.MsgID == msg {
			return ev
		}
	}
	for _, ev := range e.eventsOf(t, msg) {
		if ev.Target == vocab.TargetSchd {
			return ev
		}
	}
	t.Fatalf("message %d has no KAFKA:schd mark or event", msg)
	return store.Event{}
}

// consume reads a topic from the start until it holds n records, or fails
// the test after a deadline.
func (e *env) consume(t testing.TB, topic string, n int) []*kgo.Record {
	t.Helper()
	return consume(t, e.kcfg, topic, n)
}

func consume(t testing.TB, kcfg kafka.Config, topic string, n int) []*kgo.Record {
	t.Helper()
	cl, err := kafka.NewClient(kcfg, kgo.ConsumeTopics(topic), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	require.NoError(t, err)
	defer cl.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	var recs []*kgo.Record
	for len(recs) < n {
		f := cl.PollFetches(ctx)
		if ctx.Err() != nil {
			t.Fatalf("consumed %d of %d records of %s before the deadline", len(recs), n, topic)
		}
		require.NoError(t, f.Err0())
		recs = append(recs, f.Records()...)
	}
	return recs
}

// count is how many records a topic holds now (sum of high watermarks).
func (e *env) count(t testing.TB, topic string) int {
	t.Helper()
	cl, err := kafka.NewClient(e.kcfg)
	require.NoError(t, err)
	defer cl.Close()
	offsets, err := kadm.NewClient(cl).ListEndOffsets(t.Context(), topic)
	require.NoError(t, err)
	total := 0
	offsets.Each(func(o kadm.ListedOffset) { total += int(o.Offset) })
	return total
}

func header(r *kgo.Record, key string) string {
	for _, h := range r.Headers {
		if h.Key == key {
			return string(h.Value)
		}
	}
	return ""
}

func headerInt(t testing.TB, r *kgo.Record, key string) int64 {
	t.Helper()
	v, err := strconv.ParseInt(header(r, key), 10, 64)
	require.NoError(t, err, "header %s", key)
	return v
}

// dedupe is the consumer rule of docs/events.md: drop a record whose
// idempotency key was seen. It returns the first occurrences in log order
// (per partition order, partitions concatenated as consumed) and how many
// were dropped.
func dedupe(recs []*kgo.Record) (kept []*kgo.Record, dropped int) {
	seen := map[string]bool{}
	for _, r := range recs {
		k := header(r, kafka.HeaderIdempotencyKey)
		if seen[k] {
			dropped++
			continue
		}
		seen[k] = true
		kept = append(kept, r)
	}
	return kept, dropped
}

// requirePerKeyOrder fails unless, per record key, the state versions rise
// strictly in log order.
func requirePerKeyOrder(t testing.TB, recs []*kgo.Record) {
	t.Helper()
	last := map[string]int64{}
	for _, r := range recs {
		v := headerInt(t, r, kafka.HeaderStateVersion)
		require.Greater(t, v, last[string(r.Key)], "flight %s: version %d after %d", r.Key, v, last[string(r.Key)])
		last[string(r.Key)] = v
	}
}

// syncBuffer is a log sink safe for concurrent writes.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func newTextLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// counter is an Observer that counts.
type counter struct {
	mu        sync.Mutex
	delivered map[string]int
	failed    map[string]int
	dead      map[string]int
	latencies []time.Duration
	up        map[string]bool // the last DependencyUp of each dependency
}

func (c *counter) DependencyUp(dependency string, up bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.up == nil {
		c.up = map[string]bool{}
	}
	c.up[dependency] = up
}

// dependencyUp is the last DependencyUp of dependency; known false before any.
func (c *counter) dependencyUp(dependency string) (up, known bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	up, known = c.up[dependency]
	return up, known
}

func (c *counter) EventDelivered(target string, latency time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.delivered == nil {
		c.delivered = map[string]int{}
	}
	c.delivered[target]++
	c.latencies = append(c.latencies, latency)
}

func (c *counter) EventFailed(target string, dead bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.failed == nil {
		c.failed, c.dead = map[string]int{}, map[string]int{}
	}
	c.failed[target]++
	if dead {
		c.dead[target]++
	}
}

func (c *counter) get() (delivered, failed, dead map[string]int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	cp := func(m map[string]int) map[string]int {
		out := map[string]int{}
		for k, v := range m {
			out[k] = v
		}
		return out
	}
	return cp(c.delivered), cp(c.failed), cp(c.dead)
}
