package orastore

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// ErrNoClient: the Oracle client libraries (Instant Client) are not
// installed or not on the loader path (ODPI-C's DPI-1047).
var ErrNoClient = errors.New("oracle: the Oracle Client library (libclntsh) was not found (DPI-1047): install Oracle Instant Client 11.2 or later and put it on LD_LIBRARY_PATH (or ldconfig), see docs/oracle.md")

// ErrNotLinked: this binary was built with -tags nooracle (no cgo, no godror).
var ErrNotLinked = errors.New("oracle: this msgx was built with -tags nooracle and cannot use Oracle; use the default build (cgo, godror)")

// openError turns a failed first connection into one actionable error.
func openError(err error) error {
	if strings.Contains(err.Error(), "DPI-1047") {
		return fmt.Errorf("%w", ErrNoClient)
	}
	return fmt.Errorf("oracle: %w", interpret(context.Background(), err))
}
