package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func env(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }

func TestDefaults(t *testing.T) {
	c, err := Load("", env(nil))
	require.NoError(t, err)
	require.Equal(t, "Asia/Shanghai", c.Location.String())
	require.Equal(t, 500, c.PollBatch)
	require.Equal(t, 5, c.MaxAttempts)
	require.Equal(t, 10*time.Minute, c.HeadDeadline)
	require.True(t, c.SnapshotPrune)
	require.Equal(t, []string{"LDM", "REGN", "RSTA", "EROR"}, c.IgnoreTypes)
	require.Equal(t, "all", c.Kafka.Acks)
	require.True(t, c.Kafka.Idempotence)
	require.Empty(t, c.Kafka.Brokers)
	require.Equal(t, 3*time.Second, c.Schd.FlushPeriod)
	require.Equal(t, 500, c.Schd.FlushLimit)
}

func TestEnvOverrides(t *testing.T) {
	c, err := Load("", env(map[string]string{
		"MSGX_POLL_BATCH": "10", "MSGX_POLL_INTERVAL": "250ms", "MSGX_SNAPSHOT_PRUNE": "false",
		"MSGX_IGNORE_TYPES": "ldm, eror", "MSGX_AIRPORT_TZ": "Europe/Berlin",
		"MSGX_KAFKA_BROKERS": "k1:9092, k2:9092", "MSGX_SHADOW": "true",
	}))
	require.NoError(t, err)
	require.Equal(t, 10, c.PollBatch)
	require.Equal(t, 250*time.Millisecond, c.PollInterval)
	require.False(t, c.SnapshotPrune)
	require.Equal(t, []string{"LDM", "EROR"}, c.IgnoreTypes)
	require.Equal(t, "Europe/Berlin", c.Location.String())
	require.Equal(t, []string{"k1:9092", "k2:9092"}, c.Kafka.Brokers)
	require.True(t, c.Shadow)
}

func writeFile(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "msgx.yaml")
	require.NoError(t, os.WriteFile(p, []byte(body), 0o600))
	return p
}

func TestFileThenEnv(t *testing.T) {
	p := writeFile(t, `
pipeline:
  poll-batch: 20
  head-deadline: 5m
  ignore-types: [ldm]
kafka:
  brokers: [a:9092, b:9092]
  sasl:
    mechanism: SCRAM-SHA-512
    username: u
    password: p
schd:
  flush-limit: 50
`)
	c, err := Load(p, env(map[string]string{"MSGX_POLL_BATCH": "30"}))
	require.NoError(t, err)
	require.Equal(t, 30, c.PollBatch, "the environment overrides the file")
	require.Equal(t, 5*time.Minute, c.HeadDeadline, "the file overrides the default")
	require.Equal(t, []string{"LDM"}, c.IgnoreTypes)
	require.Equal(t, []string{"a:9092", "b:9092"}, c.Kafka.Brokers)
	require.Equal(t, "SCRAM-SHA-512", c.Kafka.SASL.Mechanism)
	require.Equal(t, 50, c.Schd.FlushLimit)

	// MSGX_CONFIG names the file when --config does not.
	c, err = Load("", env(map[string]string{"MSGX_CONFIG": p}))
	require.NoError(t, err)
	require.Equal(t, 20, c.PollBatch)
}

// pipeline.claim-batch was renamed pipeline.poll-batch (nothing is
// claimed): the former key and variable are still read, with a warning,
// where the new one is not set; the new one wins at each layer.
func TestRenamedKeyStillReadWithAWarning(t *testing.T) {
	p := writeFile(t, "pipeline:\n  claim-batch: 20\n")
	c, err := Load(p, env(nil))
	require.NoError(t, err)
	require.Equal(t, 20, c.PollBatch)
	require.Equal(t, []string{"pipeline.claim-batch in " + p + " is deprecated: it is pipeline.poll-batch now (docs/config.md)"}, c.Deprecated)

	c, err = Load("", env(map[string]string{"MSGX_CLAIM_BATCH": "30"}))
	require.NoError(t, err)
	require.Equal(t, 30, c.PollBatch)
	require.Equal(t, []string{"MSGX_CLAIM_BATCH is deprecated: it is MSGX_POLL_BATCH now (docs/config.md)"}, c.Deprecated)

	c, err = Load(writeFile(t, "pipeline:\n  claim-batch: 20\n  poll-batch: 25\n"), env(map[string]string{"MSGX_CLAIM_BATCH": "30", "MSGX_POLL_BATCH": "40"}))
	require.NoError(t, err)
	require.Equal(t, 40, c.PollBatch, "the new variable wins over the former one")
	require.Len(t, c.Deprecated, 2)

	c, err = Load(writeFile(t, "pipeline:\n  claim-batch: 20\n  poll-batch: 25\n"), env(nil))
	require.NoError(t, err)
	require.Equal(t, 25, c.PollBatch, "the new key wins over the former one in the file")

	c, err = Load("", env(nil))
	require.NoError(t, err)
	require.Empty(t, c.Deprecated)
}

func TestFileErrors(t *testing.T) {
	_, err := Load(writeFile(t, "pipeline:\n  poll-bacth: 20\n"), env(nil))
	require.ErrorContains(t, err, "pipeline.poll-bacth: unknown key")

	_, err = Load(writeFile(t, "pipeline:\n  poll-batch: zero\n"), env(nil))
	require.ErrorContains(t, err, `pipeline.poll-batch (MSGX_POLL_BATCH)="zero": must be a positive integer`)

	_, err = Load(filepath.Join(t.TempDir(), "missing.yaml"), env(nil))
	require.ErrorContains(t, err, "missing.yaml")

	_, err = Load(writeFile(t, "pipeline: [\n"), env(nil))
	require.Error(t, err)
}

func TestInvalidValuesNameTheKey(t *testing.T) {
	_, err := Load("", env(map[string]string{
		"MSGX_POLL_BATCH": "zero", "MSGX_AIRPORT_TZ": "Mars/Olympus", "MSGX_ENV": "staging",
		"MSGX_HEAD_DEADLINE": "-1s", "MSGX_BACKOFF_BASE": "2m",
	}))
	require.Error(t, err)
	for _, key := range []string{"MSGX_POLL_BATCH", "MSGX_AIRPORT_TZ", "MSGX_ENV", "MSGX_HEAD_DEADLINE", "pipeline.backoff-cap"} {
		require.Contains(t, err.Error(), key)
	}
	require.Len(t, strings.Split(err.Error(), "\n"), 5, "one line per invalid key")
}

func TestProdRefusals(t *testing.T) {
	_, err := Load("", env(map[string]string{"MSGX_ENV": "prod", "MSGX_KAFKA_TLS_INSECURE_SKIP_VERIFY": "true"}))
	require.Error(t, err)
	for _, want := range []string{"MSGX_PG_URL", "MSGX_MAILBOX_DSN", "MSGX_KAFKA_BROKERS", "MSGX_ADMIN_TOKEN", "MSGX_KAFKA_TLS_INSECURE_SKIP_VERIFY",
		"http.send-token (MSGX_HTTP_SEND_TOKEN): must be set in prod"} {
		require.Contains(t, err.Error(), want)
	}

	c, err := Load("", env(map[string]string{
		"MSGX_ENV": "prod", "MSGX_PG_URL": "postgres://db/msgx", "MSGX_MAILBOX_DSN": "u:p@tcp(aodb:3306)/mb",
		"MSGX_KAFKA_BROKERS": "k:9092", "MSGX_ADMIN_TOKEN": "0123456789abcdef0123",
		"MSGX_HTTP_SEND_TOKEN": "0123456789abcdef0123456789abcdef",
	}))
	require.NoError(t, err)
	require.Equal(t, "prod", c.Env)
	require.Equal(t, "0123456789abcdef0123456789abcdef", c.SendToken)
}

// docs/config.md and the example file are generated from the table; a key
// added without regenerating them fails here.
func TestDocsAreCurrent(t *testing.T) {
	for name, want := range map[string]string{"config.md": Markdown(), "config.example.yaml": ExampleYAML()} {
		got, err := os.ReadFile(filepath.Join("..", "..", "docs", name))
		require.NoError(t, err)
		require.Equal(t, want, string(got), "docs/%s is stale: run make generate", name)
	}
	for _, k := range Keys() {
		require.Contains(t, Markdown(), "`"+k+"`")
		require.NotEmpty(t, EnvOf(k))
	}
}

// The generated example is a valid configuration equal to the defaults.
func TestExampleLoadsAsDefaults(t *testing.T) {
	c, err := Load(filepath.Join("..", "..", "docs", "config.example.yaml"), env(nil))
	require.NoError(t, err)
	d := Defaults()
	for _, f := range fields {
		require.Equal(t, f.get(&d), f.get(&c), f.key)
	}
}

// gc.memory-limit 0 derives the limit from the run budget; set, it wins.
func TestMemoryLimit(t *testing.T) {
	c, err := Load("", env(nil))
	require.NoError(t, err)
	require.Equal(t, 64<<20, c.RunBytes)
	require.Equal(t, 4, c.MaxConcurrentSends)
	require.Equal(t, int64(320<<20), c.MemoryLimit(), "4 × run-bytes + 64 MiB")
	c, err = Load("", env(map[string]string{"MSGX_RUN_BYTES": "16777216"}))
	require.NoError(t, err)
	require.Equal(t, int64(128<<20), c.MemoryLimit())
	c, err = Load("", env(map[string]string{"MSGX_GC_MEMORY_LIMIT": "1073741824"}))
	require.NoError(t, err)
	require.Equal(t, int64(1<<30), c.MemoryLimit())
	_, err = Load("", env(map[string]string{"MSGX_GC_MEMORY_LIMIT": "-1"}))
	require.ErrorContains(t, err, "gc.memory-limit (MSGX_GC_MEMORY_LIMIT)")
}

// The request.* keys: defaults, and each invalid value named.
func TestRequestKeys(t *testing.T) {
	c, err := Load("", env(nil))
	require.NoError(t, err)
	require.Equal(t, Request{Guard: "request", Timeout: 10 * time.Minute, OnStart: true, DailyAt: "22:00", RoutingID: "AODB", Sender: "MSGX", MaxDays: 7}, c.Request)

	for _, tc := range []struct{ env, value, want string }{
		{"MSGX_REQUEST_GUARD", "maybe", "request.guard (MSGX_REQUEST_GUARD)"},
		{"MSGX_REQUEST_ROUTING_ID", strings.Repeat("R", 24), "request.routing-id (MSGX_REQUEST_ROUTING_ID)"},
		{"MSGX_REQUEST_SENDER", "MS%X", "request.sender (MSGX_REQUEST_SENDER)"},
		{"MSGX_REQUEST_TIMEOUT", "0s", "request.timeout (MSGX_REQUEST_TIMEOUT)"},
		{"MSGX_REQUEST_MAX_DAYS", "0", "request.max-days (MSGX_REQUEST_MAX_DAYS)"},
	} {
		_, err := Load("", env(map[string]string{tc.env: tc.value}))
		require.ErrorContains(t, err, tc.want)
	}
	c, err = Load("", env(map[string]string{"MSGX_REQUEST_GUARD": "mailbox", "MSGX_REQUEST_DAILY_AT": "06:30", "MSGX_REQUEST_MAX_DAYS": "3"}))
	require.NoError(t, err)
	require.Equal(t, 3, c.Request.MaxDays)
	require.Equal(t, "mailbox", c.Request.Guard)
	require.Equal(t, "06:30", c.Request.DailyAt)
}

// The listen address is checked at load, before anything listens (the
// database URLs, whose syntax is the drivers', by app.LoadConfig's checks).
func TestListenAddressValidated(t *testing.T) {
	for _, tc := range []struct{ addr, want string }{
		{"notaport", `http.addr (MSGX_HTTP_ADDR): "notaport" is not host:port`},
		{"127.0.0.1:http", `http.addr (MSGX_HTTP_ADDR): port "http" of "127.0.0.1:http" is not a number`},
		{"127.0.0.1:70000", `is not a number from 0 to 65535`},
	} {
		_, err := Load("", env(map[string]string{"MSGX_HTTP_ADDR": tc.addr}))
		require.ErrorContains(t, err, tc.want, tc.addr)
		require.Equal(t, 1, strings.Count(err.Error(), "\n")+1, "one line: %v", err)
	}
	for _, ok := range []string{":8080", "0.0.0.0:0", "[::1]:8080"} {
		_, err := Load("", env(map[string]string{"MSGX_HTTP_ADDR": ok}))
		require.NoError(t, err, ok)
	}
}

// A Check runs after the table's own rules, on the loaded values, and its
// error joins theirs; Name spells a key as every error does.
func TestChecksJoinTheErrors(t *testing.T) {
	seen := ""
	check := func(c Config) error {
		seen = c.Request.Sender
		return errors.New(Name("request.sender") + ": refused by a check")
	}
	_, err := Load("", env(map[string]string{"MSGX_REQUEST_SENDER": "OTHER", "MSGX_POLL_BATCH": "zero"}), check)
	require.Equal(t, "OTHER", seen)
	require.Equal(t, "pipeline.poll-batch (MSGX_POLL_BATCH)=\"zero\": must be a positive integer\n"+
		"request.sender (MSGX_REQUEST_SENDER): refused by a check", err.Error())
	_, err = Load("", env(nil), func(Config) error { return nil })
	require.NoError(t, err)
}
