package config

import (
	"testing"

	"github.com/msgx-aodb/msgx/internal/depcheck"
)

// config is a leaf (issue #22): plain values, parsed by koanf and its YAML
// parser, and nothing of msgx, no driver and no Kafka client; the packages
// that own a setting turn the values into their own (internal/app).
func TestConfigIsALeaf(t *testing.T) {
	t.Parallel()
	depcheck.Leaf(t, "github.com/knadh/koanf")
}
