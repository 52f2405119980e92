package kafka

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// RecordBytes is franz-go's own measure against ProducerBatchMaxBytes: a
// client capped at exactly RecordBytes(r) produces r, one capped a byte
// lower refuses it as MESSAGE_TOO_LARGE. So the pump and the relay, which
// size records by it, never disagree with the client.
func TestRecordBytesIsTheClientsMeasure(t *testing.T) {
	c := kfake.MustCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, "t"))
	defer c.Close()
	for _, payload := range []string{strings.Repeat("x", 600), strings.Repeat("y", 20_000)} {
		e := store.Event{
			NewEvent: vocab.NewEvent{
				Target: vocab.TargetMsg, EventType: vocab.EventUpsert, MsgID: 123456, FLID: 30001, StateVersion: 7,
				IdempotencyKey: vocab.IdempotencyKey(123456, 30001, 7, vocab.TargetMsg), Payload: []byte(payload),
			},
			ID: 42, PartitionKey: vocab.PartitionKey(30001),
		}
		n := RecordBytes(Record("t", e))
		require.Greater(t, n, 512, "franz-go's smallest cap")
		for _, limit := range []int{n, n - 1} {
			cfg := DefaultConfig()
			cfg.Brokers, cfg.MaxRecordBytes, cfg.ProduceTimeout = c.ListenAddrs(), int32(limit), 5*time.Second
			cl, err := NewClient(cfg)
			require.NoError(t, err)
			err = cl.ProduceSync(t.Context(), Record("t", e)).FirstErr()
			cl.Close()
			if limit == n {
				require.NoError(t, err, "a record of %d bytes under a cap of %d", n, limit)
			} else {
				require.ErrorIs(t, err, kerr.MessageTooLarge, "a record of %d bytes under a cap of %d", n, limit)
			}
		}

		// A TOMBSTONE's value is null, whatever payload the event holds.
		e.EventType = vocab.EventTombstone
		empty := e
		empty.Payload = nil
		require.Equal(t, RecordBytes(Record("t", empty)), RecordBytes(Record("t", e)))
	}
}

// EventBytes bounds the record an event will have once written, whatever
// EVENT_ID it gets.
func TestEventBytesBoundsTheRecord(t *testing.T) {
	ne := vocab.NewEvent{
		Target: vocab.TargetSchd, EventType: vocab.EventUpsert, MsgID: 9, FLID: 30001, StateVersion: 1,
		IdempotencyKey: vocab.IdempotencyKey(9, 30001, 1, vocab.TargetSchd),
	}
	payload := []byte(`{"flid":30001}`)
	bound := EventBytes(ne, payload)
	for _, id := range []int64{1, 99_999, 1 << 62} {
		e := store.Event{NewEvent: ne, ID: id, PartitionKey: vocab.PartitionKey(ne.FLID)}
		e.Payload = payload
		require.LessOrEqual(t, RecordBytes(Record("t", e)), bound, "event id %d", id)
		if id == 1 {
			require.Equal(t, bound-18, RecordBytes(Record("t", e)), "the widest EVENT_ID has 18 digits more than 1")
		}
	}
}
