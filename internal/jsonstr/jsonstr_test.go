package jsonstr

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestAppendIsEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", `quote " and \ backslash`, "<tag>&amp;", "tab\tnl\ncr\r\x00\x1f", "天气 U+2028\u2028 U+2029\u2029",
		"invalid \xff utf-8", "\xe2\x82"} {
		want, err := json.Marshal(s)
		require.NoError(t, err)
		require.Equal(t, string(want), string(Append(nil, s)), "%q", s)
		require.Equal(t, `x`+string(want), string(Append([]byte("x"), s)), "appends")
	}
}
