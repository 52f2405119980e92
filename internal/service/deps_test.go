package service

import (
	"testing"

	"github.com/msgx-aodb/msgx/internal/depcheck"
)

// service is a neutral leaf every long-running package implements: it
// imports nothing of msgx, so none of them depends on another through it.
func TestServiceIsALeaf(t *testing.T) {
	t.Parallel()
	depcheck.Leaf(t)
}
