package ingress

import (
	"testing"

	"github.com/msgx-aodb/msgx/internal/depcheck"
)

// The ingress only enqueues ids: it decides nothing about a message (no
// apply, no codec use of its own) and wakes the pump through internal/wake,
// never by importing it.
func TestIngressImportsNoApplyNorOtherService(t *testing.T) {
	t.Parallel()
	const msgx = "github.com/msgx-aodb/msgx/"
	depcheck.Forbid(t, msgx+"internal/apply", msgx+"internal/decode",
		msgx+"internal/pump", msgx+"internal/backfill", msgx+"internal/relay", msgx+"internal/kafka", "github.com/twmb/franz-go",
		"github.com/jackc/pgx", msgx+"internal/store/pgstore", msgx+"internal/store/orastore")
}
