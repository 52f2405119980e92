package pgstore

import (
	"context"
	"time"

	"github.com/msgx-aodb/msgx/db/postgres"

	"github.com/msgx-aodb/msgx/internal/store"
)

// Status (store/status.go).

func (e executor) OutboxLag(ctx context.Context) ([]store.TargetLag, error) {
	rows, err := e.q.EventLag(ctx, e.db)
	if err != nil {
		return nil, interpret(err)
	}
	lags := make([]store.TargetLag, len(rows))
	for i, r := range rows {
		lags[i] = store.TargetLag{Target: r.Target, Pending: r.Pending, Oldest: r.Oldest}
	}
	return lags, nil
}

func (e executor) BackfillStats(ctx context.Context) (store.BackfillStats, error) {
	rows, err := e.q.StatusBackfill(ctx, e.db)
	if err != nil || len(rows) == 0 {
		return store.BackfillStats{}, interpret(err)
	}
	r := rows[0]
	oldest := r.Oldest
	return store.BackfillStats{Todos: r.Todos, Failing: r.Failing, Oldest: &oldest}, nil
}

func (e executor) IngressIrregular(ctx context.Context, since time.Time, max int) (store.IngressIrregular, error) {
	var r store.IngressIrregular
	var err error
	if r.Gaps, err = e.q.IngressGapCountSince(ctx, e.db, since); err != nil {
		return r, interpret(err)
	}
	late, err := e.q.LateRowCountSince(ctx, e.db, since)
	if err != nil {
		return r, interpret(err)
	}
	r.LateRows = int64(late)
	gaps, err := e.q.IngressGapsSince(ctx, e.db, postgres.IngressGapsSinceParams{Since: since, MaxRows: int32(max)})
	if err != nil {
		return r, interpret(err)
	}
	for _, g := range gaps {
		r.LatestGaps = append(r.LatestGaps, store.Gap{Source: g.Source, From: g.FromID, To: g.ToID, SeenAt: g.SeenAt, GivenUpAt: g.GivenUpAt})
	}
	rows, err := e.q.LateRowsSince(ctx, e.db, postgres.LateRowsSinceParams{Since: since, MaxRows: int32(max)})
	if err != nil {
		return r, interpret(err)
	}
	for _, l := range rows {
		r.LatestLate = append(r.LatestLate, store.LateRow{ID: l.MsgID, After: deref(l.LateAfter), At: l.FirstSeenAt})
	}
	if r.IdentityConflicts, err = e.q.IdentityConflictCountSince(ctx, e.db, since); err != nil {
		return r, interpret(err)
	}
	conflicts, err := e.q.IdentityConflictsSince(ctx, e.db, postgres.IdentityConflictsSinceParams{Since: since, MaxRows: int32(max)})
	if err != nil {
		return r, interpret(err)
	}
	for _, c := range conflicts {
		r.LatestConflicts = append(r.LatestConflicts, store.IdentityConflict{ID: c.MsgID, Holder: deref(c.DuplicateOf), At: deref(c.FinishedAt)})
	}
	return r, nil
}
