package kafka

import (
	"math"
	"strconv"

	"github.com/twmb/franz-go/pkg/kbin"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Record headers (docs/events.md).
const (
	HeaderEventID        = "event-id"
	HeaderIdempotencyKey = "idempotency-key"
	HeaderStateVersion   = "state-version"
	HeaderEventType      = "event-type"
	HeaderCminmsgsID     = "cminmsgs-id"
)

// Record builds the Kafka record of an outbox event: key = FLID, value =
// payload (null for a TOMBSTONE), headers as documented. The timestamp is
// left to the client (produce time): franz-go measures the delivery timeout
// from it. The relay produces exactly this record, and the pump sizes it
// (EventBytes) before writing the event.
func Record(topic string, e store.Event) *kgo.Record {
	value := e.Payload
	if e.EventType == vocab.EventTombstone {
		value = nil
	}
	return &kgo.Record{
		Topic: topic, Key: []byte(e.PartitionKey), Value: value,
		Headers: []kgo.RecordHeader{
			{Key: HeaderEventID, Value: strconv.AppendInt(nil, e.ID, 10)},
			{Key: HeaderIdempotencyKey, Value: []byte(e.IdempotencyKey)},
			{Key: HeaderStateVersion, Value: strconv.AppendInt(nil, e.StateVersion, 10)},
			{Key: HeaderEventType, Value: []byte(e.EventType)},
			{Key: HeaderCminmsgsID, Value: strconv.AppendInt(nil, e.MsgID, 10)},
		},
	}
}

// batchOverhead is the wire size of a record batch holding no record, as
// franz-go counts it (its length prefix included).
const batchOverhead = 4 + 8 + 4 + 4 + 1 + 4 + 2 + 4 + 8 + 8 + 8 + 2 + 4 + 4

// RecordBytes is the size franz-go checks against kafka.max-record-bytes
// (ProducerBatchMaxBytes) for r: a record batch holding r alone,
// uncompressed. r fits when RecordBytes(r) <= the limit; the broker's
// max.message.bytes counts the same batch 4 bytes smaller (no length
// prefix) and after compression.
func RecordBytes(r *kgo.Record) int {
	l := 1 + // attributes
		kbin.VarlongLen(0) + // timestamp delta: the first record of its batch
		kbin.VarintLen(0) + // offset delta
		kbin.VarintLen(int32(len(r.Key))) + len(r.Key) +
		kbin.VarintLen(int32(len(r.Value))) + len(r.Value) +
		kbin.VarintLen(int32(len(r.Headers)))
	for _, h := range r.Headers {
		l += kbin.VarintLen(int32(len(h.Key))) + len(h.Key) + kbin.VarintLen(int32(len(h.Value))) + len(h.Value)
	}
	return batchOverhead + kbin.VarintLen(int32(l)) + l
}

// EventBytes is the largest RecordBytes the record of an event not yet
// written can have: its EVENT_ID comes from the database on insert, so the
// widest is assumed (at most 18 bytes more than the real record). payload is
// the record's value (a KAFKA:schd event's is its KAFKA:msg twin's).
func EventBytes(e vocab.NewEvent, payload []byte) int {
	e.Payload = payload
	return RecordBytes(Record("", store.Event{NewEvent: e, ID: math.MaxInt64, PartitionKey: vocab.PartitionKey(e.FLID)}))
}
