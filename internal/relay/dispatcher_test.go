package relay

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/msgx-aodb/msgx/internal/kafka"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// interleaved inserts versions 1..versions of flights 1..flights, one message
// per round, the last version of every third flight a TOMBSTONE. Returns the
// event count.
func interleaved(t testing.TB, e *env, flights, versions int, target string) int {
	t.Helper()
	var evs []vocab.NewEvent
	msg := int64(0)
	for v := 1; v <= versions; v++ {
		for f := 1; f <= flights; f++ {
			msg++
			if v == versions && f%3 == 0 {
				evs = append(evs, tombstone(target, msg, int64(1000+f), int64(v)))
			} else {
				evs = append(evs, event(target, msg, int64(1000+f), int64(v), ""))
			}
		}
	}
	for i := 0; i < len(evs); i += 1000 {
		e.insert(t, evs[i:min(i+1000, len(evs))]...)
	}
	return len(evs)
}

func TestMsgPerKeyOrderAcrossPartitions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	n := interleaved(t, e, 40, 25, vocab.TargetMsg)
	e.insert(t, event(vocab.TargetSchd, 1, 1001, 1, ""))
	d := e.dispatcher()
	e.clk.Advance(5 * time.Second) // events created at start, acknowledged 5 s later
	e.drain(t, d)

	require.Empty(t, e.pending(t, vocab.TargetMsg), "every event SENT")
	require.Len(t, e.marks(t), 1, "the dispatcher leaves KAFKA:schd alone")
	recs := e.consume(t, topicMsg, n)
	kept, dropped := dedupe(recs)
	require.Zero(t, dropped, "no fault, no resend")
	require.Len(t, kept, n, "the consumer sees every event")
	requirePerKeyOrder(t, kept)

	parts := map[int32]bool{}
	keyPart := map[string]int32{}
	for _, r := range recs {
		parts[r.Partition] = true
		if p, ok := keyPart[string(r.Key)]; ok {
			require.Equal(t, p, r.Partition, "one flight, one partition")
		}
		keyPart[string(r.Key)] = r.Partition
		ev := headerInt(t, r, kafka.HeaderEventID)
		require.Positive(t, ev)
		want := vocab.IdempotencyKey(headerInt(t, r, kafka.HeaderCminmsgsID), mustAtoi(t, string(r.Key)), headerInt(t, r, kafka.HeaderStateVersion), vocab.TargetMsg)
		require.Equal(t, want, header(r, kafka.HeaderIdempotencyKey))
		switch header(r, kafka.HeaderEventType) {
		case vocab.EventTombstone:
			require.Nil(t, r.Value, "a TOMBSTONE has a null value")
		case vocab.EventUpsert:
			require.JSONEq(t, fmt.Sprintf(`{"flid":%s,"state_version":%s}`, r.Key, header(r, kafka.HeaderStateVersion)), string(r.Value))
		default:
			t.Fatalf("event type %q", header(r, kafka.HeaderEventType))
		}
	}
	require.Greater(t, len(parts), 3, "flights spread over the partitions")
	delivered, failed, _ := e.obs.get()
	require.Equal(t, n, delivered[vocab.TargetMsg])
	require.Empty(t, failed)
	for _, l := range e.obs.latencies {
		require.Equal(t, 5*time.Second, l, "latency from created_at to the ack")
	}
}

func mustAtoi(t testing.TB, s string) int64 {
	t.Helper()
	var v int64
	_, err := fmt.Sscan(s, &v)
	require.NoError(t, err)
	return v
}

// TestMsgTransientFaults: while a backlog is delivered, the broker refuses
// a produce once with NOT_LEADER_FOR_PARTITION, drops a produce connection,
// and the leaders of all partitions move. The client's retries or the
// relay's backoff absorb it all: nothing lost, per-key order kept, no event
// DEAD.
func TestMsgTransientFaults(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.BatchSize = 50 })
	n := interleaved(t, e, 30, 20, vocab.TargetMsg)
	notLeader := e.kf.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.Produce}, Topic: topicMsg, Err: kerr.NotLeaderForPartition,
		When: after(3)})
	var produces, dropped, moved atomic.Int32
	e.kf.ControlKey(int16(kmsg.Produce), func(kmsg.Request) (kmsg.Response, error, bool) {
		e.kf.KeepControl()
		switch produces.Add(1) {
		case 6:
			dropped.Add(1)
			return nil, errors.New("connection dropped by the test"), true // closes the connection
		case 9:
			for p := range int32(partitions) {
				if err := e.kf.MoveTopicPartition(topicMsg, p, (e.kf.LeaderFor(topicMsg, p)+1)%3); err == nil {
					moved.Add(1)
				}
			}
		}
		return nil, nil, false
	})
	e.settle(t, e.dispatcher())

	require.Equal(t, 1, notLeader.Hits(), "a produce was refused once")
	require.Equal(t, int32(1), dropped.Load(), "a produce connection was dropped")
	require.Equal(t, int32(partitions), moved.Load(), "every partition moved its leader")
	require.Empty(t, e.pending(t, vocab.TargetMsg))
	kept, _ := dedupe(e.consume(t, topicMsg, e.count(t, topicMsg)))
	require.Len(t, kept, n, "nothing lost")
	requirePerKeyOrder(t, kept)
	_, failed, dead := e.obs.get()
	require.LessOrEqual(t, failed[vocab.TargetMsg], 3, "at most one failed attempt per fault")
	require.Zero(t, dead[vocab.TargetMsg])
}

// after returns a fault filter that lets the first n requests through.
func after(n int) func(kmsg.Request) bool {
	var seen atomic.Int32
	return func(kmsg.Request) bool { return int(seen.Add(1)) > n }
}

// TestMsgFailingHeadBlocksOnlyItsTarget: produce to the msg topic fails until
// the fault is removed. The head backs off and holds the target; the schd
// target is delivered meanwhile; once due again, everything goes in order.
func TestMsgFailingHeadBlocksOnlyItsTarget(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	n := interleaved(t, e, 5, 4, vocab.TargetMsg)
	e.insert(t, event(vocab.TargetSchd, 100, 1001, 9, ""), event(vocab.TargetSchd, 101, 1002, 9, ""))
	n += 2 // their KAFKA:msg twins, which hold the payloads
	fault := e.kf.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.Produce}, Topic: topicMsg, Err: kerr.NotLeaderForPartition, Count: -1})
	d := e.dispatcher()

	sent, err := d.Step(t.Context())
	require.NoError(t, err)
	require.Zero(t, sent)
	head := e.pending(t, vocab.TargetMsg)[0]
	require.Equal(t, 1, head.Attempts)
	require.True(t, start.Add(time.Second).Equal(*head.NextAttemptAt), "backoff base")
	require.Contains(t, head.LastError, "timed out", "the client retried NOT_LEADER until its record timeout")

	hits := fault.Hits()
	sent, err = d.Step(t.Context())
	require.NoError(t, err)
	require.Zero(t, sent)
	require.Equal(t, hits, fault.Hits(), "nothing produced while the head backs off")

	delivered, err := e.aggregator().Step(t.Context())
	require.NoError(t, err)
	require.Equal(t, 2, delivered, "the schd target is not blocked")

	// Still failing when due: attempt 2, the delay doubles; never DEAD for a
	// broker-side error, however many attempts (MaxAttempts is 3).
	for attempt := 2; attempt <= 4; attempt++ {
		e.clk.Advance(e.cfg.backoff(attempt - 1))
		_, err = d.Step(t.Context())
		require.NoError(t, err)
		head = e.pending(t, vocab.TargetMsg)[0]
		require.Equal(t, attempt, head.Attempts)
		require.Equal(t, vocab.EventPending, head.Status)
	}
	require.Zero(t, e.count(t, topicMsg))

	fault.Remove()
	e.clk.Advance(e.cfg.BackoffCap)
	e.drain(t, d)
	kept, _ := dedupe(e.consume(t, topicMsg, n))
	require.Len(t, kept, n)
	requirePerKeyOrder(t, kept)
	require.Equal(t, head.ID, headerInt(t, firstOf(kept, head.PartitionKey), kafka.HeaderEventID), "the failed head is its flight's first record")
	_, failed, dead := e.obs.get()
	require.Equal(t, 4, failed[vocab.TargetMsg])
	require.Zero(t, dead[vocab.TargetMsg])
}

func firstOf(recs []*kgo.Record, key string) *kgo.Record {
	for _, r := range recs {
		if string(r.Key) == key {
			return r
		}
	}
	return nil
}

// bigPayload is JSON that does not compress below its size.
func bigPayload(t testing.TB, size int) string {
	b := make([]byte, size*3/4)
	_, err := rand.Read(b)
	require.NoError(t, err)
	return `{"blob":"` + base64.StdEncoding.EncodeToString(b) + `"}`
}

func ptr[T any](v T) *T { return &v }

// partitionOf is the partition franz-go's default partitioner picks for a
// flight's records.
func partitionOf(flid int64) int32 {
	r := &kgo.Record{Key: []byte(fmt.Sprint(flid))}
	return int32(kgo.StickyKeyPartitioner(nil).ForTopic(topicMsg).Partition(r, partitions))
}

// failingMarks is the real store whose SENT marks fail while fail is set:
// the process dying between the broker's ack and the mark.
type failingMarks struct {
	Store
	fail atomic.Bool
}

func (f *failingMarks) MarkSent(ctx context.Context, p store.MarkSentParams) error {
	if f.fail.Load() {
		return errors.New("killed before the mark")
	}
	return f.Store.MarkSent(ctx, p)
}

// TestMsgResendAfterLostMark: the broker acknowledged, the SENT mark was
// lost. After a restart the events are sent again with the same idempotency
// keys; a consumer deduping by them sees each event once, in order.
func TestMsgResendAfterLostMark(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	n := interleaved(t, e, 10, 5, vocab.TargetMsg)
	fm := &failingMarks{Store: e.st}
	fm.fail.Store(true)
	crashed := NewDispatcher(fm, e.cl, topicMsg, e.clk, e.log, e.obs, e.cfg)
	_, err := crashed.Step(t.Context())
	require.ErrorContains(t, err, "killed before the mark")
	require.Equal(t, min(n, e.cfg.BatchSize), e.count(t, topicMsg), "produced and acknowledged")
	require.Len(t, e.pending(t, vocab.TargetMsg), n, "but not marked")

	e.drain(t, e.dispatcher()) // the restarted process
	recs := e.consume(t, topicMsg, n+min(n, e.cfg.BatchSize))
	firstKey := map[string]string{}
	for _, r := range recs {
		k := header(r, kafka.HeaderIdempotencyKey)
		if id, ok := firstKey[k]; ok {
			require.Equal(t, id, header(r, kafka.HeaderEventID), "a resend is recognisable: same key, same event")
		}
		firstKey[k] = header(r, kafka.HeaderEventID)
	}
	kept, dropped := dedupe(recs)
	require.Equal(t, min(n, e.cfg.BatchSize), dropped, "the unmarked batch came twice")
	require.Len(t, kept, n, "deduped, each event once")
	requirePerKeyOrder(t, kept)
}

// TestMsgRunFinishesStepOnCancel: shutdown while a produce is in flight. Run
// lets it finish and writes the SENT mark before it returns.
func TestMsgRunFinishesStepOnCancel(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	n := interleaved(t, e, 4, 5, vocab.TargetMsg)
	ctx, cancel := context.WithCancel(t.Context())
	inFlight := make(chan struct{})
	var once atomic.Bool
	e.kf.ControlKey(int16(kmsg.Produce), func(kmsg.Request) (kmsg.Response, error, bool) {
		if once.CompareAndSwap(false, true) {
			close(inFlight)
			e.kf.SleepControl(func() { <-ctx.Done() }) // the broker answers after the shutdown began
		}
		return nil, nil, false
	})
	done := make(chan error)
	go func() { done <- e.dispatcher().Run(ctx) }()
	<-inFlight
	cancel()
	require.NoError(t, <-done)
	require.Empty(t, e.pending(t, vocab.TargetMsg), "acknowledged events marked SENT before Run returned")
	kept, _ := dedupe(e.consume(t, topicMsg, n))
	require.Len(t, kept, n)
}

// TestMsgBrokerOutageResumes: every request to the cluster fails (the
// connection is closed) for a while. Run keeps backing off, with no event
// DEAD although the attempts pass MaxAttempts, reports the brokers down, and
// resumes by itself once the brokers answer again.
func TestMsgBrokerOutageResumes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.ProduceTimeout = time.Second })
	n := interleaved(t, e, 6, 3, vocab.TargetMsg)
	var down atomic.Bool
	down.Store(true)
	e.kf.Control(func(kmsg.Request) (kmsg.Response, error, bool) {
		e.kf.KeepControl()
		if down.Load() {
			return nil, errors.New("broker down"), true
		}
		return nil, nil, false
	})
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error)
	go func() { done <- e.dispatcher().Run(ctx) }()

	// The fake clock lets the backoff pass as fast as the failing produces go.
	deadline := time.Now().Add(60 * time.Second)
	for {
		pending := e.pending(t, vocab.TargetMsg)
		require.NotEmpty(t, pending)
		if pending[0].Attempts > e.cfg.MaxAttempts {
			break
		}
		require.True(t, time.Now().Before(deadline), "attempts did not pass MaxAttempts")
		e.clk.Advance(e.cfg.BackoffCap)
		time.Sleep(20 * time.Millisecond) // lets Run take its next turn; no ordering depends on it
	}
	require.Equal(t, vocab.EventPending, e.pending(t, vocab.TargetMsg)[0].Status)
	up, known := e.obs.dependencyUp(vocab.DependencyKafka)
	require.True(t, known, "every produce reports the brokers")
	require.False(t, up, "msgx_dependency_up{dependency=kafka} is 0 while no broker answers (rule 20)")

	down.Store(false)
	for len(e.pending(t, vocab.TargetMsg)) > 0 {
		require.True(t, time.Now().Before(deadline), "delivery did not resume")
		e.clk.Advance(e.cfg.BackoffCap)
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	require.NoError(t, <-done)
	up, _ = e.obs.dependencyUp(vocab.DependencyKafka)
	require.True(t, up, "1 again once the brokers answer")
	kept, _ := dedupe(e.consume(t, topicMsg, n))
	require.Len(t, kept, n)
	requirePerKeyOrder(t, kept)
	_, _, dead := e.obs.get()
	require.Zero(t, dead[vocab.TargetMsg])
}

// TestMsgFailureBehindReadAhead: a record refused in the second of three full
// batches, while the third was already read ahead. Only the acknowledged
// prefix before it is SENT, nothing of the batch read ahead is produced, and
// after it became DEAD everything else arrives, in per-flight order.
func TestMsgFailureBehindReadAhead(t *testing.T) {
	t.Parallel()
	e := newEnv(t) // BatchSize 100
	adm := kadm.NewClient(e.cl)
	_, err := adm.AlterTopicConfigs(t.Context(), []kadm.AlterConfig{{Name: "max.message.bytes", Value: ptr("65536")}}, topicMsg)
	require.NoError(t, err)
	const n, flights, bigMsg = 250, 10, 150
	evs := make([]vocab.NewEvent, 0, n)
	for i := range int64(n) {
		payload := ""
		if i+1 == bigMsg {
			payload = bigPayload(t, 100_000)
		}
		evs = append(evs, event(vocab.TargetMsg, i+1, 2000+i%flights, i/flights+1, payload))
	}
	e.insert(t, evs...)

	d := e.dispatcher()
	sent, err := d.Step(t.Context())
	require.NoError(t, err)
	require.GreaterOrEqual(t, sent, 100, "the first batch at least")
	require.Less(t, sent, bigMsg)
	head := e.pending(t, vocab.TargetMsg)[0]
	require.Equal(t, int64(sent+1), head.MsgID, "the head is the first refused event")
	require.LessOrEqual(t, head.MsgID, int64(bigMsg), "(the big one, or one in the broker batch it spoiled)")
	require.Zero(t, head.Attempts, "refused with its batch, it is not blamed before it is produced alone")
	for msg := int64(1); msg <= n; msg++ {
		want := vocab.EventPending
		if msg <= int64(sent) {
			want = vocab.EventSent
		}
		require.Equal(t, want, e.eventsOf(t, msg)[0].Status, "message %d: only the acknowledged prefix is SENT", msg)
	}
	for _, r := range e.consume(t, topicMsg, e.count(t, topicMsg)) {
		require.LessOrEqual(t, headerInt(t, r, kafka.HeaderCminmsgsID), int64(200), "the batch read ahead is not produced")
	}
	lag, err := e.st.OutboxLag(t.Context())
	require.NoError(t, err)
	require.Equal(t, int64(n-sent), lag[0].Pending)

	e.settle(t, d)
	require.Equal(t, vocab.EventDead, e.eventsOf(t, bigMsg)[0].Status)
	kept, _ := dedupe(e.consume(t, topicMsg, e.count(t, topicMsg)))
	require.Len(t, kept, n-1, "every event but the dead one")
	requirePerKeyOrder(t, kept)
	lag, err = e.st.OutboxLag(t.Context())
	require.NoError(t, err)
	require.Empty(t, lag)
}
