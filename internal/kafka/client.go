package kafka

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

// maxRequestTimeout bounds the broker-side wait of one produce request; a
// produce call as a whole is bounded by Config.ProduceTimeout.
const maxRequestTimeout = 10 * time.Second

// NewClient validates cfg and returns a franz-go client with acks=all and
// the idempotent producer (franz-go's default, never disabled here). extra
// options are appended (consumer settings for Tail, test hooks).
//
// franz-go pipelines up to 5 produce requests per broker by itself when
// idempotent and refuses MaxProduceRequestsInflightPerBroker then, so
// MaxInFlight is validated (1..5, the bound under which the broker keeps
// order) but not passed on.
//
// AllowIdempotentProduceCancellation: without it, a record whose request
// went out but got no answer cannot fail, so a produce to a dead broker
// would block for ever. With it, the produce returns at ProduceTimeout and
// the relay retries; a record that did land meanwhile is then written twice
// with the same idempotency key, which delivery is at-least-once for anyway
// (consumers dedupe by that key), and per-partition order still holds
// because the broker refuses sequence gaps.
func NewClient(cfg Config, extra ...kgo.Opt) (*kgo.Client, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if len(cfg.Brokers) == 0 {
		return nil, errors.New("kafka.brokers (MSGX_KAFKA_BROKERS): no brokers configured")
	}
	opts := []kgo.Opt{
		kgo.SeedBrokers(cfg.Brokers...),
		kgo.RequiredAcks(kgo.AllISRAcks()),
		kgo.AllowIdempotentProduceCancellation(),
		kgo.ProduceRequestTimeout(min(cfg.ProduceTimeout, maxRequestTimeout)),
		kgo.RecordDeliveryTimeout(cfg.ProduceTimeout),
		kgo.DialTimeout(cfg.DialTimeout),
		// The relay hands over whole batches and waits for them: lingering
		// for more records would only add latency.
		kgo.ProducerLinger(0),
	}
	if cfg.MaxRecordBytes > 0 {
		opts = append(opts, kgo.ProducerBatchMaxBytes(cfg.MaxRecordBytes))
	}
	if cfg.ClientID != "" {
		opts = append(opts, kgo.ClientID(cfg.ClientID))
	}
	if cfg.TLS.Enabled {
		tc, err := tlsConfig(cfg.TLS)
		if err != nil {
			return nil, err
		}
		opts = append(opts, kgo.DialTLSConfig(tc))
	}
	if m := mechanism(cfg.SASL); m != nil {
		opts = append(opts, kgo.SASL(m))
	}
	cl, err := kgo.NewClient(append(opts, extra...)...)
	if err != nil {
		return nil, fmt.Errorf("kafka: client: %w", err)
	}
	return cl, nil
}

func tlsConfig(t TLS) (*tls.Config, error) {
	// An empty ServerName is filled per broker host by franz-go.
	c := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: t.ServerName, InsecureSkipVerify: t.InsecureSkipVerify}
	if t.CAFile != "" {
		pem, err := os.ReadFile(t.CAFile)
		if err != nil {
			return nil, fmt.Errorf("kafka.tls.ca-file (MSGX_KAFKA_TLS_CA_FILE): %w", err)
		}
		c.RootCAs = x509.NewCertPool()
		if !c.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("kafka.tls.ca-file (MSGX_KAFKA_TLS_CA_FILE): no PEM certificate in %s", t.CAFile)
		}
	}
	if t.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(t.CertFile, t.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("kafka.tls.cert-file (MSGX_KAFKA_TLS_CERT_FILE) / kafka.tls.key-file: %w", err)
		}
		c.Certificates = []tls.Certificate{cert}
	}
	return c, nil
}

// mechanism returns the SASL mechanism of a validated config, nil for none.
func mechanism(s SASL) sasl.Mechanism {
	switch s.Mechanism {
	case Plain:
		return plain.Auth{User: s.Username, Pass: s.Password}.AsMechanism()
	case ScramSHA256:
		return scram.Auth{User: s.Username, Pass: s.Password}.AsSha256Mechanism()
	case ScramSHA512:
		return scram.Auth{User: s.Username, Pass: s.Password}.AsSha512Mechanism()
	}
	return nil
}

// CheckTopics fails unless every topic exists, naming each missing one with
// the setting it came from. ctx bounds the metadata request.
func CheckTopics(ctx context.Context, cl *kgo.Client, topics ...Topic) error {
	names := make([]string, len(topics))
	for i, t := range topics {
		names[i] = t.Name
	}
	// kadm.NewClient borrows cl: not closed here.
	details, err := kadm.NewClient(cl).ListTopics(ctx, names...)
	if err != nil {
		return fmt.Errorf("kafka: list topics: %w", err)
	}
	var errs []error
	for _, t := range topics {
		d, ok := details[t.Name]
		switch {
		case !ok || errors.Is(d.Err, kerr.UnknownTopicOrPartition):
			errs = append(errs, fmt.Errorf("kafka: topic %q does not exist (%s); create it or fix the name", t.Name, t.Setting))
		case d.Err != nil:
			errs = append(errs, fmt.Errorf("kafka: topic %q (%s): %w", t.Name, t.Setting, d.Err))
		}
	}
	return errors.Join(errs...)
}
