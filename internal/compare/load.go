package compare

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/msgx-aodb/msgx/db/report"
	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
)

// loadPage is how many flights are read at once: one query for the FLIDs,
// then one per table for all their rows (the store's batched read).
const loadPage = 1000

// Side is one database's flights as read in one snapshot.
type Side struct {
	States map[int64]*flight.State
	// Outbound is each flight's latest KAFKA:msg event (a flight that has
	// none is absent); nil unless LoadOptions.Payloads.
	Outbound map[int64]Outbound
}

// Outbound is what msgx last published about a flight: its latest KAFKA:msg
// event.
type Outbound struct {
	EventType string  // UPSERT or TOMBSTONE
	Payload   *string // the JSON value; nil for a TOMBSTONE
}

// LoadOptions say what Load reads.
type LoadOptions struct {
	// Day limits the flights to one operation day; nil reads every day.
	Day *time.Time
	// Payloads reads each flight's latest KAFKA:msg event too (Side.Outbound).
	Payloads bool
	// Progress, when set, is called with the number of flights read so far.
	Progress func(int)
}

// Load reads the full states of the flights (DELETED ones included) from an
// msgx database, all in one read-only REPEATABLE READ transaction: every
// flight, its detail rows and its event are of one snapshot, whatever the
// live service commits meanwhile, so no flight is ever a mix of two
// versions. FLIDs and events come from the read-only report queries; the
// states from the store's own reader, the code the service reads with.
func Load(ctx context.Context, pool *pgxpool.Pool, opt LoadOptions) (*Side, error) {
	tx, err := pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck // read only: nothing to keep, and a failed rollback closes the connection
	q, st := report.New(), pgstore.OnTx(tx)
	side := &Side{States: map[int64]*flight.State{}}
	if opt.Payloads {
		side.Outbound = map[int64]Outbound{}
	}
	var after int64
	for {
		ids, err := q.FlightIDs(ctx, tx, report.FlightIDsParams{OperationDay: opt.Day, AfterFlid: after, PageSize: loadPage})
		if err != nil {
			return nil, err
		}
		if len(ids) == 0 {
			return side, nil
		}
		states, err := st.Flights(ctx, ids)
		if err != nil {
			return nil, err
		}
		for id, s := range states {
			side.States[id] = s
		}
		if opt.Payloads {
			events, err := q.LatestMsgEvents(ctx, tx, ids)
			if err != nil {
				return nil, err
			}
			for _, e := range events {
				side.Outbound[e.Flid] = Outbound{EventType: e.EventType, Payload: e.Payload}
			}
		}
		after = ids[len(ids)-1]
		if opt.Progress != nil {
			opt.Progress(len(side.States))
		}
		if len(ids) < loadPage {
			return side, nil
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
