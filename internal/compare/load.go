package compare

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/msgx-aodb/msgx/db/report"
	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
)

// loadPage is how many flights are read at once: one query for the FLIDs,
// then one per table for all their rows (the store's batched read).
const loadPage = 1000

// Load reads the full states of the flights of one operation day (nil: of
// every day), DELETED ones included, from an msgx database. FLIDs come from
// the read-only report queries; the states from the store's own reader, the
// same code the service reads its state with. progress, when set, is called
// with the number of flights read so far.
func Load(ctx context.Context, pool *pgxpool.Pool, day *time.Time, progress func(int)) (map[int64]*flight.State, error) {
	q := report.New()
	st := pgstore.New(pool)
	out := map[int64]*flight.State{}
	var after int64
	for {
		ids, err := q.FlightIDs(ctx, pool, report.FlightIDsParams{OperationDay: day, AfterFlid: after, PageSize: loadPage})
		if err != nil {
			return nil, err
		}
		if len(ids) == 0 {
			return out, nil
		}
		states, err := st.Flights(ctx, ids)
		if err != nil {
			return nil, err
		}
		for id, s := range states {
			out[id] = s
		}
		after = ids[len(ids)-1]
		if progress != nil {
			progress(len(out))
		}
		if len(ids) < loadPage {
			return out, nil
		}
	}
}

// ScopeToSnapshot keeps the flights of a the snapshot speaks for: every
// flight it lists, whatever its lifecycle, and every ACTIVE flight of one of
// its operation days (which the AODB says should not be there). A DELETED
// flight the snapshot does not list agrees with it and is left out.
func ScopeToSnapshot(a map[int64]*flight.State, snap *Snapshot) map[int64]*flight.State {
	days := map[string]bool{} // by text: the two sides' dates may differ in zone
	for _, d := range snap.Days {
		days[d.Format(time.DateOnly)] = true
	}
	out := map[int64]*flight.State{}
	for id, s := range a {
		if _, listed := snap.States[id]; listed || (s.Lifecycle == flight.Active && days[s.OperationDay.Format(time.DateOnly)]) {
			out[id] = s
		}
	}
	return out
}
