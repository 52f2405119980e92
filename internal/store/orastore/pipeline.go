package orastore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/msgx-aodb/msgx/internal/store"
)

// LockPipeline takes the PIPELINE_LOCK row and reads its count of enqueues
// below the largest known id (11g's MERGE returns nothing: a second
// statement, under the lock).
func (e executor) LockPipeline(ctx context.Context, now time.Time) (int64, error) {
	if err := e.takePipelineLock(ctx, "PipelineLockTake", now); err != nil {
		return 0, err
	}
	var below int64
	err := e.queryOne(ctx, "PipelineLockAcquire", nil, func(r *sql.Rows) error { return r.Scan(&below) })
	return below, err
}

// takePipelineLock runs a MERGE that takes the PIPELINE_LOCK row. The MERGE
// is not atomic against a concurrent first insert of the row (ORA-00001 for
// the second session): the retry then takes the MATCHED branch and waits on
// the row lock.
func (e executor) takePipelineLock(ctx context.Context, query string, now time.Time) error {
	binds := map[string]any{"now": instant(now)}
	_, err := e.exec(ctx, query, binds)
	if errors.Is(err, store.ErrDuplicate) {
		_, err = e.exec(ctx, query, binds)
	}
	return err
}

func (e executor) IngressMark(ctx context.Context, source string) (int64, error) {
	var id int64
	err := e.queryOne(ctx, "IngressMarkGet", map[string]any{"source": source}, func(r *sql.Rows) error {
		return r.Scan(&id)
	})
	if errors.Is(err, store.ErrNotFound) {
		return 0, nil
	}
	return id, err
}

func (e executor) AdvanceIngressMark(ctx context.Context, p store.AdvanceIngressMarkParams) error {
	binds := map[string]any{"source": p.Source, "last_id": p.LastID, "now": instant(p.Now)}
	_, err := e.exec(ctx, "IngressMarkAdvance", binds)
	if errors.Is(err, store.ErrDuplicate) { // a concurrent first insert: now it matches
		_, err = e.exec(ctx, "IngressMarkAdvance", binds)
	}
	return err
}

func (e executor) PublishPause(ctx context.Context, p store.Pause) error {
	_, err := e.exec(ctx, "PumpStatePause", map[string]any{
		"dependency": text(p.Dependency), "reason": text(p.Reason),
		"since": instant(p.Since), "now": instant(p.Now),
	})
	return err
}

func (e executor) PublishResume(ctx context.Context, now time.Time) error {
	_, err := e.exec(ctx, "PumpStateResume", map[string]any{"now": instant(now)})
	return err
}

func (e executor) PumpPause(ctx context.Context) (*store.Pause, error) {
	var (
		id                 int64
		dependency, reason sql.NullString
		since              sql.NullTime
		updatedAt          time.Time
	)
	err := e.queryOne(ctx, "PumpStateGet", nil, func(r *sql.Rows) error {
		return r.Scan(&id, &dependency, &reason, &since, &updatedAt)
	})
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil || !dependency.Valid || !since.Valid {
		return nil, err
	}
	return &store.Pause{Dependency: dependency.String, Reason: reason.String, Since: since.Time, Now: updatedAt}, nil
}

func (e executor) ShiftDeadlines(ctx context.Context, pausedSince, resumedAt time.Time) (int, error) {
	res, err := e.exec(ctx, "ProcStateShiftDeadlines", map[string]any{"paused_since": instant(pausedSince), "resumed_at": instant(resumedAt)})
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), interpret(ctx, err)
}

func (e executor) RecordGap(ctx context.Context, g store.Gap) error {
	_, err := e.exec(ctx, "IngressGapAdd", map[string]any{
		"source": g.Source, "from_id": g.From, "to_id": g.To, "seen_at": instant(g.SeenAt), "given_up_at": instant(g.GivenUpAt),
	})
	if errors.Is(err, store.ErrDuplicate) {
		return nil // a concurrent record of the same hole: DO NOTHING
	}
	return err
}
