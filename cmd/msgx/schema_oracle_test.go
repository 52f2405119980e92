package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store/orastore"
)

// TestSchemaOracle: --dialect oracle11g needs a DSN (usage), and without the
// Oracle client it fails with one DPI-1047 line (exit 1).
func TestSchemaOracle(t *testing.T) {
	t.Setenv("MSGX_ORACLE_DSN", "")
	code, _, stderr := runMsgx(t, "schema", "plan", "--dialect", "oracle11g")
	require.Equal(t, exitUsage, code, stderr)
	require.Contains(t, stderr, "MSGX_ORACLE_DSN")

	code, _, stderr = runMsgx(t, "schema", "plan", "--dialect", "db2")
	require.Equal(t, exitUsage, code, stderr)

	if !orastore.Linked {
		t.Skip("built with -tags nooracle")
	}
	code, _, stderr = runMsgx(t, "schema", "plan", "--dialect", "oracle11g", "--dsn", "msgx/secret@127.0.0.1:1/NOSUCH")
	require.Equal(t, exitFailure, code, stderr)
	if !strings.Contains(stderr, "DPI-1047") {
		t.Skipf("the Oracle client is installed here: %s", stderr)
	}
	require.Equal(t, 1, strings.Count(stderr, "\n"), stderr)
}

// TestOpsOnOracleWithoutClient: the operator commands open the Oracle store
// of database.dialect oracle11g; without the client, one DPI-1047 line.
func TestOpsOnOracleWithoutClient(t *testing.T) {
	if !orastore.Linked {
		t.Skip("built with -tags nooracle")
	}
	t.Setenv("MSGX_DATABASE_DIALECT", "oracle11g")
	t.Setenv("MSGX_ORACLE_DSN", "msgx/secret@127.0.0.1:1/NOSUCH")
	code, _, stderr := runMsgx(t, "status")
	if !strings.Contains(stderr, "DPI-1047") {
		t.Skipf("the Oracle client is installed here: %s", stderr)
	}
	require.Equal(t, exitFailure, code, stderr)
	require.Equal(t, 1, strings.Count(stderr, "\n"), stderr)
}
