package app

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/kafka"
	"github.com/msgx-aodb/msgx/internal/metrics"
	"github.com/msgx-aodb/msgx/internal/oneline"
	"github.com/msgx-aodb/msgx/internal/relay"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/wake"
)

// outbound is the Kafka side of the service: the producer client and, in
// dev without brokers, the embedded cluster it talks to.
type outbound struct {
	cfg      kafka.Config
	client   *kgo.Client
	embedded *kafka.Embedded // nil with real brokers
}

// startKafka connects the producer and checks that both topics exist. In dev
// without brokers it first starts the embedded cluster (production refuses
// that in config validation; this refuses it again in case of a bypass).
func startKafka(ctx context.Context, c config.Config, log *slog.Logger) (*outbound, error) {
	o := &outbound{cfg: KafkaConfig(c)}
	if len(o.cfg.Brokers) == 0 {
		if c.Env == "prod" {
			return nil, fmt.Errorf("kafka.brokers (MSGX_KAFKA_BROKERS): must be set in prod (the embedded broker is refused)")
		}
		emb, err := kafka.StartEmbedded(o.cfg.TopicMsg, o.cfg.TopicSchd)
		if err != nil {
			return nil, err
		}
		o.embedded = emb
		o.cfg.Brokers = emb.Addrs()
		log.Warn("kafka: no brokers configured; started an embedded development broker (dev only)",
			"brokers", o.cfg.Brokers, "topics", []string{o.cfg.TopicMsg, o.cfg.TopicSchd},
			"tail", "MSGX_KAFKA_BROKERS="+o.cfg.Brokers[0]+" msgx tail --topic msg")
	}
	cl, err := kafka.NewClient(o.cfg)
	if err != nil {
		o.close()
		return nil, err
	}
	o.client = cl
	cctx, cancel := context.WithTimeout(ctx, startupTimeout)
	defer cancel()
	if err := kafka.CheckTopics(cctx, cl, o.cfg.Topics()...); err != nil {
		o.close()
		return nil, fmt.Errorf("%s", oneline.Err(err))
	}
	return o, nil
}

// ping checks that a broker answers (readiness).
func (o *outbound) ping(ctx context.Context) error { return o.client.Ping(ctx) }

// relays builds the leader's Kafka relay: the KAFKA:msg dispatcher (woken
// by committed, rung after every pump commit) and the KAFKA:schd aggregator.
func (o *outbound) relays(c config.Config, st store.Store, clk clock.Clock, log *slog.Logger, met *metrics.Metrics, committed *wake.Signal) (*relay.Dispatcher, *relay.Aggregator) {
	rc := relayConfig(c)
	rc.Committed = committed
	return relay.NewDispatcher(st, o.client, o.cfg.TopicMsg, clk, log, met, rc),
		relay.NewAggregator(st, o.client, o.cfg.TopicSchd, clk, log, met, rc)
}

// relayConfig maps the service configuration onto the relay's.
func relayConfig(c config.Config) relay.Config {
	rc := relay.DefaultConfig()
	rc.BatchSize = c.Relay.BatchSize
	rc.MaxAttempts = c.Relay.MaxAttempts
	// The pump refuses a message whose event would exceed it (pumpConfig);
	// this catches events written before that check or under a larger limit.
	rc.MaxRecordBytes = int(c.Kafka.MaxRecordBytes)
	rc.BackoffBase, rc.BackoffCap = c.Relay.BackoffBase, c.Relay.BackoffCap
	rc.FlushPeriod, rc.FlushLimit = c.Schd.FlushPeriod, c.Schd.FlushLimit
	// Above the client's record timeout, so the client reports the precise error.
	rc.ProduceTimeout = c.Kafka.ProduceTimeout + 5*time.Second
	return rc
}

func (o *outbound) close() {
	if o.client != nil {
		o.client.Close()
	}
	if o.embedded != nil {
		o.embedded.Close()
	}
}
