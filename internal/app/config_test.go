package app

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/aodbrequest"
	"github.com/msgx-aodb/msgx/internal/api"
	"github.com/msgx-aodb/msgx/internal/backfill"
	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/ingress"
	"github.com/msgx-aodb/msgx/internal/kafka"
	"github.com/msgx-aodb/msgx/internal/maintenance"
	"github.com/msgx-aodb/msgx/internal/pump"
	"github.com/msgx-aodb/msgx/internal/relay"
	"github.com/msgx-aodb/msgx/internal/respmatch"
	"github.com/msgx-aodb/msgx/internal/sis"
)

func env(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }

// Weakened delivery settings are refused in every environment, naming the
// setting: kafka.Config.Validate, run by LoadConfig (config imports no Kafka).
func TestConfigUnsafeKafkaRefused(t *testing.T) {
	for _, tc := range []struct{ env, value, want string }{
		{"MSGX_KAFKA_ACKS", "1", "kafka.acks (MSGX_KAFKA_ACKS): must be all"},
		{"MSGX_KAFKA_IDEMPOTENCE", "false", "kafka.idempotence (MSGX_KAFKA_IDEMPOTENCE): must be true"},
		{"MSGX_KAFKA_MAX_IN_FLIGHT", "6", "kafka.max-in-flight (MSGX_KAFKA_MAX_IN_FLIGHT): must be 1..5"},
		{"MSGX_KAFKA_SASL_MECHANISM", "PLAIN", "kafka.sasl.mechanism (MSGX_KAFKA_SASL_MECHANISM): PLAIN needs"},
		{"MSGX_KAFKA_TLS_CA_FILE", "/nonexistent/ca.pem", "kafka.tls.ca-file (MSGX_KAFKA_TLS_CA_FILE): is set but kafka.tls.enabled is false"},
		{"MSGX_ADMIN_TOKEN", "short", "http.admin-token (MSGX_ADMIN_TOKEN): must be at least 16"},
		// An ingest token of the admin token's minimum is still too short.
		{"MSGX_HTTP_SEND_TOKEN", "0123456789abcdef0123456789abcde", "http.send-token (MSGX_HTTP_SEND_TOKEN): must be at least 32 characters"},
	} {
		t.Run(tc.env, func(t *testing.T) {
			_, err := LoadConfig("", env(map[string]string{tc.env: tc.value}))
			require.ErrorContains(t, err, tc.want)
		})
	}
	_, err := LoadConfig("", env(map[string]string{"MSGX_KAFKA_TLS": "true", "MSGX_KAFKA_TLS_CA_FILE": "/nonexistent/ca.pem"}))
	require.ErrorContains(t, err, "kafka.tls.ca-file (MSGX_KAFKA_TLS_CA_FILE): cannot be read")
}

// request.daily-at is read by the request package's own parser.
func TestConfigRequestDailyAt(t *testing.T) {
	_, err := LoadConfig("", env(map[string]string{"MSGX_REQUEST_DAILY_AT": "25:00"}))
	require.ErrorContains(t, err, "request.daily-at (MSGX_REQUEST_DAILY_AT)")
	c, err := LoadConfig("", env(map[string]string{"MSGX_REQUEST_DAILY_AT": ""}))
	require.NoError(t, err, "empty: off")
	rc := RequestConfig(c)
	require.Equal(t, c.Location, rc.Location)
	require.Equal(t, "MSGX", rc.Sender)
	require.Equal(t, "AODB", rc.RoutingID)
	require.Equal(t, 10*time.Minute, rc.Timeout)
}

// Database URLs are checked at load, before anything connects, by the
// drivers' own parsers, and a URL is never repeated (it may hold a password).
func TestConfigDatabaseURLsValidated(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"MSGX_PG_URL": "mysql://msgx:s3cret@db:3306/msgx"}, `postgres.url (MSGX_PG_URL): scheme "mysql" is not postgres:// or postgresql://`},
		{map[string]string{"MSGX_PG_URL": "postgres://msgx:s3cret@db:notaport/msgx"}, `postgres.url (MSGX_PG_URL): not a`},
		{map[string]string{"MSGX_MAILBOX_DSN": "msgx:s3cret@db:3306"}, `mailbox.dsn (MSGX_MAILBOX_DSN): not a go-sql-driver/mysql DSN`},
	} {
		_, err := LoadConfig("", env(tc.env))
		require.ErrorContains(t, err, tc.want, tc.env)
		require.NotContains(t, err.Error(), "s3cret")
		require.Equal(t, 1, strings.Count(err.Error(), "\n")+1, "one line: %v", err)
	}
	// On Oracle postgres.url is not used, so not checked.
	_, err := LoadConfig("", env(map[string]string{"MSGX_DATABASE_DIALECT": "oracle11g", "MSGX_ORACLE_DSN": "u/p@db/svc", "MSGX_PG_URL": "x"}))
	require.NoError(t, err)
}

// Each default is decided once: config's field table documents it, and the
// owning package's Default…Config holds the same value (zero fields of its
// config take it, e.g. in tests). The wiring of config.Defaults() must
// therefore equal those defaults field for field.
func TestConfigDefaultsAreThePackagesDefaults(t *testing.T) {
	c := config.Defaults()

	kc, kd := KafkaConfig(c), kafka.DefaultConfig()
	require.Empty(t, kc.Brokers, "no brokers: dev's embedded cluster")
	require.Equal(t, kd, kc)

	rc, rd := relayConfig(c), relay.DefaultConfig()
	rd.MaxRecordBytes = int(kd.MaxRecordBytes) // kafka's, not the relay's
	rd.ProduceTimeout = kd.ProduceTimeout + 5*time.Second
	require.Equal(t, rd, rc)

	pc, pd := pumpConfig(c), pump.DefaultConfig()
	require.Equal(t, pd.MaxAttempts, pc.MaxAttempts)
	require.Equal(t, pd.BackoffBase, pc.BackoffBase)
	require.Equal(t, pd.BackoffCap, pc.BackoffCap)
	require.Equal(t, pd.HeadDeadline, pc.HeadDeadline)
	require.Equal(t, pd.RunLength, pc.RunLength)
	require.Equal(t, pd.RunBytes, pc.RunBytes)
	require.Equal(t, pd.Prune, pc.Prune)
	require.Equal(t, pd.Idle, pc.Idle)
	require.Equal(t, int(kd.MaxRecordBytes), pc.MaxRecordBytes)
	require.Equal(t, pd.Decode.Location.String(), pc.Decode.Location.String())
	require.Equal(t, pd.Decode.MaxSize, pc.Decode.MaxSize)
	require.Equal(t, pd.Decode.IgnoreTypes, pc.Decode.IgnoreTypes)
	require.Equal(t, pd.Decode.IncludeDayBoundary, pc.Decode.IncludeDayBoundary)

	po, pod := pollerConfig(c, nil, nil, nil), ingress.DefaultConfig()
	require.Equal(t, pod.Batch, po.Batch)
	require.Equal(t, pod.RescanDistance, po.RescanDistance)
	require.Equal(t, pod.RescanAge, po.RescanAge)
	require.Equal(t, pod.GapWait, po.GapWait)
	require.Equal(t, pod.Interval, po.Interval)

	require.Equal(t, backfill.DefaultConfig().Interval, c.BackfillInterval)
	require.Equal(t, ingress.DefaultGapWait, c.GapWait)
	require.Equal(t, pump.DefaultRunBytes, c.RunBytes)
	require.Equal(t, sis.DefaultMaxSize, c.MaxMessageBytes)
	require.Equal(t, sis.DefaultZone, c.AirportTZ)
	require.Equal(t, sis.DefaultIgnoreTypes, c.IgnoreTypes)

	require.Equal(t, aodbrequest.DefaultTimeout, c.Request.Timeout)

	m := c.Maintenance
	require.Equal(t, maintenance.DefaultBatch, m.Batch)
	require.Equal(t, maintenance.DefaultPause, m.Pause)
	require.Equal(t, maintenance.DefaultStatementTimeout, m.StatementTimeout)
	require.Equal(t, maintenance.DefaultHistoryRetention, m.HistoryRetention)
	require.Equal(t, maintenance.DefaultSnapLogRetention, m.SnapLogRetention)
	require.Equal(t, maintenance.DefaultArchiveEvery, m.ArchiveEvery)
	require.Equal(t, maintenance.DefaultArchiveAfter, m.ArchiveAfter)
	require.Equal(t, maintenance.DefaultOutboxEvery, m.OutboxEvery)
	require.Equal(t, maintenance.DefaultOutboxRetention, m.OutboxRetention)
	require.Equal(t, maintenance.DefaultReconcileEvery, c.ReconcileInterval)

	require.Equal(t, api.DefaultMaxJSONBytes, c.MaxJSONBytes)
	require.Equal(t, api.DefaultMaxConcurrentSends, c.MaxConcurrentSends)
	require.Equal(t, api.DefaultMaxBodyBytes, c.MaxMessageBytes)
}

// The values config's table accepts for a setting another package reads are
// that package's: every request.guard mode and SASL mechanism loads.
func TestConfigAcceptsThePackagesValues(t *testing.T) {
	require.Equal(t, respmatch.ModeRequest, respmatch.Mode(config.Defaults().Request.Guard))
	for _, m := range respmatch.Modes {
		c, err := LoadConfig("", env(map[string]string{"MSGX_REQUEST_GUARD": m}))
		require.NoError(t, err, m)
		require.Equal(t, m, c.Request.Guard)
	}
	for _, m := range []string{kafka.Plain, kafka.ScramSHA256, kafka.ScramSHA512} {
		c, err := LoadConfig("", env(map[string]string{
			"MSGX_KAFKA_SASL_MECHANISM": m, "MSGX_KAFKA_SASL_USERNAME": "u", "MSGX_KAFKA_SASL_PASSWORD": "p",
		}))
		require.NoError(t, err, m)
		require.Equal(t, m, KafkaConfig(c).SASL.Mechanism)
	}
}
