package leader

import (
	"testing"

	"github.com/msgx-aodb/msgx/internal/depcheck"
)

// The election depends on the lock interface only: each store adapter owns
// its lock (pgstore.LeaderDialer, orastore.LeaderDialer).
func TestLeaderImportsNoDatabase(t *testing.T) {
	t.Parallel()
	depcheck.Forbid(t, "github.com/msgx-aodb/msgx/db", "github.com/msgx-aodb/msgx/internal/store", "github.com/jackc/pgx")
}
