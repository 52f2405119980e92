package relay

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/msgx-aodb/msgx/internal/kafka"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// deliver steps the dispatcher, the clock standing still, until nothing is
// pending: it fails the test if delivery needed a backoff to pass.
func (e *env) deliver(t testing.TB, d *Dispatcher) {
	t.Helper()
	for range 20 {
		_, err := d.Step(t.Context())
		require.NoError(t, err)
		if len(e.pending(t, vocab.TargetMsg)) == 0 {
			return
		}
	}
	t.Fatalf("events still pending without the clock moving: %v", e.pending(t, vocab.TargetMsg))
}

// sentExcept: every message's KAFKA:msg event was delivered once deduped,
// in per-flight order, except the dead one's; msgs are all message ids.
func (e *env) sentExcept(t testing.TB, dead int64, msgs ...int64) {
	t.Helper()
	kept, _ := dedupe(e.consume(t, topicMsg, e.count(t, topicMsg)))
	var got, want []int64
	for _, r := range kept {
		got = append(got, headerInt(t, r, kafka.HeaderCminmsgsID))
	}
	for _, m := range msgs {
		if m != dead {
			want = append(want, m)
		}
	}
	require.ElementsMatch(t, want, got, "every event but the dead one")
	requirePerKeyOrder(t, kept)
}

// otherPartition is a flight whose records go to another partition than
// flid's.
func otherPartition(flid int64) int64 {
	f := flid + 1
	for partitionOf(f) == partitionOf(flid) {
		f++
	}
	return f
}

// samePartition is another flight whose records share flid's partition.
func samePartition(flid int64) int64 {
	f := flid + 1
	for partitionOf(f) != partitionOf(flid) {
		f++
	}
	return f
}

func (e *env) lowerMaxMessageBytes(t testing.TB, topic, bytes string) {
	t.Helper()
	_, err := kadm.NewClient(e.cl).AlterTopicConfigs(t.Context(), []kadm.AlterConfig{{Name: "max.message.bytes", Value: ptr(bytes)}}, topic)
	require.NoError(t, err)
}

// TestMsgRecordOverLimitGoesDeadAtOnce: a record over kafka.max-record-bytes
// is never produced: DEAD at its first attempt with the sizes in the reason,
// and the events behind it, of other flights and the same flight's next
// change, are delivered without waiting for a backoff. The watermark passes
// it.
func TestMsgRecordOverLimitGoesDeadAtOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.MaxRecordBytes = 65536 })
	a := otherPartition(1002)
	e.insert(t,
		event(vocab.TargetMsg, 1, a, 1, ""),
		event(vocab.TargetMsg, 2, 1002, 1, bigPayload(t, 100_000)),
		event(vocab.TargetMsg, 3, 1002, 2, ""),
		event(vocab.TargetMsg, 4, a, 2, ""),
	)
	d := e.dispatcher()
	e.deliver(t, d)

	big := e.eventsOf(t, 2)[0]
	require.Equal(t, vocab.EventDead, big.Status)
	require.Equal(t, 1, big.Attempts, "dead at the first attempt")
	require.Contains(t, big.LastError, "MESSAGE_TOO_LARGE")
	require.Regexp(t, `record of \d+ bytes, over kafka.max-record-bytes 65536; not produced`, big.LastError)
	e.sentExcept(t, 2, 1, 2, 3, 4)
	lag, err := e.st.OutboxLag(t.Context())
	require.NoError(t, err)
	require.Empty(t, lag, "the watermark passed the dead event")
	_, failed, dead := e.obs.get()
	require.Equal(t, 1, failed[vocab.TargetMsg])
	require.Equal(t, 1, dead[vocab.TargetMsg])
}

// TestMsgBrokerRefusalGoesDeadAtOnce: the topic's max.message.bytes is below
// kafka.max-record-bytes (a misconfiguration), so the broker is the one to
// refuse the record. Refused alone it is DEAD at once; the events behind it
// go on without a backoff.
func TestMsgBrokerRefusalGoesDeadAtOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.lowerMaxMessageBytes(t, topicMsg, "16384") // the client allows 64 KiB
	a := otherPartition(1002)
	e.insert(t,
		event(vocab.TargetMsg, 1, a, 1, ""),
		event(vocab.TargetMsg, 2, 1002, 1, bigPayload(t, 30_000)),
		event(vocab.TargetMsg, 3, 1002, 2, ""),
		event(vocab.TargetMsg, 4, a, 2, ""),
	)
	d := e.dispatcher()
	e.deliver(t, d)

	big := e.eventsOf(t, 2)[0]
	require.Equal(t, vocab.EventDead, big.Status)
	require.Equal(t, 1, big.Attempts, "dead at the first recorded attempt")
	require.Contains(t, big.LastError, "MESSAGE_TOO_LARGE", "the dead letter keeps the reason")
	e.sentExcept(t, 2, 1, 2, 3, 4)
	_, _, dead := e.obs.get()
	require.Equal(t, 1, dead[vocab.TargetMsg])
}

// TestMsgBrokerRefusalBlamesOnlyTheRecordAtFault: the broker refuses a batch
// as a whole and the client fails every record of that partition with it.
// A small record of the same partition, before the large one, is not made
// DEAD for it: only a record refused alone is.
func TestMsgBrokerRefusalBlamesOnlyTheRecordAtFault(t *testing.T) {
	t.Parallel()
	for range 3 { // the client batches as it goes: vary the timing
		e := newEnv(t)
		e.lowerMaxMessageBytes(t, topicMsg, "16384")
		x, b := samePartition(1002), otherPartition(1002)
		e.insert(t,
			event(vocab.TargetMsg, 1, x, 1, ""),
			event(vocab.TargetMsg, 2, 1002, 1, ""),
			event(vocab.TargetMsg, 3, 1002, 2, bigPayload(t, 30_000)),
			event(vocab.TargetMsg, 4, b, 1, ""),
		)
		e.deliver(t, e.dispatcher())

		require.Equal(t, vocab.EventDead, e.eventsOf(t, 3)[0].Status)
		e.sentExcept(t, 3, 1, 2, 3, 4)
		_, _, dead := e.obs.get()
		require.Equal(t, 1, dead[vocab.TargetMsg], "only the large record is dead")
	}
}
