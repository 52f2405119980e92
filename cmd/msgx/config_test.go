package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/testdb"
)

// Every invalid configuration value exits 2 with one line naming the key,
// before anything connects or listens: the databases here are unreachable,
// so a command that went on would fail with exit 1 instead.
func TestInvalidConfigurationExits2BeforeConnecting(t *testing.T) {
	t.Setenv("MSGX_MAILBOX_DSN", "root@tcp(127.0.0.1:1)/none")
	for _, tc := range []struct{ env, value, want string }{
		{"MSGX_HTTP_ADDR", "notaport", `http.addr (MSGX_HTTP_ADDR): "notaport" is not host:port`},
		{"MSGX_PG_URL", "mysql://msgx:s3cret@127.0.0.1:1/msgx", `postgres.url (MSGX_PG_URL): scheme "mysql" is not postgres:// or postgresql://`},
	} {
		t.Setenv("MSGX_PG_URL", "postgres://postgres@127.0.0.1:1/none?sslmode=disable")
		t.Setenv("MSGX_HTTP_ADDR", "127.0.0.1:0")
		t.Setenv(tc.env, tc.value)
		for _, args := range [][]string{
			{"serve"},
			{"status"},
			{"schema", "plan"},
			{"request", "list"},
			{"maintenance", "run", "history"},
		} {
			code, _, stderr := runMsgx(t, args...)
			require.Equal(t, exitUsage, code, "%s %v: %s", tc.env, args, stderr)
			require.Contains(t, stderr, tc.want, args)
			require.NotContains(t, stderr, "s3cret")
			require.NotContains(t, stderr, "xxxxx", "no garbled, half-redacted URL")
			require.Equal(t, 1, strings.Count(stderr, "\n"), "%v: %q", args, stderr)
		}
	}
}

// msgx compare reads A from postgres.url, like every command that reads
// msgx's database, unless --a names another.
func TestCompareDefaultsAToPostgresURL(t *testing.T) {
	a := dbOfSnapshot(t, nil)
	t.Setenv("MSGX_PG_URL", a)
	code, _, stderr := runMsgx(t, "compare", "--dnld", sampleDNLD)
	require.Equal(t, exitOK, code, stderr)
	empty := testdb.Postgres(t)
	code, _, _ = runMsgx(t, "compare", "--b", empty.URL)
	require.Equal(t, exitFailure, code, "A (postgres.url) has flights, B none")
}

func TestRequestFlightsNeedsFromAndTo(t *testing.T) {
	t.Setenv("MSGX_PG_URL", "postgres://postgres@127.0.0.1:1/none?sslmode=disable")
	for _, args := range [][]string{
		{"request", "flights"},
		{"request", "flights", "--from", "2026-12-04T00:00"},
	} {
		code, _, stderr := runMsgx(t, args...)
		require.Equal(t, exitUsage, code)
		require.Equal(t, "msgx request flights: --from and --to are required (airport local time YYYY-MM-DDTHH:MM)\n", stderr)
	}
}

// A former key name is a warning: printed by a command, logged by serve
// (here both fail later on the unreachable database).
func TestFormerConfigNameWarns(t *testing.T) {
	t.Setenv("MSGX_PG_URL", "postgres://postgres@127.0.0.1:1/none?sslmode=disable")
	t.Setenv("MSGX_MAILBOX_DSN", "root@tcp(127.0.0.1:1)/none")
	t.Setenv("MSGX_HTTP_ADDR", "127.0.0.1:0")
	t.Setenv("MSGX_OUTBOX_MAX_ATTEMPTS", "3")
	const want = "MSGX_OUTBOX_MAX_ATTEMPTS is deprecated: it is MSGX_RELAY_MAX_ATTEMPTS now"
	code, _, stderr := runMsgx(t, "status")
	require.Equal(t, exitFailure, code, stderr)
	require.Contains(t, stderr, "msgx status: warning: "+want)
	code, _, stderr = runMsgx(t, "serve")
	require.Equal(t, exitFailure, code, stderr)
	require.Contains(t, stderr, `"level":"WARN","msg":"config: `+want)
	require.Equal(t, 1, strings.Count(stderr, want), "logged once, not printed too")
}
