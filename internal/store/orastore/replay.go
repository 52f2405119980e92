package orastore

import (
	"context"
	"database/sql"
	"time"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Replays (store/replay.go).

func (e executor) replayCandidatesOn(ctx context.Context, p store.ReplayCandidatesParams) ([]vocab.QueueEntry, error) {
	if p.IDs != nil && len(p.IDs) == 0 {
		return []vocab.QueueEntry{}, nil // an empty list selects nothing (nil: every id)
	}
	anyID := int64(1)
	if p.IDs != nil {
		anyID = 0
	}
	list, err := e.numbers(ctx, p.IDs)
	if err != nil {
		return nil, err
	}
	return e.messages(ctx, "ReplayCandidates", map[string]any{
		"after_msg_id": p.AfterID, "any_id": anyID, "msg_ids": list, "error_class": text(p.Class), "max_rows": max(p.Limit, 0),
	})
}

// ReplayIDs counts itself under PIPELINE_LOCK as an enqueue below the
// largest known id (sql/postgres/queries/replay.sql says why; the lock row first, as
// the pump takes it), locks the replayable rows among ids, then moves
// exactly those.
func (e executor) replayIDsOn(ctx context.Context, ids []int64, now time.Time) ([]int64, error) {
	if len(ids) == 0 {
		return []int64{}, nil
	}
	if err := e.takePipelineLock(ctx, "PipelineLockEnqueueBelow", now); err != nil {
		return nil, err
	}
	list, err := e.numbers(ctx, ids)
	if err != nil {
		return nil, err
	}
	moved, err := e.ids(ctx, "ReplayByIDs", map[string]any{"msg_ids": list}, 0)
	if err != nil || len(moved) == 0 {
		return moved, err
	}
	if list, err = e.numbers(ctx, moved); err != nil {
		return nil, err
	}
	_, err = e.exec(ctx, "ReplayByIDsMove", map[string]any{"msg_ids": list, "now": instant(now)})
	return moved, err
}

func (e executor) flightMarksOn(ctx context.Context, flids []int64) (map[int64]store.FlightMark, error) {
	marks := map[int64]store.FlightMark{}
	if len(flids) == 0 {
		return marks, nil
	}
	list, err := e.numbers(ctx, flids)
	if err != nil {
		return nil, err
	}
	err = e.query(ctx, "FlightMarks", map[string]any{"flids": list}, func(r *sql.Rows) error {
		var m store.FlightMark
		err := r.Scan(&m.FLID, &m.StateVersion, &m.LastMessageID, &m.Lifecycle, &m.OperationDay, &m.UpdatedAt)
		m.OperationDay = dayOf(m.OperationDay)
		marks[m.FLID] = m
		return err
	})
	return marks, err
}
