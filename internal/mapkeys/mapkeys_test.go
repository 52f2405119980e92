package mapkeys_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/mapkeys"
)

func TestUnion(t *testing.T) {
	t.Parallel()
	require.Equal(t, []string{"a", "b", "c"}, mapkeys.Union(map[string]int{"c": 1, "a": 2}, map[string]bool{"b": true, "a": false}))
	require.Equal(t, []int64{1, 2, 9}, mapkeys.Union(map[int64]int{9: 0, 1: 0}, map[int64]int{2: 0}))
	require.Empty(t, mapkeys.Union(map[string]int{}, map[string]int(nil)))
}
