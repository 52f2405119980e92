package kafka

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

func TestDefaultConfigIsValid(t *testing.T) {
	require.NoError(t, DefaultConfig().Validate())
}

func TestValidateRefusesUnsafeSettings(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(*Config)
		want   string
	}{
		{"acks 1", func(c *Config) { c.Acks = "1" }, "kafka.acks (MSGX_KAFKA_ACKS): must be all"},
		{"acks 0", func(c *Config) { c.Acks = "0" }, "kafka.acks (MSGX_KAFKA_ACKS): must be all"},
		{"no idempotence", func(c *Config) { c.Idempotence = false }, "kafka.idempotence (MSGX_KAFKA_IDEMPOTENCE): must be true"},
		{"in-flight 6", func(c *Config) { c.MaxInFlight = 6 }, "kafka.max-in-flight (MSGX_KAFKA_MAX_IN_FLIGHT): must be 1..5"},
		{"in-flight 0", func(c *Config) { c.MaxInFlight = 0 }, "kafka.max-in-flight (MSGX_KAFKA_MAX_IN_FLIGHT): must be 1..5"},
		{"no produce bound", func(c *Config) { c.ProduceTimeout = 0 }, "kafka.produce-timeout (MSGX_KAFKA_PRODUCE_TIMEOUT)"},
		{"no topic", func(c *Config) { c.TopicMsg = "" }, "kafka.topic-msg (MSGX_KAFKA_TOPIC_MSG)"},
		{"unknown mechanism", func(c *Config) { c.SASL = SASL{Mechanism: "GSSAPI", Username: "u", Password: "p"} }, "kafka.sasl.mechanism (MSGX_KAFKA_SASL_MECHANISM): must be PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512"},
		{"mechanism without password", func(c *Config) { c.SASL = SASL{Mechanism: ScramSHA512, Username: "u"} }, "kafka.sasl.mechanism (MSGX_KAFKA_SASL_MECHANISM): SCRAM-SHA-512 needs"},
		{"credentials without mechanism", func(c *Config) { c.SASL = SASL{Username: "u", Password: "p"} }, "kafka.sasl.mechanism (MSGX_KAFKA_SASL_MECHANISM): is empty"},
		{"unreadable CA", func(c *Config) { c.TLS = TLS{Enabled: true, CAFile: "/nonexistent/ca.pem"} }, "kafka.tls.ca-file (MSGX_KAFKA_TLS_CA_FILE): cannot be read"},
		{"CA without TLS", func(c *Config) { c.TLS = TLS{CAFile: "/etc/hostname"} }, "kafka.tls.ca-file (MSGX_KAFKA_TLS_CA_FILE): is set but kafka.tls.enabled is false"},
		{"cert without key", func(c *Config) { c.TLS = TLS{Enabled: true, CertFile: "/etc/hostname"} }, "kafka.tls.cert-file (MSGX_KAFKA_TLS_CERT_FILE): a client certificate needs both"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := DefaultConfig()
			tc.mutate(&c)
			err := c.Validate()
			require.Error(t, err)
			require.Contains(t, err.Error(), tc.want)

			c.Brokers = []string{"127.0.0.1:1"}
			_, err = NewClient(c)
			require.ErrorContains(t, err, tc.want, "the client is refused too")
		})
	}
}

func TestValidateNamesEverySetting(t *testing.T) {
	c := DefaultConfig()
	c.Acks, c.Idempotence, c.MaxInFlight = "1", false, 10
	err := c.Validate()
	for _, key := range []string{"kafka.acks", "kafka.idempotence", "kafka.max-in-flight"} {
		require.ErrorContains(t, err, key)
	}
}

// TestClientProducesSafely checks on the wire what the options promise:
// acks=all on every produce request and an idempotent producer id.
func TestClientProducesSafely(t *testing.T) {
	c := kfake.MustCluster(kfake.NumBrokers(1), kfake.SeedTopics(2, "t"))
	defer c.Close()
	var produces, badAcks, initPID atomic.Int32
	c.ControlKey(int16(kmsg.Produce), func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		produces.Add(1)
		if req.(*kmsg.ProduceRequest).Acks != -1 {
			badAcks.Add(1)
		}
		return nil, nil, false
	})
	c.ControlKey(int16(kmsg.InitProducerID), func(kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		initPID.Add(1)
		return nil, nil, false
	})
	cfg := DefaultConfig()
	cfg.Brokers = c.ListenAddrs()
	cl, err := NewClient(cfg)
	require.NoError(t, err)
	defer cl.Close()
	require.NoError(t, cl.ProduceSync(t.Context(), &kgo.Record{Topic: "t", Key: []byte("1"), Value: []byte("v")}).FirstErr())
	require.Positive(t, produces.Load())
	require.Zero(t, badAcks.Load(), "every produce request asks for acks=all")
	require.Positive(t, initPID.Load(), "the producer is idempotent")
}

func TestCheckTopicsNamesTheMissingTopic(t *testing.T) {
	emb, err := StartEmbedded("msgx.flight.msg")
	require.NoError(t, err)
	defer emb.Close()
	cfg := DefaultConfig()
	cfg.Brokers = emb.Addrs()
	cl, err := NewClient(cfg)
	require.NoError(t, err)
	defer cl.Close()

	err = CheckTopics(t.Context(), cl, cfg.Topics()...)
	require.EqualError(t, err, `kafka: topic "msgx.flight.schd" does not exist (kafka.topic-schd / MSGX_KAFKA_TOPIC_SCHD); create it or fix the name`)

	cfg.TopicSchd = "msgx.flight.msg"
	require.NoError(t, CheckTopics(t.Context(), cl, cfg.Topics()...))
}

func TestEmbeddedHasSeveralPartitions(t *testing.T) {
	emb, err := StartEmbedded("a", "b")
	require.NoError(t, err)
	defer emb.Close()
	cfg := DefaultConfig()
	cfg.Brokers = emb.Addrs()
	cl, err := NewClient(cfg)
	require.NoError(t, err)
	defer cl.Close()
	parts := map[int32]bool{}
	for i := range 64 {
		r := &kgo.Record{Topic: "b", Key: []byte{byte(i)}}
		require.NoError(t, cl.ProduceSync(t.Context(), r).FirstErr())
		parts[r.Partition] = true
	}
	require.Len(t, parts, EmbeddedPartitions)
}

func TestTailPrintsRecords(t *testing.T) {
	emb, err := StartEmbedded("t")
	require.NoError(t, err)
	defer emb.Close()
	cfg := DefaultConfig()
	cfg.Brokers = emb.Addrs()
	cl, err := NewClient(cfg)
	require.NoError(t, err)
	defer cl.Close()
	require.NoError(t, cl.ProduceSync(t.Context(),
		&kgo.Record{Topic: "t", Key: []byte("1001"), Value: []byte(`{"flid":1001}`),
			Headers: []kgo.RecordHeader{{Key: "event-id", Value: []byte("7")}, {Key: "event-type", Value: []byte("UPSERT")}}},
		&kgo.Record{Topic: "t", Key: []byte("1001"),
			Headers: []kgo.RecordHeader{{Key: "event-type", Value: []byte("TOMBSTONE")}}},
	).FirstErr())

	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	require.NoError(t, Tail(ctx, cfg, "t", TailOptions{FromStart: true, Max: 2}, &out))
	blocks := strings.Split(strings.TrimSuffix(out.String(), "\n\n"), "\n\n")
	require.Len(t, blocks, 2)
	require.Regexp(t, `^t partition \d offset 0 at \d{4}-\d\d-\d\dT[0-9:.]+Z\n`, blocks[0])
	require.Contains(t, blocks[0], "key: 1001\nheader event-id: 7\nheader event-type: UPSERT\nvalue: {\"flid\":1001}")
	require.Contains(t, blocks[1], "offset 1 ")
	require.Contains(t, blocks[1], "header event-type: TOMBSTONE\nvalue: null (tombstone)")

	err = Tail(ctx, cfg, "nope", TailOptions{}, &out)
	require.ErrorContains(t, err, `topic "nope" does not exist (--topic)`)
}

func TestSCRAM(t *testing.T) {
	c := kfake.MustCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, "t"), kfake.EnableSASL(), kfake.Superuser(ScramSHA256, "msgx", "secret"))
	defer c.Close()
	cfg := DefaultConfig()
	cfg.Brokers = c.ListenAddrs()
	cfg.SASL = SASL{Mechanism: ScramSHA256, Username: "msgx", Password: "secret"}
	cl, err := NewClient(cfg)
	require.NoError(t, err)
	defer cl.Close()
	require.NoError(t, CheckTopics(t.Context(), cl, Topic{Name: "t"}))

	cfg.SASL.Password = "wrong"
	bad, err := NewClient(cfg)
	require.NoError(t, err)
	defer bad.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	require.Error(t, CheckTopics(ctx, bad, Topic{Name: "t"}), "a wrong password is refused")
}

func TestTLSWithCAFile(t *testing.T) {
	dir := t.TempDir()
	cert := selfSigned(t, dir)
	c := kfake.MustCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, "t"), kfake.TLS(&tls.Config{Certificates: []tls.Certificate{cert}}))
	defer c.Close()
	cfg := DefaultConfig()
	cfg.Brokers = c.ListenAddrs()
	cfg.TLS = TLS{Enabled: true, CAFile: filepath.Join(dir, "ca.pem"), ServerName: "localhost"}
	cl, err := NewClient(cfg)
	require.NoError(t, err)
	defer cl.Close()
	require.NoError(t, cl.ProduceSync(t.Context(), &kgo.Record{Topic: "t", Value: []byte("v")}).FirstErr())

	// Without the CA the broker certificate is not trusted.
	cfg.TLS.CAFile = ""
	untrusted, err := NewClient(cfg)
	require.NoError(t, err)
	defer untrusted.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	require.Error(t, CheckTopics(ctx, untrusted, Topic{Name: "t"}))
}

// selfSigned writes ca.pem (a self-signed certificate for localhost) into
// dir and returns it with its key.
func selfSigned(t *testing.T, dir string) tls.Certificate {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "localhost"},
		DNSNames: []string{"localhost"}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, IsCA: true, BasicConstraintsValid: true,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tpl, tpl, &key.PublicKey, key)
	require.NoError(t, err)
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	require.NoError(t, os.WriteFile(filepath.Join(dir, "ca.pem"), certPEM, 0o600))
	kb, err := x509.MarshalECPrivateKey(key)
	require.NoError(t, err)
	cert, err := tls.X509KeyPair(certPEM, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}))
	require.NoError(t, err)
	return cert
}
