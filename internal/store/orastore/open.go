package orastore

import (
	"errors"
	"fmt"
	"strings"
)

// ErrNoClient: the Oracle client libraries (Instant Client) are not
// installed or not on the loader path (ODPI-C's DPI-1047).
var ErrNoClient = errors.New("oracle: the Oracle Client library (libclntsh) was not found (DPI-1047): install Oracle Instant Client 11.2 or later and put it on LD_LIBRARY_PATH (or ldconfig), see docs/oracle.md")

// openError turns a failed first connection into one actionable error.
func openError(err error) error {
	if strings.Contains(err.Error(), "DPI-1047") {
		return fmt.Errorf("%w", ErrNoClient)
	}
	return fmt.Errorf("oracle: %w", interpret(nil, err))
}
