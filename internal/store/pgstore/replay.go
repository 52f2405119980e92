package pgstore

import (
	"context"
	"slices"
	"time"

	"github.com/msgx-aodb/msgx/db/postgres"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Replays (store/replay.go).

func (e executor) ReplayCandidates(ctx context.Context, p store.ReplayCandidatesParams) ([]vocab.QueueEntry, error) {
	if p.IDs != nil && len(p.IDs) == 0 {
		return []vocab.QueueEntry{}, nil // an empty list selects nothing (nil would select every id)
	}
	rows, err := e.q.ReplayCandidates(ctx, e.db, postgres.ReplayCandidatesParams{
		AfterMsgID: p.AfterID, MsgIds: p.IDs, ErrorClass: nilIfEmpty(p.Class), MaxRows: int32(max(p.Limit, 0)),
	})
	return messages(rows), interpret(err)
}

func (e executor) ReplayIDs(ctx context.Context, ids []int64, now time.Time) ([]int64, error) {
	if len(ids) == 0 {
		return []int64{}, nil
	}
	moved, err := e.q.ReplayByIDs(ctx, e.db, postgres.ReplayByIDsParams{Now: now, MsgIds: ids})
	if err != nil {
		return nil, interpret(err)
	}
	slices.Sort(moved)
	return moved, nil
}

func (e executor) FlightMarks(ctx context.Context, flids []int64) (map[int64]store.FlightMark, error) {
	marks := map[int64]store.FlightMark{}
	if len(flids) == 0 {
		return marks, nil
	}
	rows, err := e.q.FlightMarks(ctx, e.db, flids)
	if err != nil {
		return nil, interpret(err)
	}
	for _, r := range rows {
		marks[r.Flid] = store.FlightMark{FLID: r.Flid, StateVersion: r.StateVersion, LastMessageID: r.LastMessageID,
			Lifecycle: r.Lifecycle, OperationDay: r.OperationDay, UpdatedAt: r.UpdatedAt}
	}
	return marks, nil
}
