package kafka

import (
	"fmt"

	"github.com/twmb/franz-go/pkg/kfake"
)

// EmbeddedPartitions is the partition count of the embedded cluster's
// topics: several, so per-key ordering is exercised as in production.
const EmbeddedPartitions = 4

// Embedded is an in-process Kafka (franz-go's kfake) for development: `msgx
// serve` in dev without brokers. It keeps records in memory only.
type Embedded struct {
	c *kfake.Cluster
}

// StartEmbedded starts a one-broker cluster on a free local port with the
// given topics created.
func StartEmbedded(topics ...string) (*Embedded, error) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(EmbeddedPartitions, topics...))
	if err != nil {
		return nil, fmt.Errorf("kafka: embedded cluster: %w", err)
	}
	return &Embedded{c: c}, nil
}

// Addrs are the broker addresses to use as Config.Brokers.
func (e *Embedded) Addrs() []string { return e.c.ListenAddrs() }

// Close stops the cluster; its records are gone.
func (e *Embedded) Close() { e.c.Close() }
