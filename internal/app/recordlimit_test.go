package app

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/config"
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
