package orastore

import (
	"context"
	"time"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// pin runs f on one connection. A collection bind (SYS.ODCINUMBERLIST)
// belongs to the connection that made it, so a method called on the pool
// makes its collections and runs its statements on one pinned connection;
// in a transaction it is the transaction's own.
func (e executor) pin(ctx context.Context, f func(executor) error) error {
	if e.tx != nil || e.db == nil {
		return f(e)
	}
	conn, err := e.db.Conn(ctx)
	if err != nil {
		return interpret(ctx, err)
	}
	defer conn.Close()
	return f(executor{ex: conn, bind: e.bind})
}

func pinned[T any](ctx context.Context, e executor, f func(executor) (T, error)) (T, error) {
	var out T
	err := e.pin(ctx, func(p executor) error {
		var err error
		out, err = f(p)
		return err
	})
	return out, err
}

// The methods that bind collections, pinned.

func (e executor) Flights(ctx context.Context, flids []int64) (map[int64]*flight.State, error) {
	return pinned(ctx, e, func(p executor) (map[int64]*flight.State, error) { return p.flightsOn(ctx, flids) })
}

func (e executor) FlightStamps(ctx context.Context, flids []int64) (map[int64]store.FlightStamp, error) {
	return pinned(ctx, e, func(p executor) (map[int64]store.FlightStamp, error) { return p.flightStampsOn(ctx, flids) })
}

func (e executor) PruneCandidates(ctx context.Context, fday time.Time, keep []int64) ([]*flight.State, error) {
	return pinned(ctx, e, func(p executor) ([]*flight.State, error) { return p.pruneCandidatesOn(ctx, fday, keep) })
}

func (e executor) FlightsByDay(ctx context.Context, p store.FlightsByDayParams) ([]*flight.State, error) {
	return pinned(ctx, e, func(x executor) ([]*flight.State, error) { return x.flightsByDayOn(ctx, p) })
}

func (e executor) WriteFlights(ctx context.Context, writes []vocab.FlightWrite, now time.Time) error {
	return e.pin(ctx, func(p executor) error { return p.writeFlightsOn(ctx, writes, now) })
}

func (e executor) MarkSent(ctx context.Context, p store.MarkSentParams) error {
	return e.pin(ctx, func(x executor) error { return x.markSentOn(ctx, p) })
}

func (e executor) ReplayCandidates(ctx context.Context, p store.ReplayCandidatesParams) ([]vocab.QueueEntry, error) {
	return pinned(ctx, e, func(x executor) ([]vocab.QueueEntry, error) { return x.replayCandidatesOn(ctx, p) })
}

// ReplayIDs runs in a transaction of its own unless it is given one: its
// count under PIPELINE_LOCK and the move commit together.
func (e executor) ReplayIDs(ctx context.Context, ids []int64, now time.Time) ([]int64, error) {
	if len(ids) == 0 || e.tx != nil {
		return e.replayIDsOn(ctx, ids, now)
	}
	t, err := e.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer t.Rollback(ctx)
	moved, err := t.(*tx).executor.replayIDsOn(ctx, ids, now)
	if err != nil {
		return nil, err
	}
	return moved, t.Commit(ctx)
}

func (e executor) FlightMarks(ctx context.Context, flids []int64) (map[int64]store.FlightMark, error) {
	return pinned(ctx, e, func(p executor) (map[int64]store.FlightMark, error) { return p.flightMarksOn(ctx, flids) })
}

func (e executor) LockMessages(ctx context.Context, ids []int64) ([]vocab.QueueEntry, error) {
	return pinned(ctx, e, func(p executor) ([]vocab.QueueEntry, error) { return p.lockMessagesOn(ctx, ids) })
}

func (e executor) IdentityHolders(ctx context.Context, keys []string) (map[string]vocab.Holder, error) {
	return pinned(ctx, e, func(p executor) (map[string]vocab.Holder, error) { return p.identityHoldersOn(ctx, keys) })
}

func (e executor) ReplaceRefList(ctx context.Context, rtype string, keep []string) (int, error) {
	return pinned(ctx, e, func(p executor) (int, error) { return p.replaceRefListOn(ctx, rtype, keep) })
}

func (e executor) ExpireRequestKey(ctx context.Context, p store.ExpireRequestKeyParams) ([]int64, error) {
	return pinned(ctx, e, func(x executor) ([]int64, error) { return x.expireRequestKeyOn(ctx, p) })
}

func (e executor) ExpireDueRequests(ctx context.Context, now time.Time, max int) ([]int64, error) {
	return pinned(ctx, e, func(p executor) ([]int64, error) { return p.expireDueRequestsOn(ctx, now, max) })
}

func (e executor) PurgeCandidates(ctx context.Context, p store.PurgeParams) ([]*flight.State, error) {
	return pinned(ctx, e, func(x executor) ([]*flight.State, error) { return x.purgeCandidatesOn(ctx, p) })
}

func (e executor) DeleteFlights(ctx context.Context, p store.DeleteFlightsParams) (int, error) {
	return pinned(ctx, e, func(x executor) (int, error) { return x.deleteFlightsOn(ctx, p) })
}
