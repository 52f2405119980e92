package apply

import (
	"testing"

	"github.com/msgx-aodb/msgx/internal/depcheck"
)

// What one message does needs no database: no driver, no adapter, no
// mailbox, no Kafka, no pump (issue #22), nor the maintenance jobs that use
// its event builder (issue #32).
func TestApplyNeedsNoDatabase(t *testing.T) {
	t.Parallel()
	depcheck.Forbid(t,
		"github.com/jackc/pgx", "github.com/go-sql-driver/mysql", "github.com/godror/godror", "database/sql",
		"github.com/twmb/franz-go", "github.com/msgx-aodb/msgx/db",
		"github.com/msgx-aodb/msgx/internal/store",
		"github.com/msgx-aodb/msgx/internal/mailbox", "github.com/msgx-aodb/msgx/internal/aodbrequest",
		"github.com/msgx-aodb/msgx/internal/kafka", "github.com/msgx-aodb/msgx/internal/pump",
		"github.com/msgx-aodb/msgx/internal/ingress", "github.com/msgx-aodb/msgx/internal/backfill",
		"github.com/msgx-aodb/msgx/internal/maintenance")
}
