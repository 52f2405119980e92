package pgstore

import (
	"context"
	"encoding/json"
	"time"

	"github.com/msgx-aodb/msgx/db/postgres"
	"github.com/msgx-aodb/msgx/internal/store"
)

// AddBackfills registers every todo in one statement (see FinishMessages).
func (e executor) AddBackfills(ctx context.Context, todos []store.Backfill) error {
	type row struct {
		MsgID         int64      `json:"msg_id"`
		MailboxStatus string     `json:"mailbox_status"`
		ProcessedAt   time.Time  `json:"processed_at"`
		MetaSndr      *string    `json:"meta_sndr"`
		MetaSeqn      *int64     `json:"meta_seqn"`
		MetaDttm      *time.Time `json:"meta_dttm"`
		MetaType      *string    `json:"meta_type"`
		MetaStyp      *string    `json:"meta_styp"`
	}
	if len(todos) == 0 {
		return nil
	}
	rows := make([]row, len(todos))
	for i, b := range todos {
		rows[i] = row{
			MsgID: b.MsgID, MailboxStatus: b.MailboxStatus, ProcessedAt: b.ProcessedAt,
			MetaSndr: nilIfEmpty(b.Meta.Sndr), MetaSeqn: b.Meta.Seqn, MetaDttm: b.Meta.Dttm,
			MetaType: nilIfEmpty(b.Meta.Type), MetaStyp: nilIfEmpty(b.Meta.Styp),
		}
	}
	js, err := json.Marshal(rows)
	if err != nil {
		return err
	}
	return interpret(e.q.BackfillTodoAdd(ctx, e.db, js))
}

func (e executor) DueBackfills(ctx context.Context, now time.Time, max int) ([]store.Backfill, error) {
	rows, err := e.q.BackfillTodoListDue(ctx, e.db, postgres.BackfillTodoListDueParams{Now: now, MaxRows: int32(max)})
	out := make([]store.Backfill, len(rows))
	for i, r := range rows {
		out[i] = store.Backfill{
			MsgID: r.MsgID, MailboxStatus: r.MailboxStatus, ProcessedAt: r.ProcessedAt,
			Meta:     store.Meta{Sndr: deref(r.MetaSndr), Seqn: r.MetaSeqn, Dttm: r.MetaDttm, Type: deref(r.MetaType), Styp: deref(r.MetaStyp)},
			Attempts: int(r.Attempts), NextAttemptAt: r.NextAttemptAt, LastError: deref(r.LastError),
			OverwritesStatus: r.OverwritesStatus,
		}
	}
	return out, interpret(err)
}

func (e executor) DeleteBackfills(ctx context.Context, msgIDs []int64) error {
	_, err := e.q.BackfillTodoDelete(ctx, e.db, msgIDs)
	return interpret(err)
}

func (e executor) RecordBackfillFailure(ctx context.Context, p store.RecordBackfillFailureParams) error {
	return interpret(e.q.BackfillTodoRecordFailure(ctx, e.db, postgres.BackfillTodoRecordFailureParams{
		NextAttemptAt: p.NextAttemptAt, LastError: nilIfEmpty(p.Reason), MsgID: p.MsgID,
	}))
}
