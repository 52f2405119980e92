package pgstore

import (
	"context"
	"time"

	"github.com/msgx-aodb/msgx/db/postgres"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// AddBackfills registers every todo in one statement, one array per column (see FinishMessages).
func (e executor) AddBackfills(ctx context.Context, todos []vocab.Backfill) error {
	if len(todos) == 0 {
		return nil
	}
	return interpret(arrayQueries.BackfillTodoAdd(ctx, e.db, backfillColumns(todos)))
}

func (e executor) DueBackfills(ctx context.Context, now time.Time, max int) ([]vocab.Backfill, error) {
	rows, err := e.q.BackfillTodoListDue(ctx, e.db, postgres.BackfillTodoListDueParams{Now: now, MaxRows: int32(max)})
	out := make([]vocab.Backfill, len(rows))
	for i, r := range rows {
		out[i] = vocab.Backfill{
			MsgID: r.MsgID, MailboxStatus: r.MailboxStatus, ProcessedAt: r.ProcessedAt,
			Meta:     vocab.Meta{Sndr: deref(r.MetaSndr), Seqn: r.MetaSeqn, Dttm: r.MetaDttm, Type: deref(r.MetaType), Styp: deref(r.MetaStyp)},
			Attempts: int(r.Attempts), NextAttemptAt: r.NextAttemptAt, LastError: deref(r.LastError),
			OverwritesStatus: r.OverwritesStatus, Registration: r.Registration,
		}
	}
	return out, interpret(err)
}

func (e executor) DeleteBackfills(ctx context.Context, done []vocab.BackfillKey) error {
	if len(done) == 0 {
		return nil
	}
	p := postgres.BackfillTodoDeleteParams{MsgIds: make([]int64, len(done)), Registrations: make([]int64, len(done))}
	for i, k := range done {
		p.MsgIds[i], p.Registrations[i] = k.MsgID, k.Registration
	}
	_, err := e.q.BackfillTodoDelete(ctx, e.db, p)
	return interpret(err)
}

func (e executor) RecordBackfillFailure(ctx context.Context, p store.RecordBackfillFailureParams) error {
	return interpret(e.q.BackfillTodoRecordFailure(ctx, e.db, postgres.BackfillTodoRecordFailureParams{
		NextAttemptAt: p.NextAttemptAt, LastError: nilIfEmpty(p.Reason), MsgID: p.MsgID, Registration: p.Registration,
	}))
}
