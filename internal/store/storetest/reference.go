package storetest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

func testReference(t *testing.T, newStore Factory) {
	s := newStore(t)
	rec := vocab.RefRecord{RType: "AIRL", RKey: "CA", Record: "<AIRL><ALCD>CA</ALCD></AIRL>", LastMessageID: 1, Now: t0}
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

	for _, k := range []string{"CA", "MU", "CZ"} {
		_, err := s.UpsertRef(ctx(t), vocab.RefRecord{RType: "AIRL", RKey: k, Record: "<AIRL/>", LastMessageID: 1, Now: t0})
		require.NoError(t, err)
	}
	_, err = s.UpsertRef(ctx(t), vocab.RefRecord{RType: "GLST", RKey: "G1", Record: "<GLST/>", LastMessageID: 1, Now: t0})
	require.NoError(t, err)
	n, err := s.ReplaceRefList(ctx(t), "AIRL", []string{"CA"})
	require.NoError(t, err)
	require.Equal(t, 2, n)
	_, err = s.Ref(ctx(t), "AIRL", "MU")
	require.ErrorIs(t, err, store.ErrNotFound)
	_, err = s.Ref(ctx(t), "GLST", "G1")
	require.NoError(t, err, "other lists untouched")
	n, err = s.ReplaceRefList(ctx(t), "AIRL", nil)
	require.NoError(t, err)
	require.Equal(t, 1, n, "an empty list empties it")
}
