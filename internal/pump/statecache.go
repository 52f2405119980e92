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

// stateCache holds the flight states the pump's fast path committed in this
// lead term, each with the stamp (state_version, updated_at) it was written
// under. A batch then reads only the stamps of the flights it touches and
// loads in full only the flights whose stamp moved: written by another path
// (one by one, snapshots, the history sweep, another leader before this
// term) or never seen. Every write sets updated_at, also one that bumps no
// version, so a stale entry never matches.
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
// cached ones whose stamp still matches, the rest read in full.
func (c *stateCache) states(ctx context.Context, ex store.Executor, flids []int64) (map[int64]*flight.State, error) {
	stamps, err := ex.FlightStamps(ctx, flids)
	if err != nil {
		return nil, err
	}
	states := make(map[int64]*flight.State, len(stamps))
	var load []int64
	for flid, stamp := range stamps {
		if e, ok := c.entries[flid]; ok && e.stamp.StateVersion == stamp.StateVersion && e.stamp.UpdatedAt.Equal(stamp.UpdatedAt) {
			states[flid] = e.state
			c.hits++
		} else {
			load = append(load, flid)
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

// committed records the states a fast-path batch wrote at now, as the
// store holds them: updated_at is the write time, also for a write that
// bumped no version. now must have the store's precision (microseconds).
func (c *stateCache) committed(writes []vocab.FlightWrite, now time.Time) {
	for _, w := range writes {
		s := *w.State // shallow: the maps are never changed in place
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
// for the whole cache) but not for large ones: the states a message of
// this size or more wrote are not cached (they are read again when needed).
const pinBytes = 16 << 10

// pinningFLIDs are the flights of the run's messages of pinBytes or more.
func pinningFLIDs(run []prepared) []int64 {
	var flids []int64
	for _, pr := range run {
		if pr.size >= pinBytes && pr.Decoded != nil {
			flids = append(flids, apply.FLIDs(pr.Decoded)...)
		}
	}
	return flids
}

// clear forgets everything; used after writes that bypass the cache.
func (c *stateCache) clear() { clear(c.entries) }

// forget drops the named flights; used after writes to them that bypass the cache.
func (c *stateCache) forget(flids []int64) {
	for _, id := range flids {
		delete(c.entries, id)
	}
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
