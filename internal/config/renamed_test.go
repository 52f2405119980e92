package config

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The relay's section is relay; its former name, outbox, is still read, in
// the file and as the variables, with one warning per former name used.
func TestRelayKeysAndTheirFormerNames(t *testing.T) {
	c, err := Load(writeFile(t, "relay:\n  max-attempts: 3\n  backoff-cap: 2m\n"), env(map[string]string{"MSGX_RELAY_BATCH_SIZE": "50"}))
	require.NoError(t, err)
	require.Equal(t, Relay{BatchSize: 50, MaxAttempts: 3, BackoffBase: time.Second, BackoffCap: 2 * time.Minute}, c.Relay)
	require.Empty(t, c.Deprecated)

	p := writeFile(t, "outbox:\n  max-attempts: 3\n  backoff-cap: 2m\n  retention: 24h\n")
	c, err = Load(p, env(map[string]string{"MSGX_OUTBOX_BATCH_SIZE": "50"}))
	require.NoError(t, err, "a former key is no unknown key")
	require.Equal(t, Relay{BatchSize: 50, MaxAttempts: 3, BackoffBase: time.Second, BackoffCap: 2 * time.Minute}, c.Relay)
	require.Equal(t, 24*time.Hour, c.Maintenance.OutboxRetention, "outbox.retention is the outbox's own key, not a former one")
	require.Equal(t, []string{
		"outbox.max-attempts in " + p + " is deprecated: it is relay.max-attempts now (docs/config.md)",
		"outbox.backoff-cap in " + p + " is deprecated: it is relay.backoff-cap now (docs/config.md)",
		"MSGX_OUTBOX_BATCH_SIZE is deprecated: it is MSGX_RELAY_BATCH_SIZE now (docs/config.md)",
	}, c.Deprecated)

	// A former name keeps its layer: the environment still overrides the file.
	c, err = Load(p, env(map[string]string{"MSGX_RELAY_MAX_ATTEMPTS": "7"}))
	require.NoError(t, err)
	require.Equal(t, 7, c.Relay.MaxAttempts)
	p = writeFile(t, "relay:\n  max-attempts: 4\n")
	c, err = Load(p, env(map[string]string{"MSGX_OUTBOX_MAX_ATTEMPTS": "8"}))
	require.NoError(t, err)
	require.Equal(t, 8, c.Relay.MaxAttempts)

	// Both names in one layer: the new one wins, and the former is named as ignored.
	p = writeFile(t, "relay:\n  max-attempts: 4\noutbox:\n  max-attempts: 9\n")
	c, err = Load(p, env(map[string]string{"MSGX_RELAY_BATCH_SIZE": "60", "MSGX_OUTBOX_BATCH_SIZE": "70"}))
	require.NoError(t, err)
	require.Equal(t, 4, c.Relay.MaxAttempts)
	require.Equal(t, 60, c.Relay.BatchSize)
	require.Equal(t, []string{
		"outbox.max-attempts in " + p + " is ignored: relay.max-attempts is set there too (the former name is deprecated; remove it)",
		"MSGX_OUTBOX_BATCH_SIZE is ignored: MSGX_RELAY_BATCH_SIZE is set too (the former name is deprecated; remove it)",
	}, c.Deprecated)

	// A former name's value is validated like the new one's, named by the new key.
	_, err = Load("", env(map[string]string{"MSGX_OUTBOX_BACKOFF_BASE": "5m"}))
	require.ErrorContains(t, err, "relay.backoff-cap (MSGX_RELAY_BACKOFF_CAP): 1m0s must not be below relay.backoff-base 5m0s")
}

// Every former name leads to a key of the table and is no key itself.
func TestRenamedKeysExist(t *testing.T) {
	for _, r := range renamed {
		require.NotNil(t, fieldByKey(r.key), r.key)
		require.Nil(t, fieldByKey(r.former), r.former)
		require.NotEqual(t, r.formerEnv, EnvOf(r.key))
	}
}
