//go:build nooracle

package orastore

import (
	"context"
	"errors"
)

// Linked reports whether this build carries the godror driver.
const Linked = false

// Open fails: this binary was built with -tags nooracle (no cgo, no godror).
func Open(ctx context.Context, dsn string) (*Store, error) {
	return nil, errors.New("oracle: this msgx was built with -tags nooracle and cannot use Oracle; use the default build (cgo, godror)")
}
