package wake

import (
	"testing"

	"github.com/msgx-aodb/msgx/internal/depcheck"
)

// Every service imports wake: it imports nothing of msgx's, nor any library.
func TestWakeIsALeaf(t *testing.T) {
	t.Parallel()
	depcheck.Leaf(t)
}
