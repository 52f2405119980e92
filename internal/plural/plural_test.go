package plural_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/plural"
)

func TestCount(t *testing.T) {
	t.Parallel()
	require.Equal(t, "0 messages", plural.Count(0, "message"))
	require.Equal(t, "1 message", plural.Count(1, "message"))
	require.Equal(t, "2 warnings", plural.Count(int64(2), "warning"))
}
