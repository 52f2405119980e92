package storetest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

func testErrors(t *testing.T, newStore Factory) {
	s := newStore(t)
	_, err := s.Message(ctx(t), 404)
	require.ErrorIs(t, err, store.ErrNotFound)

	bad := RichFlight(1)
	bad.Lifecycle = "GONE"
	err = s.WriteFlights(ctx(t), []vocab.FlightWrite{{State: bad}}, t0)
	require.ErrorIs(t, err, store.ErrConflict, "a CHECK violation is a conflict")

	// The members have no foreign key (030_snapshot.sql): a FLID listed
	// twice is what the table refuses.
	err = s.ReplaceSnapshotMembers(ctx(t), day2, []int64{1, 1})
	require.ErrorIs(t, err, store.ErrDuplicate, "a primary key violation is a duplicate")
}
