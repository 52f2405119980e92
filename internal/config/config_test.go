package config

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func env(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }

func TestDefaults(t *testing.T) {
	c, err := Load(env(nil))
	require.NoError(t, err)
	require.Equal(t, "Asia/Shanghai", c.Location.String())
	require.Equal(t, 50, c.ClaimBatch)
	require.Equal(t, 5, c.MaxAttempts)
	require.Equal(t, 10*time.Minute, c.HeadDeadline)
	require.True(t, c.SnapshotPrune)
}

func TestOverrides(t *testing.T) {
	c, err := Load(env(map[string]string{
		"MSGX_CLAIM_BATCH": "10", "MSGX_POLL_INTERVAL": "250ms", "MSGX_SNAPSHOT_PRUNE": "false",
		"MSGX_IGNORE_TYPES": "ldm, eror", "MSGX_AIRPORT_TZ": "Europe/Berlin",
	}))
	require.NoError(t, err)
	require.Equal(t, 10, c.ClaimBatch)
	require.Equal(t, 250*time.Millisecond, c.PollInterval)
	require.False(t, c.SnapshotPrune)
	require.Equal(t, []string{"LDM", "EROR"}, c.IgnoreTypes)
	require.Equal(t, "Europe/Berlin", c.Location.String())
}

func TestInvalidValuesNameTheKey(t *testing.T) {
	_, err := Load(env(map[string]string{
		"MSGX_CLAIM_BATCH": "zero", "MSGX_AIRPORT_TZ": "Mars/Olympus", "MSGX_ENV": "staging", "MSGX_HEAD_DEADLINE": "-1s",
	}))
	require.Error(t, err)
	for _, key := range []string{"MSGX_CLAIM_BATCH", "MSGX_AIRPORT_TZ", "MSGX_ENV", "MSGX_HEAD_DEADLINE"} {
		require.Contains(t, err.Error(), key)
	}
	_, err = Load(env(map[string]string{"MSGX_ENV": "prod"}))
	require.ErrorContains(t, err, "MSGX_MAILBOX_DSN")
}
