package vocab

import (
	"testing"

	"github.com/msgx-aodb/msgx/internal/depcheck"
)

// The vocabulary is a leaf both the decision (apply) and the store use: it
// imports neither, nor anything that reads or writes.
func TestVocabIsALeaf(t *testing.T) {
	t.Parallel()
	depcheck.Forbid(t,
		"github.com/jackc/pgx", "github.com/go-sql-driver/mysql", "github.com/godror/godror", "database/sql",
		"github.com/twmb/franz-go", "github.com/msgx-aodb/msgx/db",
		"github.com/msgx-aodb/msgx/internal/store", "github.com/msgx-aodb/msgx/internal/apply",
		"github.com/msgx-aodb/msgx/internal/mailbox", "github.com/msgx-aodb/msgx/internal/pump")
}
