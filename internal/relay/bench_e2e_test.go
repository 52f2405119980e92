package relay

import (
	"context"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/ingress"
	"github.com/msgx-aodb/msgx/internal/kafka"
	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/pump"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/wake"
)

const (
	e2eRate     = 200 // messages/s
	e2eDuration = 15 * time.Second
	e2eWarmup   = 2 * time.Second
	e2eFlights  = 500
	e2ePoll     = 50 * time.Millisecond // poller interval and pump idle
)

func e2eDNLD(flights int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?><MSG><META><SNDR>AODB</SNDR><SEQN>1</SEQN><DTTM>20261203050000</DTTM><TYPE>SCHD</TYPE><STYP>DNLD</STYP></META><SCHD><RECS>%d</RECS>`, flights)
	for f := 1; f <= flights; f++ {
		fmt.Fprintf(&b, `<FLTR><FLID>%d</FLID><ALCD>CA</ALCD><FLNO>CA%d</FLNO><MVIN>D</MVIN><SODT>03DEC261030</SODT><STND>100</STND></FLTR>`, f, f)
	}
	b.WriteString(`</SCHD></MSG>`)
	return []byte(b.String())
}

func e2eFLOP(seq, flid int) []byte {
	return fmt.Appendf(nil, `<?xml version="1.0" encoding="UTF-8"?><MSG><META><SNDR>AODB</SNDR><SEQN>%d</SEQN><DTTM>20261203080000</DTTM><TYPE>FLOP</TYPE><STYP>STND</STYP></META><FLOP><FLID>%d</FLID><STND>%d</STND></FLOP></MSG>`,
		seq, flid, 100_000+seq)
}

// receiver consumes a topic and records, per cminmsgs-id header, when its
// first record arrived.
type receiver struct {
	mu  sync.Mutex
	got map[string]time.Time
}

func receive(ctx context.Context, tb testing.TB, kcfg kafka.Config, topic string) *receiver {
	cl, err := kafka.NewClient(kcfg, kgo.ConsumeTopics(topic), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.FetchMaxWait(50*time.Millisecond))
	require.NoError(tb, err)
	r := &receiver{got: map[string]time.Time{}}
	go func() {
		defer cl.Close()
		for ctx.Err() == nil {
			f := cl.PollFetches(ctx)
			now := time.Now()
			r.mu.Lock()
			f.EachRecord(func(rec *kgo.Record) {
				if id := header(rec, kafka.HeaderCminmsgsID); r.got[id].IsZero() {
					r.got[id] = now
				}
			})
			r.mu.Unlock()
		}
	}()
	return r
}

func (r *receiver) at(id string) (time.Time, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	t, ok := r.got[id]
	return t, ok
}

// pace calls send n times at rate per second, on schedule.
func pace(tb testing.TB, n, rate int, send func(i int)) {
	began := time.Now()
	for i := range n {
		if d := time.Until(began.Add(time.Duration(i) * time.Second / time.Duration(rate))); d > 0 {
			time.Sleep(d) // pacing the load, not ordering anything
		}
		send(i)
	}
}

func percentile(ds []time.Duration, p float64) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

// BenchmarkEndToEndLatency: FLOP messages inserted into the mailbox at a
// steady 200/s, with poller, pump (woken commits wake the dispatcher),
// dispatcher and aggregator running as in `msgx serve` on the real clock
// (poll interval 50 ms; a poll that enqueues wakes the pump); reports p50/p99 from mailbox insert
// to the record on the msg topic. Baselines from the same run: the pipeline
// alone (insert to the outbox row's created_at) and Kafka alone (produce to
// consume of the same rate).
func BenchmarkEndToEndLatency(b *testing.B) {
	// The garbage collector's target of msgx serve (gc.percent).
	defer debug.SetGCPercent(debug.SetGCPercent(config.Defaults().GCPercent))
	for range b.N {
		e := newEnv(b)
		mbdb, _ := testdb.Mailbox(b)
		mb := mailbox.New(mbdb)
		real := clock.Real{}
		// As in serve: the poller wakes the idle pump, each commit the dispatcher.
		enqueued, committed := wake.New(), wake.New()
		rc := DefaultConfig()
		rc.Committed = committed
		disp := NewDispatcher(e.st, e.cl, topicMsg, real, e.log, nil, rc)
		agg := NewAggregator(e.st, e.cl, topicSchd, real, e.log, nil, DefaultConfig())
		pcfg := pump.DefaultConfig()
		pcfg.Idle = e2ePoll // serve: min(1 s, poll interval)
		pcfg.Committed, pcfg.Enqueued = committed, enqueued
		pump := pump.New(e.st, mb, nil, real, e.log, pcfg)
		poller := ingress.NewPoller(e.st, mb, real, e.log, ingress.Config{Enqueued: enqueued, Interval: e2ePoll})

		ctx, cancel := context.WithCancel(b.Context())
		var wg sync.WaitGroup
		for _, run := range []func(){
			func() { _ = poller.Run(ctx) }, func() { _ = pump.Run(ctx) },
			func() { _ = disp.Run(ctx) }, func() { _ = agg.Run(ctx) },
		} {
			wg.Add(1)
			go func() { defer wg.Done(); run() }()
		}
		recv := receive(ctx, b, e.kcfg, topicMsg)
		dnld, err := mb.Insert(b.Context(), e2eDNLD(e2eFlights), time.Now())
		require.NoError(b, err)
		waitFor(b, recv, []int64{dnld})

		n := int(e2eDuration.Seconds()) * e2eRate
		ids := make([]int64, n)
		sentAt := make([]time.Time, n)
		b.ResetTimer()
		pace(b, n, e2eRate, func(i int) {
			sentAt[i] = time.Now()
			ids[i], err = mb.Insert(b.Context(), e2eFLOP(10+i, i%e2eFlights+1), sentAt[i])
			require.NoError(b, err)
		})
		waitFor(b, recv, ids)
		b.StopTimer()

		skip := int(e2eWarmup.Seconds()) * e2eRate
		var e2e, pipe []time.Duration
		for i := skip; i < n; i++ {
			got, _ := recv.at(fmt.Sprint(ids[i]))
			e2e = append(e2e, got.Sub(sentAt[i]))
			evs := must(e.st.EventsOfMessage(b.Context(), ids[i]))
			require.NotEmpty(b, evs)
			pipe = append(pipe, evs[0].CreatedAt.Sub(sentAt[i]))
		}
		cancel()
		wg.Wait()
		kafkaOnly := kafkaLatency(b, e)

		b.ReportMetric(float64(percentile(e2e, 0.50).Milliseconds()), "p50-ms")
		b.ReportMetric(float64(percentile(e2e, 0.99).Milliseconds()), "p99-ms")
		b.ReportMetric(float64(percentile(pipe, 0.99).Milliseconds()), "baseline-pipeline-p99-ms")
		b.ReportMetric(float64(percentile(kafkaOnly, 0.99).Milliseconds()), "baseline-kafka-p99-ms")
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// waitFor waits until every message has a record on the topic.
func waitFor(tb testing.TB, r *receiver, ids []int64) {
	tb.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for _, id := range ids {
		for {
			if _, ok := r.at(fmt.Sprint(id)); ok {
				break
			}
			require.True(tb, time.Now().Before(deadline), "message %d never reached the topic", id)
			time.Sleep(10 * time.Millisecond) // waiting for delivery, not ordering it
		}
	}
}

// kafkaLatency produces records at the same rate straight to another topic
// and returns produce-to-consume latencies.
func kafkaLatency(tb testing.TB, e *env) []time.Duration {
	ctx, cancel := context.WithCancel(tb.Context())
	defer cancel()
	const topic = topicSchd // idle now: the aggregator has stopped
	recv := receive(ctx, tb, e.kcfg, topic)
	n := 5 * e2eRate
	sentAt := make([]time.Time, n)
	ids := make([]int64, n)
	pace(tb, n, e2eRate, func(i int) {
		ids[i] = int64(1_000_000 + i)
		sentAt[i] = time.Now()
		e.cl.Produce(ctx, &kgo.Record{Topic: topic, Key: []byte(fmt.Sprint(i % e2eFlights)), Value: benchPayload(int64(i), 1),
			Headers: []kgo.RecordHeader{{Key: kafka.HeaderCminmsgsID, Value: []byte(fmt.Sprint(ids[i]))}}}, nil)
	})
	waitFor(tb, recv, ids)
	out := make([]time.Duration, n)
	for i := range n {
		got, _ := recv.at(fmt.Sprint(ids[i]))
		out[i] = got.Sub(sentAt[i])
	}
	return out
}
