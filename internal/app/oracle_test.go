package app

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store/orastore"
)

// TestServeOracleWithoutClient: database.dialect oracle11g on a machine
// without the Oracle client libraries stops at start with one actionable
// line (DPI-1047) and exit 1.
func TestServeOracleWithoutClient(t *testing.T) {
	if !orastore.Linked {
		t.Skip("built with -tags nooracle: no Oracle driver to start")
	}
	t.Parallel()
	env := serviceEnv("MSGX_DATABASE_DIALECT=oracle11g", "MSGX_ORACLE_DSN=msgx/secret@127.0.0.1:1/NOSUCH", "MSGX_HTTP_ADDR=127.0.0.1:0")
	code, _, stderr := runBinary(t, env, "serve")
	if !strings.Contains(stderr, "DPI-1047") {
		t.Skipf("the Oracle client is installed here, DPI-1047 not reproducible: %s", stderr)
	}
	require.Equal(t, 1, code, stderr)
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if strings.Contains(l, "DPI-1047") {
			lines = append(lines, l)
		}
	}
	require.Len(t, lines, 1, stderr)
	require.Contains(t, lines[0], "Instant Client")
}
