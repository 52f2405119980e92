package pgstore

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store"
)

// interpret maps every driver error the pump must tell apart to its kind:
// an outage (the pump pauses) is never taken for a message's fault.
func TestInterpret(t *testing.T) {
	closed, err := pgxpool.New(t.Context(), "postgres://nobody@127.0.0.1:1/none?connect_timeout=1")
	require.NoError(t, err)
	closed.Close()
	closedErr := closed.Ping(t.Context())
	require.Error(t, closedErr)

	refused := func() error {
		conn, err := pgx.Connect(t.Context(), "postgres://nobody@127.0.0.1:1/none?connect_timeout=1")
		if err == nil {
			conn.Close(t.Context())
		}
		return err
	}()
	require.Error(t, refused)

	for _, c := range []struct {
		name string
		err  error
		kind error
	}{
		{"closed pool", closedErr, store.ErrUnavailable},
		{"connection refused", refused, store.ErrUnavailable},
		{"deadline", fmt.Errorf("query: %w", context.DeadlineExceeded), store.ErrUnavailable},
		{"admin shutdown", &pgconn.PgError{Code: "57P01"}, store.ErrUnavailable},
		{"too many connections", &pgconn.PgError{Code: "53300"}, store.ErrUnavailable},
		{"unique violation", &pgconn.PgError{Code: "23505"}, store.ErrDuplicate},
		{"check violation", &pgconn.PgError{Code: "23514"}, store.ErrConflict},
		{"deadlock", &pgconn.PgError{Code: "40P01"}, store.ErrConflict},
		{"no rows", pgx.ErrNoRows, store.ErrNotFound},
		{"no such database", &pgconn.PgError{Code: "3D000"}, store.ErrNoDatabase},
		{"password", &pgconn.PgError{Code: "28P01"}, store.ErrNoDatabase},
		{"no such table", &pgconn.PgError{Code: "42P01"}, store.ErrSchema},
	} {
		got := interpret(c.err)
		require.ErrorIs(t, got, c.kind, c.name)
		require.ErrorIs(t, got, c.err, "%s: the driver's error stays in the chain", c.name)
	}
	// A statement's own failure is the message's: passed through unchanged.
	tooLong := &pgconn.PgError{Code: "22001", Message: "value too long"}
	got := interpret(tooLong)
	for _, kind := range []error{store.ErrUnavailable, store.ErrConflict, store.ErrDuplicate, store.ErrNotFound} {
		require.False(t, errors.Is(got, kind), "value too long is not %v", kind)
	}
	require.NoError(t, interpret(nil))
}
