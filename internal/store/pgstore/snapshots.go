package pgstore

import (
	"context"
	"fmt"
	"time"

	"github.com/msgx-aodb/msgx/db/postgres"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

func (e executor) SnapshotGen(ctx context.Context, fday time.Time) (vocab.SnapshotGen, error) {
	g, err := e.q.SchdGenGet(ctx, e.db, fday)
	return vocab.SnapshotGen{
		FDay: g.Fday, Version: g.Version, LastMessageID: g.LastMessageID,
		ContentDigest: deref(g.ContentDigest), UpdatedAt: g.UpdatedAt,
		Dttm: g.MsgDttm, DttmRaw: deref(g.MsgDttmRaw),
	}, interpret(err)
}

func (e executor) AdvanceSnapshotGen(ctx context.Context, p vocab.AdvanceSnapshotGenParams) error {
	var n int64
	var err error
	if p.ExpectedVersion == 0 {
		n, err = e.q.SchdGenCreate(ctx, e.db, postgres.SchdGenCreateParams{
			Fday: p.FDay, LastMessageID: p.MessageID, ContentDigest: nilIfEmpty(p.ContentDigest), Now: p.Now,
			MsgDttm: p.Dttm, MsgDttmRaw: nilIfEmpty(p.DttmRaw),
		})
	} else {
		n, err = e.q.SchdGenAdvance(ctx, e.db, postgres.SchdGenAdvanceParams{
			LastMessageID: p.MessageID, ContentDigest: nilIfEmpty(p.ContentDigest), Now: p.Now,
			MsgDttm: p.Dttm, MsgDttmRaw: nilIfEmpty(p.DttmRaw),
			Fday: p.FDay, ExpectedVersion: p.ExpectedVersion,
		})
	}
	if err != nil {
		return interpret(err)
	}
	if n == 0 {
		return fmt.Errorf("%w: snapshot generation of %s is no longer %d", store.ErrConflict, p.FDay.Format(time.DateOnly), p.ExpectedVersion)
	}
	return nil
}

func (e executor) ReplaceSnapshotMembers(ctx context.Context, fday time.Time, flids []int64) error {
	if flids == nil {
		flids = []int64{} // an empty array, not NULL: the day keeps no member
	}
	return interpret(e.q.SchdGenFlidReplace(ctx, e.db, postgres.SchdGenFlidReplaceParams{Fday: fday, Flids: flids}))
}

func (e executor) SnapshotMembers(ctx context.Context, fday time.Time) ([]int64, error) {
	ids, err := e.q.SchdGenFlidListByDay(ctx, e.db, fday)
	return ids, interpret(err)
}

func (e executor) LogSnapshot(ctx context.Context, l vocab.SnapshotLog) error {
	return interpret(e.q.SchdSnapLogInsert(ctx, e.db, postgres.SchdSnapLogInsertParams{
		MsgID: l.MsgID, MsgSubtype: l.Subtype, Fday: l.FDay, GenVersion: l.GenVersion,
		ScopeBegin: l.ScopeBegin, ScopeEnd: l.ScopeEnd, RecordCount: int32(l.Records),
		Changed: int32(l.Changed), Unchanged: int32(l.Unchanged), Pruned: int32(l.Pruned), KeptNewer: int32(l.KeptNewer), RecvAt: l.RecvAt,
		Outcome: l.Outcome, MsgDttm: l.Dttm, StaleOf: l.StaleOf,
	}))
}

func (e executor) SnapshotLogs(ctx context.Context, msgID int64) ([]vocab.SnapshotLog, error) {
	rows, err := e.q.SchdSnapLogListByMessage(ctx, e.db, msgID)
	if err != nil {
		return nil, interpret(err)
	}
	logs := make([]vocab.SnapshotLog, len(rows))
	for i, r := range rows {
		logs[i] = vocab.SnapshotLog{
			MsgID: r.MsgID, Subtype: r.MsgSubtype, FDay: r.Fday, Outcome: r.Outcome,
			GenVersion: r.GenVersion, StaleOf: r.StaleOf, Dttm: r.MsgDttm,
			ScopeBegin: r.ScopeBegin, ScopeEnd: r.ScopeEnd, Records: int(r.RecordCount),
			Changed: int(r.Changed), Unchanged: int(r.Unchanged), Pruned: int(r.Pruned), KeptNewer: int(r.KeptNewer), RecvAt: r.RecvAt,
		}
	}
	return logs, nil
}
