package pipeline

import (
	"testing"

	"github.com/msgx-aodb/msgx/internal/depcheck"
)

// The pump knows nothing of Kafka: the record limit arrives as a number and
// a measure (PumpConfig.MaxRecordBytes, EventBytes) wired by internal/app.
func TestPumpImportsNoKafka(t *testing.T) {
	t.Parallel()
	depcheck.Forbid(t, "github.com/msgx-aodb/msgx/internal/kafka", "github.com/twmb/franz-go")
}
