package pump

import (
	"testing"

	"github.com/msgx-aodb/msgx/internal/depcheck"
)

// The pump knows no Kafka (the record limit arrives as a number and a
// measure, Config.MaxRecordBytes and EventBytes, wired by internal/app), no
// mailbox driver (it reads the XML through RawReader) and no database
// driver (Store); the other services only through internal/wake.
func TestPumpImportsNoDriverNorOtherService(t *testing.T) {
	t.Parallel()
	const msgx = "github.com/msgx-aodb/msgx/"
	depcheck.Forbid(t, msgx+"internal/kafka", "github.com/twmb/franz-go",
		msgx+"internal/mailbox", msgx+"db", "github.com/go-sql-driver/mysql", "github.com/jackc/pgx", "github.com/godror/godror", "database/sql",
		msgx+"internal/store/pgstore", msgx+"internal/store/orastore",
		msgx+"internal/ingress", msgx+"internal/backfill", msgx+"internal/relay", msgx+"internal/aodbrequest")
}
