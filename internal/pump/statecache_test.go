package pump

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// The states the pump caches after its batches are exactly what the store
// holds: same stamp and byte for byte the same event payload.
func TestStateCacheMatchesStore(t *testing.T) {
	e := newEnv(t)
	e.Clock.Set(start.Add(123456789 * time.Nanosecond)) // finer than the store keeps
	e.Send(t, dnld(3))
	e.StepUntilWait(t)
	for round := range 3 { // the first batch loads the flights, the others use the cache
		e.Clock.Advance(time.Second)
		for flid := int64(1); flid <= 3; flid++ {
			e.Send(t, flop("STND", flid, fmt.Sprintf("<STND>%d%d</STND>", round, flid)))
		}
		e.Send(t, flop("GTDT", 2, gates(fmt.Sprintf("B%d", round), "B9")))
		e.Send(t, flop("STND", 3, "<STND>301</STND>")) // unchanged or changed twice in one batch
		e.StepUntilWait(t)
	}
	require.Len(t, e.pump.st.cache.entries, 3)
	hits := e.pump.st.cache.hits
	require.Equal(t, 2*3, hits, "rounds 2 and 3 read no flight in full")
	stamps, err := e.Store.FlightStamps(t.Context(), []int64{1, 2, 3})
	require.NoError(t, err)
	for flid, c := range e.pump.st.cache.entries {
		db := e.flight(t, flid)
		require.Equal(t, stamps[flid].StateVersion, c.stamp.StateVersion)
		require.True(t, stamps[flid].UpdatedAt.Equal(c.stamp.UpdatedAt))
		want, err := flight.EventPayload(db)
		require.NoError(t, err)
		got, err := flight.EventPayload(c.state)
		require.NoError(t, err)
		require.Equal(t, string(want), string(got), "flight %d", flid)
		std, err := json.Marshal(db) // the hand-written payload is what encoding/json writes
		require.NoError(t, err)
		require.Equal(t, string(std), string(want))
	}
	require.Equal(t, "B2", e.flight(t, 2).Groups[flight.GroupGates][0].Fields["GATE"].Raw)
}

// A write that does not go through the pump's fast path — here one that
// bumps no version, like snapshot-day bookkeeping — is seen by the next
// batch instead of being overwritten from the cache.
func TestStateCacheSeesOtherWriters(t *testing.T) {
	e := newEnv(t)
	e.Send(t, dnld(2))
	e.StepUntilWait(t)
	e.Send(t, flop("STND", 1, "<STND>101</STND>"))
	e.Send(t, flop("STND", 2, "<STND>102</STND>"))
	e.StepUntilWait(t)
	require.Len(t, e.pump.st.cache.entries, 2)

	e.Clock.Advance(time.Second)
	other := e.flight(t, 1)
	other.Scalars["REMC"] = flight.Value{Raw: "other writer"}
	require.NoError(t, e.Store.WriteFlights(t.Context(), []vocab.FlightWrite{{State: other}}, e.Clock.Now()))

	e.Clock.Advance(time.Second)
	e.Send(t, flop("STND", 1, "<STND>111</STND>"))
	e.Send(t, flop("STND", 2, "<STND>112</STND>"))
	e.StepUntilWait(t)
	got := e.flight(t, 1)
	require.Equal(t, "other writer", got.Scalars["REMC"].Raw, "built on the store's state, not the cached one")
	require.Equal(t, "111", got.Scalars["STND"].Raw)

	// The one-by-one path forgets the cache.
	e.Send(t, dnld(2))
	e.StepUntilWait(t)
	require.Empty(t, e.pump.st.cache.entries)
}

// The cache stays bounded.
func TestStateCacheBounded(t *testing.T) {
	c := newStateCache()
	var writes []vocab.FlightWrite
	for flid := range int64(maxCachedStates + 10) {
		writes = append(writes, vocab.FlightWrite{State: &flight.State{FLID: flid + 1, StateVersion: 1}})
	}
	c.committed(writes, start)
	require.Len(t, c.entries, maxCachedStates)
}
