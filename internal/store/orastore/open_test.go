//go:build !nooracle

package orastore

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestOpenWithoutClient: on a machine without the Oracle client libraries
// the first connection fails with ErrNoClient, one actionable line.
func TestOpenWithoutClient(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := Open(ctx, "msgx/secret@127.0.0.1:1/NOSUCH")
	if err == nil {
		t.Fatal("Open succeeded against a closed port")
	}
	if !errors.Is(err, ErrNoClient) {
		t.Skipf("the Oracle client is installed here (%v): DPI-1047 not reproducible", err)
	}
	if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, "DPI-1047") || !strings.Contains(msg, "Instant Client") {
		t.Errorf("not one actionable line: %q", msg)
	}
}

func TestOpenErrorDPI1047(t *testing.T) {
	err := openError(errors.New("ODPI-C: DPI-1047: Cannot locate a 64-bit Oracle Client library: \"libclntsh.so: cannot open shared object file\""))
	if !errors.Is(err, ErrNoClient) {
		t.Fatalf("got %v", err)
	}
}
