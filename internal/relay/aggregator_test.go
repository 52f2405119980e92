package relay

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/msgx-aodb/msgx/internal/kafka"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// TestSchdCollapsesToLatest: many versions of a flight go out as its latest
// full state; a tombstone after upserts wins with a null value; a delivered
// flight's mark is cleared.
func TestSchdCollapsesToLatest(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var evs []vocab.NewEvent
	for v := int64(1); v <= 5; v++ {
		evs = append(evs, event(vocab.TargetSchd, v, 1001, v, ""))
	}
	evs = append(evs,
		event(vocab.TargetSchd, 6, 1002, 1, ""), event(vocab.TargetSchd, 7, 1002, 2, ""), tombstone(vocab.TargetSchd, 8, 1002, 3),
		event(vocab.TargetSchd, 9, 1003, 1, ""),
		event(vocab.TargetMsg, 9, 1003, 1, ""),
	)
	e.insert(t, evs...)
	a := e.aggregator()
	n, err := a.Step(t.Context())
	require.NoError(t, err)
	require.Equal(t, 3, n, "one record per flight")
	require.Empty(t, e.marks(t), "every delivered flight's mark is cleared")
	require.Len(t, e.pending(t, vocab.TargetMsg), 9, "KAFKA:msg (the twins holding the payloads) is not touched")

	byKey := map[string]*kgo.Record{}
	for _, r := range e.consume(t, topicSchd, 3) {
		byKey[string(r.Key)] = r
	}
	require.JSONEq(t, `{"flid":1001,"state_version":5}`, string(byKey["1001"].Value), "the full latest state")
	require.Equal(t, "5", header(byKey["1001"], kafka.HeaderStateVersion))
	require.Equal(t, vocab.IdempotencyKey(5, 1001, 5, vocab.TargetSchd), header(byKey["1001"], kafka.HeaderIdempotencyKey))
	require.Nil(t, byKey["1002"].Value, "the tombstone wins, as a null value")
	require.Equal(t, vocab.EventTombstone, header(byKey["1002"], kafka.HeaderEventType))
	require.Equal(t, "3", header(byKey["1002"], kafka.HeaderStateVersion))
	require.Equal(t, "1", header(byKey["1003"], kafka.HeaderStateVersion))
	require.Zero(t, e.count(t, topicMsg))

	// A later change of one flight: only that flight goes out next.
	e.insert(t, event(vocab.TargetSchd, 10, 1001, 6, ""))
	n, err = a.Step(t.Context())
	require.NoError(t, err)
	require.Equal(t, 1, n)
	recs := e.consume(t, topicSchd, 4)
	require.Equal(t, "6", header(lastOf(recs, "1001"), kafka.HeaderStateVersion))
	n, err = a.Step(t.Context())
	require.NoError(t, err)
	require.Zero(t, n)
}

// TestSchdFailedFlightDoesNotBlockTheBatch: one flight's record is refused
// by the broker with an error a retry may cure (CORRUPT_MESSAGE). The others
// are delivered; that flight backs off alone, its mark becomes a DEAD event
// at the limit, and a later change of it is delivered again.
func TestSchdFailedFlightDoesNotBlockTheBatch(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	fault := e.kf.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.Produce}, Topic: topicSchd, Partitions: []int32{partitionOf(1002)},
		Err: kerr.CorruptMessage, Count: -1})
	// Flights on partitions of their own, apart from the failing 1002.
	var ok []int64
	for f := int64(2000); len(ok) < 2; f++ {
		if partitionOf(f) != partitionOf(1002) {
			ok = append(ok, f)
		}
	}
	e.insert(t,
		event(vocab.TargetSchd, 1, ok[0], 1, ""),
		event(vocab.TargetSchd, 2, 1002, 1, ""),
		event(vocab.TargetSchd, 3, 1002, 2, ""),
		event(vocab.TargetSchd, 4, ok[1], 1, ""),
	)
	a := e.aggregator()
	n, err := a.Step(t.Context())
	require.NoError(t, err)
	require.Equal(t, 2, n, "the other flights are delivered")
	failing := e.schdOf(t, 3)
	require.Equal(t, vocab.EventPending, failing.Status)
	require.Equal(t, 1, failing.Attempts)
	require.Contains(t, failing.LastError, "CORRUPT_MESSAGE")

	e.insert(t, event(vocab.TargetSchd, 5, ok[0], 2, ""))
	n, err = a.Step(t.Context())
	require.NoError(t, err)
	require.Equal(t, 1, n, "the backing-off flight is skipped, the rest goes on")

	for range e.cfg.MaxAttempts - 1 {
		e.clk.Advance(e.cfg.BackoffCap)
		_, err = a.Step(t.Context())
		require.NoError(t, err)
	}
	dead := e.schdOf(t, 3)
	require.Equal(t, vocab.EventDead, dead.Status)
	require.Contains(t, dead.LastError, "CORRUPT_MESSAGE")
	require.Equal(t, e.cfg.MaxAttempts, dead.Attempts)
	require.Len(t, e.deadSchd(t), 1, "one dead letter, the flight's latest state: an older state is never sent as the latest")
	e.clk.Advance(e.cfg.BackoffCap)
	n, err = a.Step(t.Context())
	require.NoError(t, err)
	require.Zero(t, n, "nothing of flight 1002 left to send")

	fault.Remove()
	e.insert(t, event(vocab.TargetSchd, 6, 1002, 3, ""))
	n, err = a.Step(t.Context())
	require.NoError(t, err)
	require.Equal(t, 1, n, "a later change of the flight is delivered")
	recs := e.consume(t, topicSchd, 4)
	var versions1002 []string
	for _, r := range recs {
		if string(r.Key) == "1002" {
			versions1002 = append(versions1002, header(r, kafka.HeaderStateVersion))
		}
	}
	require.Equal(t, []string{"3"}, versions1002)
	_, failed, deadN := e.obs.get()
	require.Equal(t, e.cfg.MaxAttempts, failed[vocab.TargetSchd])
	require.Equal(t, 1, deadN[vocab.TargetSchd])
}

// TestSchdRecordRefusedForGoodGoesDeadAtOnce: a flight's latest state is
// too large, over kafka.max-record-bytes (never produced) or over the
// topic's max.message.bytes (refused by the broker, which fails the batch
// of a flight sharing its partition too). Its mark is a DEAD event at once;
// the other flights, that one included, are
// delivered, and so is a later change of the flight, without a backoff.
func TestSchdRecordRefusedForGoodGoesDeadAtOnce(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		limit  int    // relay's kafka.max-record-bytes
		broker string // topic's max.message.bytes ("": as the client's)
		size   int
		reason string
	}{
		{"over the limit", 65536, "", 100_000, "over kafka.max-record-bytes 65536; not produced"},
		{"refused by the broker", 0, "16384", 30_000, "MESSAGE_TOO_LARGE"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, func(cfg *Config) { cfg.MaxRecordBytes = c.limit })
			if c.broker != "" {
				e.lowerMaxMessageBytes(t, topicSchd, c.broker)
			}
			x, b := samePartition(1002), otherPartition(1002)
			e.insert(t,
				event(vocab.TargetSchd, 1, x, 1, ""),
				event(vocab.TargetSchd, 2, 1002, 1, ""),
				event(vocab.TargetSchd, 3, 1002, 2, bigPayload(t, c.size)),
				event(vocab.TargetSchd, 4, b, 1, ""),
			)
			a := e.aggregator()
			n, err := a.Step(t.Context())
			require.NoError(t, err)
			require.Equal(t, 2, n, "the other flights are delivered, the one sharing the partition too")
			dead := e.schdOf(t, 3)
			require.Equal(t, vocab.EventDead, dead.Status)
			require.Equal(t, 1, dead.Attempts, "dead at the first attempt")
			require.Contains(t, dead.LastError, c.reason)
			require.Len(t, e.deadSchd(t), 1, "the flight's latest state only")

			e.insert(t, event(vocab.TargetSchd, 5, 1002, 3, ""))
			n, err = a.Step(t.Context())
			require.NoError(t, err)
			require.Equal(t, 1, n, "a later change of the flight goes at once")
			var versions1002 []string
			for _, r := range e.consume(t, topicSchd, 3) {
				if string(r.Key) == "1002" {
					versions1002 = append(versions1002, header(r, kafka.HeaderStateVersion))
				}
			}
			require.Equal(t, []string{"3"}, versions1002)
			_, _, deadN := e.obs.get()
			require.Equal(t, 1, deadN[vocab.TargetSchd])
		})
	}
}

// TestSchdRunFlushesPeriodically: Run delivers a batch at once, then waits
// FlushPeriod; a full batch is followed by the next at once. Shutdown ends
// Run.
func TestSchdRunFlushesPeriodically(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.FlushLimit = 4 })
	for f := int64(1); f <= 10; f++ {
		e.insert(t, event(vocab.TargetSchd, f, 3000+f, 1, ""))
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error)
	go func() { done <- e.aggregator().Run(ctx) }()
	e.consume(t, topicSchd, 10) // three batches (4, 4, 2) without waiting for the clock

	e.insert(t, event(vocab.TargetSchd, 11, 3001, 2, ""), event(vocab.TargetSchd, 12, 3001, 3, ""))
	deadline := time.Now().Add(30 * time.Second)
	for e.count(t, topicSchd) < 11 {
		require.True(t, time.Now().Before(deadline), "no flush after the period")
		e.clk.Advance(e.cfg.withDefaults().FlushPeriod) // Run may not be waiting yet: advance until it flushed
		time.Sleep(10 * time.Millisecond)
	}
	recs := e.consume(t, topicSchd, 11)
	require.Equal(t, "3", header(lastOf(recs, "3001"), kafka.HeaderStateVersion), "the period's changes collapsed to the latest")
	cancel()
	require.NoError(t, <-done)
	require.Empty(t, e.marks(t))
}

func TestSchdLogsCarryEventFields(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var buf syncBuffer
	e.log = newTextLogger(&buf)
	e.insert(t, event(vocab.TargetSchd, 1, 1002, 1, bigPayload(t, 100_000)))
	_, err := e.aggregator().Step(t.Context())
	require.NoError(t, err)
	line := buf.String()
	for _, want := range []string{"event_id=", "flid=1002", "target=KAFKA:schd", "MESSAGE_TOO_LARGE"} {
		require.Contains(t, line, want)
	}
	require.False(t, strings.Contains(line, "blob"), "no payload in logs")
}

// lastOf is a flight's last record (one flight, one partition: log order).
func lastOf(recs []*kgo.Record, key string) *kgo.Record {
	var last *kgo.Record
	for _, r := range recs {
		if string(r.Key) == key {
			last = r
		}
	}
	return last
}

// deadSchd are the KAFKA:schd dead letters.
func (e *env) deadSchd(t testing.TB) []store.Event {
	t.Helper()
	dead, err := e.st.DeadEvents(t.Context(), store.DeadEventsParams{Target: vocab.TargetSchd, Limit: 100})
	require.NoError(t, err)
	return dead
}
