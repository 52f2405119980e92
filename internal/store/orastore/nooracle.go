//go:build nooracle

package orastore

import "context"

// Linked reports whether this build carries the godror driver.
const Linked = false

// Open fails: this binary was built with -tags nooracle (no cgo, no godror).
func Open(ctx context.Context, dsn string) (*Store, error) {
	return nil, ErrNotLinked
}
