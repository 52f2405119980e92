package orastore

import (
	"context"
	"database/sql"

	"github.com/msgx-aodb/msgx/internal/store"
)

func (e executor) OutboxLag(ctx context.Context) ([]store.TargetLag, error) {
	var out []store.TargetLag
	err := e.query(ctx, "EventLag", nil, func(r *sql.Rows) error {
		var l store.TargetLag
		err := r.Scan(&l.Target, &l.Pending, &l.Oldest)
		out = append(out, l)
		return err
	})
	return out, err
}

func (e executor) BackfillStats(ctx context.Context) (store.BackfillStats, error) {
	var s store.BackfillStats
	err := e.query(ctx, "StatusBackfill", nil, func(r *sql.Rows) error {
		var oldest sql.NullTime
		err := r.Scan(&oldest, &s.Todos, &s.Failing)
		s.Oldest = timePtr(oldest)
		return err
	})
	return s, err
}
