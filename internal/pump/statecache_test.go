package pump

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/apply"
	"github.com/msgx-aodb/msgx/internal/decode"
	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// The states the pump caches after its batches are exactly what the store
// holds: same stamp and byte for byte the same event payload.
func TestStateCacheMatchesStore(t *testing.T) {
	e := newEnv(t)
	e.Clock.Set(start.Add(123456789 * time.Nanosecond)) // finer than the store keeps
	e.Send(t, dnld(3))
	e.StepUntilWait(t)
	for round := range 3 { // the download's states are cached: no batch reads a flight in full
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
	require.Equal(t, 3*3, hits, "no round reads a flight in full")
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
}

// Issue #34: only the cached flights' stamps are read; the others are read
// in full at once (a restarted pump's first resend of a day reads no stamp).
func TestStateCacheReadsOnlyTheCachedFlightsStamps(t *testing.T) {
	e := newEnv(t)
	e.Send(t, dnld(3))
	e.StepUntilWait(t)
	c := newStateCache()
	spy := &flightReads{Executor: e.Store}
	first, err := c.states(t.Context(), spy, []int64{1, 2, 3})
	require.NoError(t, err)
	require.Len(t, first, 3)
	require.Empty(t, spy.stamps, "nothing cached: no stamp read")
	require.ElementsMatch(t, []int64{1, 2, 3}, spy.full)

	*spy = flightReads{Executor: e.Store}
	delete(c.entries, 3)
	again, err := c.states(t.Context(), spy, []int64{1, 2, 3, 4}) // 4: no such flight
	require.NoError(t, err)
	require.ElementsMatch(t, []int64{1, 2}, spy.stamps)
	require.ElementsMatch(t, []int64{3, 4}, spy.full)
	require.Len(t, again, 3)
	require.Same(t, first[1], again[1], "served from the cache")
	require.Equal(t, 2, c.hits)
}

// flightReads records the flights whose stamps and whose states are read
// from the real store.
type flightReads struct {
	store.Executor
	stamps, full []int64
}

func (r *flightReads) FlightStamps(ctx context.Context, flids []int64) (map[int64]store.FlightStamp, error) {
	r.stamps = append(r.stamps, flids...)
	return r.Executor.FlightStamps(ctx, flids)
}

func (r *flightReads) Flights(ctx context.Context, flids []int64) (map[int64]*flight.State, error) {
	r.full = append(r.full, flids...)
	return r.Executor.Flights(ctx, flids)
}

// The cache stays bounded.
func TestStateCacheBounded(t *testing.T) {
	c := newStateCache()
	var writes []vocab.FlightWrite
	for flid := range int64(maxCachedStates + 10) {
		writes = append(writes, vocab.FlightWrite{State: &flight.State{FLID: flid + 1, StateVersion: 1}})
	}
	c.committed(writes, start, func(int64) bool { return false })
	require.Len(t, c.entries, maxCachedStates)
}

// requireCacheMatchesStore: every cached state is the store's, stamp and
// event payload.
func requireCacheMatchesStore(t *testing.T, e *env) {
	t.Helper()
	for flid, c := range e.pump.st.cache.entries {
		db := e.flight(t, flid)
		require.Equal(t, db.StateVersion, c.stamp.StateVersion, "flight %d", flid)
		require.True(t, db.UpdatedAt.Equal(c.stamp.UpdatedAt), "flight %d", flid)
		want, err := flight.EventPayload(db)
		require.NoError(t, err)
		got, err := flight.EventPayload(c.state)
		require.NoError(t, err)
		require.Equal(t, string(want), string(got), "flight %d", flid)
	}
}

// payloads are the event payloads of states, by flight.
func payloads(t *testing.T, states map[int64]*flight.State) map[int64]string {
	t.Helper()
	out := map[int64]string{}
	for flid, s := range states {
		p, err := flight.EventPayload(s)
		require.NoError(t, err)
		out[flid] = string(p)
	}
	return out
}

// A download settled alone caches the states it wrote, as a batch does: its
// resend reads the stamps of its flights and none in full, computes over
// the cached states without changing them, and caches its own. The
// download is large (pinBytes or more): its states are cached detached.
func TestDownloadAndItsResendGoThroughTheCache(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const n = 40
	first := dnld(n)
	require.GreaterOrEqual(t, len(first), pinBytes)
	e.Send(t, first)
	e.StepUntilWait(t)
	require.Len(t, e.pump.st.cache.entries, n)
	requireCacheMatchesStore(t, e)
	cached := map[int64]*flight.State{}
	for flid, c := range e.pump.st.cache.entries {
		cached[flid] = c.state
	}
	cachedJSON := payloads(t, cached)

	e.Clock.Advance(time.Second)
	hits := e.pump.st.cache.hits
	id := e.Send(t, strings.ReplaceAll(dnld(n), "<REMC>ok</REMC>", "<REMC>resent</REMC>")) // a SEQN of its own
	e.StepUntilWait(t)
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, id).Status)
	require.Equal(t, n, e.pump.st.cache.hits-hits, "every flight served from the cache")
	require.Equal(t, cachedJSON, payloads(t, cached), "the resend changed no cached state in place")
	requireCacheMatchesStore(t, e)
	require.Equal(t, "resent", e.flight(t, 1).Scalars["REMC"].Raw)
	require.Equal(t, "resent", e.pump.st.cache.entries[1].state.Scalars["REMC"].Raw)
}

// A batch's states are cached detached exactly for the flights of its
// messages of pinBytes or more.
func TestPinningNamesTheFlightsOfLargeMessages(t *testing.T) {
	decoded := func(xml string) *sis.Message {
		d, err := decode.Message([]byte(xml), sis.DefaultOptions())
		require.NoError(t, err)
		return d
	}
	small := prepared{Input: apply.Input{Decoded: decoded(flop("STND", 1, "<STND>1</STND>"))}, size: pinBytes - 1}
	large := prepared{Input: apply.Input{Decoded: decoded(flop("STND", 2, "<STND>2</STND>"))}, size: pinBytes}
	undecoded := prepared{size: 10 * pinBytes}
	pins := pinning([]prepared{small, large, undecoded})
	require.False(t, pins(1))
	require.True(t, pins(2))
	require.False(t, pinning([]prepared{small})(1))
}
