// Package kafka is msgx's side of the broker: the producer client with its
// delivery-safety settings enforced (docs/design.md rule 9), the start-up
// topic check, the embedded development cluster and the record printer behind
// `msgx tail`. The outbox relay (internal/relay) produces through it.
package kafka

import (
	"errors"
	"fmt"
	"os"
	"time"
)

// Config is the broker connection and producer policy, made by internal/app
// of config.Kafka's plain values. Setting names in errors are the config
// keys (and variables) of internal/config.
type Config struct {
	Brokers        []string
	ClientID       string
	TopicMsg       string // KAFKA:msg, every change
	TopicSchd      string // KAFKA:schd, latest state per flight
	Acks           string // must be "all"
	Idempotence    bool   // must be true
	MaxInFlight    int    // produce requests in flight per broker, 1..5
	ProduceTimeout time.Duration
	DialTimeout    time.Duration
	// MaxRecordBytes caps a produce batch per partition (franz-go's
	// ProducerBatchMaxBytes), so it is the largest record, as RecordBytes
	// measures it. The pump refuses a message whose event would exceed it,
	// the relay an event over it. It must not exceed the topics'
	// max.message.bytes: the broker refuses a too-large batch as a whole,
	// and the client then fails every record of that partition it holds.
	MaxRecordBytes int32
	TLS            TLS
	SASL           SASL
}

// TLS is the broker TLS configuration.
type TLS struct {
	Enabled            bool
	CAFile             string // PEM bundle; empty: system roots
	CertFile, KeyFile  string // client certificate (mutual TLS)
	ServerName         string // empty: the broker host
	InsecureSkipVerify bool
}

// SASL is the broker authentication; an empty Mechanism is none.
type SASL struct {
	Mechanism string // PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512
	Username  string
	Password  string
}

// SASL mechanisms.
const (
	Plain       = "PLAIN"
	ScramSHA256 = "SCRAM-SHA-256"
	ScramSHA512 = "SCRAM-SHA-512"
)

// DefaultConfig returns the documented defaults (no brokers: the caller
// decides between configured brokers and the embedded dev cluster). Config's
// field table documents the same values; a test of internal/app keeps them
// equal.
func DefaultConfig() Config {
	return Config{
		ClientID: "msgx", TopicMsg: "msgx.flight.msg", TopicSchd: "msgx.flight.schd",
		Acks: "all", Idempotence: true, MaxInFlight: 5,
		ProduceTimeout: 10 * time.Second, DialTimeout: 10 * time.Second, MaxRecordBytes: 1_000_012,
	}
}

// Validate refuses every setting that weakens delivery safety or cannot
// work, naming each by its key. It does not require brokers (dev starts an
// embedded cluster); the caller checks that.
func (c Config) Validate() error {
	var errs []error
	bad := func(key, env, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s (%s): %s", key, env, fmt.Sprintf(format, args...)))
	}
	if c.Acks != "all" {
		bad("kafka.acks", "MSGX_KAFKA_ACKS", "must be all, not %q: fewer acks can lose acknowledged events", c.Acks)
	}
	if !c.Idempotence {
		bad("kafka.idempotence", "MSGX_KAFKA_IDEMPOTENCE", "must be true: without it a retried produce can duplicate or reorder events")
	}
	if c.MaxInFlight < 1 || c.MaxInFlight > 5 {
		bad("kafka.max-in-flight", "MSGX_KAFKA_MAX_IN_FLIGHT", "must be 1..5, not %d: more breaks per-partition order of the idempotent producer", c.MaxInFlight)
	}
	if c.TopicMsg == "" {
		bad("kafka.topic-msg", "MSGX_KAFKA_TOPIC_MSG", "must be set")
	}
	if c.TopicSchd == "" {
		bad("kafka.topic-schd", "MSGX_KAFKA_TOPIC_SCHD", "must be set")
	}
	if c.ProduceTimeout <= 0 {
		bad("kafka.produce-timeout", "MSGX_KAFKA_PRODUCE_TIMEOUT", "must be positive: every produce is bounded")
	}
	if c.DialTimeout <= 0 {
		bad("kafka.dial-timeout", "MSGX_KAFKA_DIAL_TIMEOUT", "must be positive")
	}
	switch c.SASL.Mechanism {
	case "":
		if c.SASL.Username != "" || c.SASL.Password != "" {
			bad("kafka.sasl.mechanism", "MSGX_KAFKA_SASL_MECHANISM", "is empty but credentials are set: name PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512")
		}
	case Plain, ScramSHA256, ScramSHA512:
		if c.SASL.Username == "" || c.SASL.Password == "" {
			bad("kafka.sasl.mechanism", "MSGX_KAFKA_SASL_MECHANISM", "%s needs kafka.sasl.username and kafka.sasl.password", c.SASL.Mechanism)
		}
	default:
		bad("kafka.sasl.mechanism", "MSGX_KAFKA_SASL_MECHANISM", "must be PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512, not %q", c.SASL.Mechanism)
	}
	tlsFile := func(key, env, path string) {
		if path == "" {
			return
		}
		if !c.TLS.Enabled {
			bad(key, env, "is set but kafka.tls.enabled is false")
			return
		}
		if _, err := os.ReadFile(path); err != nil {
			bad(key, env, "cannot be read: %v", err)
		}
	}
	tlsFile("kafka.tls.ca-file", "MSGX_KAFKA_TLS_CA_FILE", c.TLS.CAFile)
	tlsFile("kafka.tls.cert-file", "MSGX_KAFKA_TLS_CERT_FILE", c.TLS.CertFile)
	tlsFile("kafka.tls.key-file", "MSGX_KAFKA_TLS_KEY_FILE", c.TLS.KeyFile)
	if (c.TLS.CertFile == "") != (c.TLS.KeyFile == "") {
		bad("kafka.tls.cert-file", "MSGX_KAFKA_TLS_CERT_FILE", "a client certificate needs both kafka.tls.cert-file and kafka.tls.key-file")
	}
	return errors.Join(errs...)
}

// Topic is a topic name with the setting it comes from, for messages that
// tell the operator what to fix.
type Topic struct {
	Name    string
	Setting string // "kafka.topic-msg / MSGX_KAFKA_TOPIC_MSG"
}

// Topics returns the msg and schd topics.
func (c Config) Topics() []Topic {
	return []Topic{
		{Name: c.TopicMsg, Setting: "kafka.topic-msg / MSGX_KAFKA_TOPIC_MSG"},
		{Name: c.TopicSchd, Setting: "kafka.topic-schd / MSGX_KAFKA_TOPIC_SCHD"},
	}
}
