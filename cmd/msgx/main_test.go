package main

import (
	"os"
	"strings"
	"testing"
)

// TestMain runs the commands without the caller's MSGX_* configuration
// (`make` exports the dev defaults, which would override the tests' config
// files); only the test servers (MSGX_TEST_*) are kept.
func TestMain(m *testing.M) {
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "MSGX_") && !strings.HasPrefix(k, "MSGX_TEST_") {
			os.Unsetenv(k)
		}
	}
	os.Exit(m.Run())
}
