package ingress

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestIDRanges(t *testing.T) {
	t.Parallel()
	var s idRanges
	for _, id := range []int64{5, 6, 7, 10, 12, 11, 3, 8} {
		s.add(id, id)
	}
	require.Equal(t, idRanges{{3, 3}, {5, 8}, {10, 12}}, s)
	require.Equal(t, []idRange{{1, 2}, {4, 4}, {9, 9}, {13, 20}}, s.unseen(1, 20))
	require.Equal(t, []idRange{{9, 9}}, s.unseen(6, 11))
	require.Empty(t, s.unseen(10, 12))
	s.add(4, 9)
	require.Equal(t, idRanges{{3, 12}}, s, "adjacent runs merge")
	s.trimBelow(7)
	require.Equal(t, idRanges{{7, 12}}, s)
	s.trimBelow(13)
	require.Empty(t, s)
	require.Equal(t, []idRange{{1, 4}}, s.unseen(1, 4))
}
