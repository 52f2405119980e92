package dbopen_test

import (
	"testing"

	"github.com/msgx-aodb/msgx/internal/depcheck"
)

// Opening the database drags in no service: the operator commands open it
// here without linking the pipeline, the API or the wiring of msgx serve.
func TestOpenerLinksNoService(t *testing.T) {
	t.Parallel()
	depcheck.Forbid(t, "github.com/msgx-aodb/msgx/internal/app", "github.com/msgx-aodb/msgx/internal/pump", "github.com/msgx-aodb/msgx/internal/ingress",
		"github.com/msgx-aodb/msgx/internal/api", "github.com/msgx-aodb/msgx/internal/mailbox", "github.com/msgx-aodb/msgx/internal/kafka")
}
