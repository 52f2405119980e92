package pgstore

import (
	"context"
	"errors"
	"fmt"
	"net"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/puddle/v2"

	"github.com/msgx-aodb/msgx/internal/store"
)

// This file is the one place pgx errors become the store's kinds
// (internal/store/errors.go), as orastore/errors.go is for Oracle's.

// interpret maps a driver error to a store error kind, keeping the original
// in the chain for logs. Unknown errors pass through unchanged.
func interpret(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("%w: %w", store.ErrNotFound, err)
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case "3D000", "28000", "28P01": // invalid catalog name, authorization, password
			return fmt.Errorf("%w: %w", store.ErrNoDatabase, err)
		case "42P01", "42703": // undefined table, column
			return fmt.Errorf("%w: %w", store.ErrSchema, err)
		case "23505": // unique_violation
			return fmt.Errorf("%w: %w", store.ErrDuplicate, err)
		case "23503", "23514", "40001", "40P01": // foreign key, check, serialization, deadlock
			return fmt.Errorf("%w: %w", store.ErrConflict, err)
		}
		switch pgErr.Code[:2] {
		case "08", "53", "57": // connection exception, insufficient resources, operator intervention
			return fmt.Errorf("%w: %w", store.ErrUnavailable, err)
		}
		return err
	}
	var netErr net.Error
	var connErr *pgconn.ConnectError
	if errors.As(err, &connErr) || errors.As(err, &netErr) || pgconn.SafeToRetry(err) {
		return fmt.Errorf("%w: %w", store.ErrUnavailable, err)
	}
	// A deadline or a closed pool: the database cannot be reached now.
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, puddle.ErrClosedPool) {
		return fmt.Errorf("%w: %w", store.ErrUnavailable, err)
	}
	return err
}
