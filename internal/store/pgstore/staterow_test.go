package pgstore

import (
	"testing"
	"time"

	"github.com/msgx-aodb/msgx/db/postgres"
	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/stretchr/testify/require"
)

// flightRow is a flight row of n scalars, as setRow writes it.
func flightRow(t testing.TB, n int) (*postgres.FlightSchd, *flight.State) {
	t.Helper()
	s := &flight.State{FLID: 30001, Scalars: map[string]flight.Value{}, StateVersion: 3}
	for _, name := range flight.ScalarNames[:n] {
		s.Scalars[name] = flight.Value{Raw: "X" + name}
	}
	var r postgres.FlightSchd
	var attrs heldStrings
	setRow(&r, s, time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC), &attrs)
	return &r, s
}

// A flight read back holds the scalars it was written with (its map sized
// by them, BenchmarkStateFromRow), none an empty map.
func TestStateFromRowScalars(t *testing.T) {
	t.Parallel()
	r, s := flightRow(t, 30)
	got, err := stateFromRow(r)
	require.NoError(t, err)
	require.Equal(t, s.Scalars, got.Scalars)
	empty, _ := flightRow(t, 0)
	got, err = stateFromRow(empty)
	require.NoError(t, err)
	require.Empty(t, got.Scalars)
	require.NotNil(t, got.Scalars, "Next writes into it")
}

func BenchmarkStateFromRow(b *testing.B) {
	r, _ := flightRow(b, 30)
	b.ReportAllocs()
	for range b.N {
		_, _ = stateFromRow(r)
	}
}
