package storetest

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func testTransactions(t *testing.T, newStore Factory) {
	s := newStore(t)
	tx, err := s.Begin(ctx(t))
	require.NoError(t, err)
	_, err = tx.LockPipeline(ctx(t), t0)
	require.NoError(t, err)
	write(t, tx, t0, RichFlight(1))

	// A savepoint keeps one message all-or-nothing inside a larger commit.
	sp, err := tx.Begin(ctx(t))
	require.NoError(t, err)
	write(t, sp, t0, RichFlight(2))
	require.NoError(t, sp.Rollback(ctx(t)))

	sp, err = tx.Begin(ctx(t))
	require.NoError(t, err)
	write(t, sp, t0, RichFlight(3))
	require.NoError(t, sp.Commit(ctx(t)))
	require.NoError(t, tx.Commit(ctx(t)))
	require.NoError(t, tx.Rollback(ctx(t)), "rollback after commit is a no-op, so it can be deferred")

	got, err := s.Flights(ctx(t), []int64{1, 2, 3})
	require.NoError(t, err)
	require.Len(t, got, 2)
	require.Contains(t, got, int64(1))
	require.Contains(t, got, int64(3))

	tx, err = s.Begin(ctx(t))
	require.NoError(t, err)
	write(t, tx, t0, RichFlight(4))
	require.NoError(t, tx.Rollback(ctx(t)))
	got, err = s.Flights(ctx(t), []int64{4})
	require.NoError(t, err)
	require.Empty(t, got, "a rolled-back transaction leaves nothing")
}
