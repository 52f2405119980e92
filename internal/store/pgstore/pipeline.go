package pgstore

import (
	"context"
	"errors"
	"time"

	"github.com/msgx-aodb/msgx/db/postgres"
	"github.com/msgx-aodb/msgx/internal/store"
)

func (e executor) LockPipeline(ctx context.Context, now time.Time) (int64, error) {
	n, err := e.q.PipelineLockAcquire(ctx, e.db, now)
	return n, interpret(err)
}

func (e executor) IngressMark(ctx context.Context, source string) (int64, error) {
	id, err := e.q.IngressMarkGet(ctx, e.db, source)
	if err = interpret(err); errors.Is(err, store.ErrNotFound) {
		return 0, nil
	}
	return id, err
}

func (e executor) AdvanceIngressMark(ctx context.Context, p store.AdvanceIngressMarkParams) error {
	return interpret(e.q.IngressMarkAdvance(ctx, e.db, postgres.IngressMarkAdvanceParams{
		Source: p.Source, LastID: p.LastID, Now: p.Now,
	}))
}

func (e executor) PublishPause(ctx context.Context, p store.Pause) error {
	return interpret(e.q.PumpStatePause(ctx, e.db, postgres.PumpStatePauseParams{
		Dependency: &p.Dependency, Reason: nilIfEmpty(p.Reason), Since: &p.Since, Now: p.Now,
	}))
}

func (e executor) PublishResume(ctx context.Context, now time.Time) error {
	return interpret(e.q.PumpStateResume(ctx, e.db, now))
}

func (e executor) PumpPause(ctx context.Context) (*store.Pause, error) {
	r, err := e.q.PumpStateGet(ctx, e.db)
	if err = interpret(err); errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil || r.PausedDependency == nil || r.PausedSince == nil {
		return nil, err
	}
	return &store.Pause{Dependency: *r.PausedDependency, Reason: deref(r.PausedReason), Since: *r.PausedSince, Now: r.UpdatedAt}, nil
}

func (e executor) ShiftDeadlines(ctx context.Context, pausedSince, resumedAt time.Time) (int, error) {
	n, err := e.q.ProcStateShiftDeadlines(ctx, e.db, postgres.ProcStateShiftDeadlinesParams{
		PausedSince: pausedSince, ResumedAt: resumedAt,
	})
	return int(n), interpret(err)
}

func (e executor) RecordGap(ctx context.Context, g store.Gap) error {
	return interpret(e.q.IngressGapAdd(ctx, e.db, postgres.IngressGapAddParams{
		Source: g.Source, FromID: g.From, ToID: g.To, SeenAt: g.SeenAt, GivenUpAt: g.GivenUpAt,
	}))
}
