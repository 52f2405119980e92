package storetest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store"
)

func testReference(t *testing.T, newStore Factory) {
	s := newStore(t)
	rec := store.RefRecord{RType: "AIRL", RKey: "CA", Record: "<AIRL><ALCD>CA</ALCD></AIRL>", LastMessageID: 1, Now: t0}
	changed, err := s.UpsertRef(ctx(t), rec)
	require.NoError(t, err)
	require.True(t, changed)
	changed, err = s.UpsertRef(ctx(t), rec)
	require.NoError(t, err)
	require.False(t, changed, "an identical record changes nothing")
	rec.Record = "<AIRL><ALCD>CA</ALCD><ALNM>Air China</ALNM></AIRL>"
	changed, err = s.UpsertRef(ctx(t), rec)
	require.NoError(t, err)
	require.True(t, changed)
	got, err := s.Ref(ctx(t), "AIRL", "CA")
	require.NoError(t, err)
	require.Equal(t, int64(2), got.Version)
	require.Equal(t, rec.Record, got.Record)

	existed, err := s.DeleteRef(ctx(t), "AIRL", "CA")
	require.NoError(t, err)
	require.True(t, existed)
	_, err = s.Ref(ctx(t), "AIRL", "CA")
	require.ErrorIs(t, err, store.ErrNotFound)
}
