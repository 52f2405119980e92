package oneline

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestErr(t *testing.T) {
	err := errors.New("failed to connect to `user=u database=d`:\n\t127.0.0.1:1: dial error\n\t127.0.0.1:1: dial error\n")
	require.Equal(t, "failed to connect to `user=u database=d`: 127.0.0.1:1: dial error", Err(err))
}

func TestText(t *testing.T) {
	require.Equal(t, "a b c", Text("a\n b\t\tc ", 0))
	require.Equal(t, "abc…", Text("abcdefg", 4))
	require.Equal(t, "天气好…", Text("天气好极了", 4), "characters, not bytes")
	require.Equal(t, "abcd", Text("abcd", 4))
}
