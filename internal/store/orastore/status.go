package orastore

import (
	"context"
	"database/sql"
	"time"

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

func (e executor) IngressIrregular(ctx context.Context, since time.Time, max int) (store.IngressIrregular, error) {
	var r store.IngressIrregular
	at := map[string]any{"since": instant(since)}
	if err := e.queryOne(ctx, "IngressGapCountSince", at, func(rows *sql.Rows) error { return rows.Scan(&r.Gaps) }); err != nil {
		return r, err
	}
	if err := e.queryOne(ctx, "LateRowCountSince", at, func(rows *sql.Rows) error { return rows.Scan(&r.LateRows) }); err != nil {
		return r, err
	}
	page := map[string]any{"since": instant(since), "max_rows": max}
	err := e.query(ctx, "IngressGapsSince", page, func(rows *sql.Rows) error {
		var g store.Gap
		err := rows.Scan(&g.Source, &g.From, &g.To, &g.SeenAt, &g.GivenUpAt)
		r.LatestGaps = append(r.LatestGaps, g)
		return err
	})
	if err != nil {
		return r, err
	}
	err = e.query(ctx, "LateRowsSince", page, func(rows *sql.Rows) error {
		var l store.LateRow
		err := rows.Scan(&l.ID, &l.After, &l.At)
		r.LatestLate = append(r.LatestLate, l)
		return err
	})
	if err != nil {
		return r, err
	}
	if err := e.queryOne(ctx, "IdentityConflictCountSince", at, func(rows *sql.Rows) error { return rows.Scan(&r.IdentityConflicts) }); err != nil {
		return r, err
	}
	err = e.query(ctx, "IdentityConflictsSince", page, func(rows *sql.Rows) error {
		var c store.IdentityConflict
		err := rows.Scan(&c.ID, &c.Holder, &c.At)
		r.LatestConflicts = append(r.LatestConflicts, c)
		return err
	})
	return r, err
}
