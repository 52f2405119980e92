package backfill

import (
	"testing"

	"github.com/msgx-aodb/msgx/internal/depcheck"
)

// The backfiller writes outcomes already decided: no apply, no flight
// domain of its own (the store's types bring internal/flight along, so
// that one is checked among its own imports), no other service.
func TestBackfillImportsNoApplyNorOtherService(t *testing.T) {
	t.Parallel()
	const msgx = "github.com/msgx-aodb/msgx/"
	depcheck.Forbid(t, msgx+"internal/apply", msgx+"internal/decode",
		msgx+"internal/pump", msgx+"internal/ingress", msgx+"internal/relay", msgx+"internal/kafka", "github.com/twmb/franz-go",
		msgx+"internal/mailbox", "github.com/go-sql-driver/mysql", "github.com/jackc/pgx",
		msgx+"internal/store/pgstore", msgx+"internal/store/orastore")
	depcheck.ForbidDirect(t, msgx+"internal/flight")
}
