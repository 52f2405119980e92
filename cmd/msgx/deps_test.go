package main

import (
	"testing"

	"github.com/msgx-aodb/msgx/internal/depcheck"
)

// The binary links no test helper: testenv and testdb create and drop
// databases and are imported by tests only.
func TestBinaryLinksNoTestHelper(t *testing.T) {
	t.Parallel()
	depcheck.Forbid(t, "github.com/msgx-aodb/msgx/internal/testenv", "github.com/msgx-aodb/msgx/internal/testdb")
}
