package app

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/kafka"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// kafka.max-record-bytes reaches both sides: the pump refuses a message
// whose event exceeds it, the relay an event over it.
func TestRecordLimitReachesPumpAndRelay(t *testing.T) {
	cfg := config.Defaults()
	require.Equal(t, 1_000_012, pumpConfig(cfg).MaxRecordBytes, "the default")
	cfg.Kafka.MaxRecordBytes = 4096
	require.Equal(t, 4096, pumpConfig(cfg).MaxRecordBytes)
	require.Equal(t, 4096, relayConfig(cfg).MaxRecordBytes)
}

// The pump sizes an event as the relay will produce it: the wiring gives it
// kafka.EventBytes (the pump imports no Kafka), whose bound on the real
// record internal/kafka tests.
func TestPumpSizesEventsAsTheRelayProducesThem(t *testing.T) {
	size := pumpConfig(config.Defaults()).EventBytes
	require.NotNil(t, size)
	ne := vocab.NewEvent{
		Target: vocab.TargetMsg, EventType: vocab.EventUpsert, MsgID: 9, FLID: 30001, StateVersion: 1,
		IdempotencyKey: vocab.IdempotencyKey(9, 30001, 1, vocab.TargetMsg),
	}
	payload := []byte(`{"flid":30001}`)
	require.Equal(t, kafka.EventBytes(ne, payload), size(ne, payload))
	require.Greater(t, size(ne, payload), len(payload), "key, headers and batch counted")
}
