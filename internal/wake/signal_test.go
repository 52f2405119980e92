package wake

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A ring while the pump is busy is not lost: the next idle wait ends at once.
func TestSignalKeepsOneRing(t *testing.T) {
	s := New()
	s.Ring()
	s.Ring() // coalesces, never blocks
	select {
	case <-s.C():
	default:
		t.Fatal("the ring was lost")
	}
	select {
	case <-s.C():
		t.Fatal("two rings while busy are one")
	default:
	}
	var none *Signal
	none.Ring() // a nil signal does nothing
	require.Nil(t, none.C())
}
