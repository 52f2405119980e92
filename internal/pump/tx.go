package pump

import (
	"context"
	"slices"
	"time"

	"github.com/msgx-aodb/msgx/internal/apply"
	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/respmatch"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// txReader is what a message settled alone reads (apply.Reader): the
// store's executor of its savepoint, the request guard's read, and the
// flights through the state cache (a download's resend reads the stamps of
// its flights, and in full only those another writer changed).
type txReader struct {
	store.Executor
	guard Guard // nil: request mode
	cache *stateCache
}

func (r txReader) Flights(ctx context.Context, flids []int64) (map[int64]*flight.State, error) {
	return r.cache.states(ctx, r.Executor, flids)
}

func (r txReader) RespCandidates(ctx context.Context, key string, dttm time.Time) (respmatch.Candidates, error) {
	if r.guard == nil {
		return respmatch.ReadOpen(ctx, r.Executor, key)
	}
	return r.guard.Read(ctx, r.Executor, key, dttm)
}

// flushChunk is the most flights, or events, one write statement carries:
// a statement's rows are built in memory whole (a copy of every state's
// columns, of every event's payload), so a download of 38 000 flights is
// written in slices rather than doubling what its run holds. Each flight is
// written once either way (apply merges a flight changed twice).
const flushChunk = 1000

// write sends what apply computed to the store, in the order apply.Writes
// lists it, one statement (or pgx batch) per kind where the store batches;
// shadow as the pump's Config.
func write(ctx context.Context, ex store.Executor, w *apply.Writes, now time.Time, shadow bool) error {
	for _, a := range w.Advances {
		if err := ex.AdvanceSnapshotGen(ctx, a); err != nil {
			return err // ErrConflict: the generation moved; retry
		}
	}
	for _, l := range w.SnapshotLogs {
		if err := ex.LogSnapshot(ctx, l); err != nil {
			return err
		}
	}
	for _, r := range w.RefUpserts {
		if _, err := ex.UpsertRef(ctx, r); err != nil {
			return err
		}
	}
	for _, k := range w.RefDeletes {
		if _, err := ex.DeleteRef(ctx, k.RType, k.RKey); err != nil {
			return err
		}
	}
	if l := w.RefList; l != nil {
		if _, err := ex.ReplaceRefList(ctx, l.RType, l.Keep); err != nil {
			return err
		}
	}
	for flights := range slices.Chunk(w.Flights, flushChunk) {
		if err := ex.WriteFlights(ctx, flights, now); err != nil {
			return err
		}
	}
	for events := range slices.Chunk(w.Events, flushChunk) {
		if err := ex.InsertEvents(ctx, events); err != nil {
			return err
		}
	}
	for marks := range slices.Chunk(w.SchdMarks, flushChunk) {
		if err := ex.MarkSchd(ctx, marks); err != nil {
			return err
		}
	}
	for _, m := range w.Members {
		if err := ex.ReplaceSnapshotMembers(ctx, m.FDay, m.FLIDs); err != nil {
			return err
		}
	}
	if d := w.RequestDone; d != nil {
		if err := ex.MarkRequestDone(ctx, *d); err != nil {
			return err
		}
	}
	if len(w.Finishes) > 0 {
		if err := ex.FinishMessages(ctx, w.Finishes); err != nil {
			return err
		}
	}
	return registerBackfills(ctx, ex, w, now, shadow)
}

// registerBackfills registers the backfill todos the mark does not cover
// (docs/design.md §1.4): a replay's, and a late row's at or below the mark,
// which the business transaction reads under the PIPELINE_LOCK it holds (the
// backfiller moves the mark under it). Every other terminal message is
// above the mark, its PROC_STATE row its registration: one read of the
// mark per transaction, and no insert (nor parameter arrays) unless a
// message is a replay or late. In shadow mode nothing is backfilled: the
// mark follows the messages finished.
func registerBackfills(ctx context.Context, ex store.Executor, w *apply.Writes, now time.Time, shadow bool) error {
	if shadow {
		if len(w.Finishes) == 0 {
			return nil
		}
		var last int64
		for i := range w.Finishes {
			last = max(last, w.Finishes[i].MsgID)
		}
		return ex.PassBackfillMark(ctx, last, now)
	}
	if len(w.Backfills) == 0 {
		return nil
	}
	mark, err := ex.BackfillMark(ctx)
	if err != nil {
		return err
	}
	var todos []vocab.Backfill
	for i := range w.Backfills {
		if t := &w.Backfills[i]; t.Registration > 0 || t.MsgID <= mark {
			todos = append(todos, *t)
		}
	}
	if len(todos) == 0 {
		return nil
	}
	return ex.AddBackfills(ctx, todos)
}
