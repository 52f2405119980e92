package readiness_test

import (
	"testing"

	"github.com/msgx-aodb/msgx/internal/depcheck"
)

// The probe asks the dependencies it is given and reads no report: it links
// neither the status report nor a store, so /readyz cannot come to depend on
// the database's contents.
func TestReadinessReadsNoReport(t *testing.T) {
	t.Parallel()
	depcheck.Forbid(t, "github.com/msgx-aodb/msgx/internal/status", "github.com/msgx-aodb/msgx/internal/store", "github.com/msgx-aodb/msgx/db")
}
