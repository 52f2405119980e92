package testdb

import (
	"os"
	"testing"
)

// LongEnv is the variable that runs the long tests: `make test-long` sets it.
const LongEnv = "MSGX_TEST_LONG"

// Long marks a test that takes tens of seconds on its own (a real binary
// killed in a loop, a database outage, a large load): `make test` skips it
// so the suite stays short, `make test-long` (also in CI) runs it. The
// Makefile finds these tests by this call, so call it in the test function
// itself.
func Long(t testing.TB) {
	t.Helper()
	if os.Getenv(LongEnv) == "" {
		t.Skip("long test: run by make test-long (" + LongEnv + "=1)")
	}
}
