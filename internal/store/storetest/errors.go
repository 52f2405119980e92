package storetest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store"
)

func testErrors(t *testing.T, newStore Factory) {
	s := newStore(t)
	_, err := s.Message(ctx(t), 404)
	require.ErrorIs(t, err, store.ErrNotFound)

	bad := richFlight(1)
	bad.Lifecycle = "GONE"
	err = s.WriteFlights(ctx(t), []store.FlightWrite{{State: bad}}, t0)
	require.ErrorIs(t, err, store.ErrConflict, "a CHECK violation is a conflict")

	err = s.ReplaceSnapshotMembers(ctx(t), day2, []int64{1})
	require.ErrorIs(t, err, store.ErrConflict, "a foreign key violation is a conflict")
}
