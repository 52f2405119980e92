package pump

import (
	"context"
	"time"

	"github.com/msgx-aodb/msgx/internal/apply"
	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// maxCachedStates bounds the state cache (a few days of a busy airport), so
// memory stays flat however long a lead term lasts.
const maxCachedStates = 5000

// stateCache holds the flight states the pump committed in this lead term
// (batches and messages settled alone), each with the stamp
// (state_version, updated_at) it was written under. A transaction then
// reads the stamps of the cached flights it touches and loads in full the
// flights whose stamp moved (written by another leader before this term,
// or by a transaction rolled back after its read) or never seen; a flight
// the history sweep removed has no stamp and is not served. Every
// write sets updated_at, also one that bumps no version, so a stale entry
// never matches: the cache needs no invalidation, only its bound.
//
// States are shared, never copied: the computation clones a state before it
// changes it (flight.Next, flight.Delete).
type stateCache struct {
	entries map[int64]cachedState
	hits    int // states served from the cache (tests)
}

type cachedState struct {
	state *flight.State
	stamp store.FlightStamp
}

func newStateCache() *stateCache { return &stateCache{entries: map[int64]cachedState{}} }

// states returns the current states of the flights that exist among flids:
// cached ones whose stamp still matches, the rest read in full. Only the
// cached flights' stamps are read: a flight not cached is read in full
// anyway (a restarted pump's first resend of a day, all of it).
func (c *stateCache) states(ctx context.Context, ex store.Executor, flids []int64) (map[int64]*flight.State, error) {
	var cached, load []int64
	for _, flid := range flids {
		if _, ok := c.entries[flid]; ok {
			cached = append(cached, flid)
		} else {
			load = append(load, flid)
		}
	}
	states := make(map[int64]*flight.State, len(flids))
	if len(cached) > 0 {
		stamps, err := ex.FlightStamps(ctx, cached)
		if err != nil {
			return nil, err
		}
		for flid, stamp := range stamps {
			if e := c.entries[flid]; e.stamp.StateVersion == stamp.StateVersion && e.stamp.UpdatedAt.Equal(stamp.UpdatedAt) {
				states[flid] = e.state
				c.hits++
			} else {
				load = append(load, flid)
			}
		}
	}
	if len(load) == 0 {
		return states, nil
	}
	loaded, err := ex.Flights(ctx, load)
	if err != nil {
		return nil, err
	}
	for flid, s := range loaded {
		states[flid] = s
		c.entries[flid] = cachedState{state: s, stamp: store.FlightStamp{StateVersion: s.StateVersion, UpdatedAt: s.UpdatedAt}}
	}
	c.trim()
	return states, nil
}

// committed records the states a transaction of the pump wrote at now, as
// the store holds them: updated_at is the write time, also for a write
// that bumped no version. now must have the store's precision
// (microseconds). A state detach names may hold values of a message of
// pinBytes or more and is cached detached (flight.State.Detach).
func (c *stateCache) committed(writes []vocab.FlightWrite, now time.Time, detach func(flid int64) bool) {
	for _, w := range writes {
		s := *w.State // shallow: the maps are never changed in place (but by Detach)
		if detach(s.FLID) {
			// Computed over the cached state, if any: what it kept of it
			// is that state's, not copied again.
			s.Detach(c.entries[s.FLID].state)
		}
		s.UpdatedAt = now
		if s.CreatedAt.IsZero() {
			s.CreatedAt = now
		}
		c.entries[s.FLID] = cachedState{state: &s, stamp: store.FlightStamp{StateVersion: s.StateVersion, UpdatedAt: now}}
	}
	c.trim()
}

// pinBytes: a decoded message's values are substrings of its XML, so a
// cached state keeps alive every message it took a value from. That is
// harmless for ordinary messages (a FLOP is about 1 KB: at most a few MB
// for the whole cache) but not for large ones (a download of thousands of
// flights is megabytes): the states a message of this size or more wrote
// are cached detached (flight.State.Detach).
const pinBytes = 16 << 10

// pinning says which flights of a batch were written by a message of
// pinBytes or more.
func pinning(run []prepared) func(flid int64) bool {
	var flids map[int64]bool
	for _, pr := range run {
		if pr.size >= pinBytes && pr.Decoded != nil {
			if flids == nil {
				flids = map[int64]bool{}
			}
			for _, id := range apply.FLIDs(pr.Decoded) {
				flids[id] = true
			}
		}
	}
	return func(flid int64) bool { return flids[flid] }
}

// trim drops arbitrary entries beyond the bound (they are reloaded when needed).
func (c *stateCache) trim() {
	for flid := range c.entries {
		if len(c.entries) <= maxCachedStates {
			return
		}
		delete(c.entries, flid)
	}
}
