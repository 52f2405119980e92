package pgstore

import (
	"context"

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
