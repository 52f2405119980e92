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
	b := &p.Backfill
	return interpret(e.q.BackfillTodoRecordFailure(ctx, e.db, postgres.BackfillTodoRecordFailureParams{
		MsgID: b.MsgID, MailboxStatus: b.MailboxStatus, ProcessedAt: b.ProcessedAt,
		MetaSndr: nilIfEmpty(b.Meta.Sndr), MetaSeqn: b.Meta.Seqn, MetaDttm: b.Meta.Dttm,
		MetaType: nilIfEmpty(b.Meta.Type), MetaStyp: nilIfEmpty(b.Meta.Styp),
		NextAttemptAt: p.NextAttemptAt, LastError: nilIfEmpty(p.Reason), Registration: b.Registration,
	}))
}

func (e executor) BackfillMark(ctx context.Context) (int64, error) {
	through, err := e.q.BackfillMarkGet(ctx, e.db)
	return through, interpret(err)
}

func (e executor) UnmarkedBackfills(ctx context.Context, after int64, max int) ([]store.UnmarkedBackfill, error) {
	rows, err := e.q.BackfillUnmarked(ctx, e.db, postgres.BackfillUnmarkedParams{After: after, MaxRows: int32(max)})
	out := make([]store.UnmarkedBackfill, len(rows))
	for i, r := range rows {
		out[i] = store.Unmarked(r.MsgID, r.Status, r.FinishedAt, int64(r.ReplayCount),
			vocab.Meta{Sndr: deref(r.MetaSndr), Seqn: r.MetaSeqn, Dttm: r.MetaDttm, Type: deref(r.MsgType), Styp: deref(r.MsgSubtype)})
	}
	return out, interpret(err)
}

// AdvanceBackfillMark takes the pipeline lock first: the business
// transaction reads the mark under it, so a late row it finished without a
// todo (the mark was below it) has committed before the advance counts.
func (e executor) AdvanceBackfillMark(ctx context.Context, p store.AdvanceBackfillMarkParams) (bool, error) {
	t, err := e.Begin(ctx)
	if err != nil {
		return false, err
	}
	defer t.Rollback(ctx)
	x := t.(*tx).executor
	if _, err := x.LockPipeline(ctx, p.Now); err != nil {
		return false, err
	}
	n, err := x.q.BackfillMarkAdvance(ctx, x.db, postgres.BackfillMarkAdvanceParams{Through: p.Through, Now: p.Now, MsgIds: p.Covered})
	if err != nil {
		return false, interpret(err)
	}
	return n > 0, t.Commit(ctx)
}

func (e executor) PassBackfillMark(ctx context.Context, through int64, now time.Time) error {
	return interpret(e.q.BackfillMarkPass(ctx, e.db, postgres.BackfillMarkPassParams{Through: through, Now: now}))
}
