package relay

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/msgx-aodb/msgx/internal/kafka"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// benchPayload is a flight state of typical size (~1 KB): a day-schedule
// record with times, a stand and two gates.
func benchPayload(flid, version int64) []byte {
	return fmt.Appendf(nil, `{"flid":%d,"scalars":{"ACFT":{"raw":"738"},"ALCD":{"raw":"CA"},"FFID":{"raw":"CA-CA1501-A-03DEC260705-D"},`+
		`"FLIN":{"raw":"D"},"FLNO":{"raw":"CA1501"},"FLTY":{"raw":"W"},"MVIN":{"raw":"A"},"RENO":{"raw":"B5425"},`+
		`"SODT":{"raw":"03DEC260705","time":"2026-12-03T07:05:00+08:00"},"EOBT":{"raw":"03DEC260710","time":"2026-12-03T07:10:00+08:00"},`+
		`"STND":{"raw":"%d"},"TRML":{"raw":"T2"}},"structs":{},"groups":{"GTDT":[`+
		`{"source_seq":1,"fields":{"GATE":{"raw":"G05"},"GTYP":{"raw":"D"},"PGOT":{"raw":"03DEC260600","time":"2026-12-03T06:00:00+08:00"}}},`+
		`{"source_seq":2,"fields":{"GATE":{"raw":"G07"},"GTYP":{"raw":"I"},"PGOT":{"raw":"03DEC260630","time":"2026-12-03T06:30:00+08:00"}}}]},`+
		`"payloads":{},"operation_day":"2026-12-03T00:00:00Z","fday":"2026-12-03T00:00:00Z","lifecycle":"ACTIVE",`+
		`"state_version":%d,"last_message_id":%d,"created_at":"2026-12-02T08:00:00Z","updated_at":"2026-12-02T08:00:00Z"}`,
		flid, 100+version, version, version)
}

// fillOutbox writes n KAFKA:msg events over flights round-robin (setup).
func fillOutbox(tb testing.TB, e *env, n, flights int) {
	tb.Helper()
	const chunk = 10_000
	for done := 0; done < n; done += chunk {
		evs := make([]vocab.NewEvent, 0, chunk)
		for i := done; i < min(done+chunk, n); i++ {
			flid, version := int64(10_000+i%flights), int64(i/flights+1)
			msg := int64(i + 1)
			evs = append(evs, vocab.NewEvent{
				Target: vocab.TargetMsg, EventType: vocab.EventUpsert, MsgID: msg, FLID: flid, StateVersion: version,
				IdempotencyKey: vocab.IdempotencyKey(msg, flid, version, vocab.TargetMsg),
				Payload:        benchPayload(flid, version), CreatedAt: start,
			})
		}
		require.NoError(tb, e.st.InsertEvents(tb.Context(), evs))
	}
}

// BenchmarkDispatch delivers a 100 000-event KAFKA:msg outbox to kfake
// (3 brokers, 6 partitions), at the default batch size and a larger one, and
// reports events/s next to the baseline of the same run: the same records
// produced straight with franz-go in batches of the same size, no database.
func BenchmarkDispatch(b *testing.B) {
	const n, flights = 100_000, 2_000
	for _, batch := range []int{DefaultConfig().BatchSize, 2000} {
		b.Run(fmt.Sprintf("batch=%d", batch), func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				e := newEnv(b, func(c *Config) { c.BatchSize = batch })
				fillOutbox(b, e, n, flights)
				d := e.dispatcher()

				b.StartTimer()
				began := time.Now()
				delivered := 0
				for {
					sent, err := d.Step(b.Context())
					require.NoError(b, err)
					if sent == 0 {
						break
					}
					delivered += sent
				}
				elapsed := time.Since(began)
				b.StopTimer()
				require.Equal(b, n, delivered)
				require.Equal(b, n, e.count(b, topicMsg))

				base := baselineProduce(b, e, n, flights, batch)
				rate := float64(n) / elapsed.Seconds()
				b.ReportMetric(rate, "events/s")
				b.ReportMetric(base, "baseline-events/s")
				b.ReportMetric(rate/base, "ratio")
			}
		})
	}
}

// baselineProduce produces the records BenchmarkDispatch delivers straight
// from memory to another topic, batch by batch, and returns records/s.
func baselineProduce(tb testing.TB, e *env, n, flights, batch int) float64 {
	tb.Helper()
	events := make([]store.Event, n)
	for i := range events {
		flid, version := int64(10_000+i%flights), int64(i/flights+1)
		events[i] = store.Event{ID: int64(i + 1), PartitionKey: fmt.Sprint(flid), NewEvent: vocab.NewEvent{
			EventType: vocab.EventUpsert, MsgID: int64(i + 1), FLID: flid, StateVersion: version,
			IdempotencyKey: vocab.IdempotencyKey(int64(i+1), flid, version, vocab.TargetMsg), Payload: benchPayload(flid, version),
		}}
	}
	began := time.Now()
	for i := 0; i < n; i += batch {
		recs := make([]*kgo.Record, 0, batch)
		for _, ev := range events[i:min(i+batch, n)] {
			recs = append(recs, kafka.Record(topicSchd, ev))
		}
		ctx, cancel := context.WithTimeout(tb.Context(), time.Minute)
		require.NoError(tb, e.cl.ProduceSync(ctx, recs...).FirstErr())
		cancel()
	}
	return float64(n) / time.Since(began).Seconds()
}
