package orastore

import (
	"context"
	"database/sql"
	"time"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// AddBackfills registers the todos of a run with one array-bound MERGE (a
// slice per bind; PostgreSQL sends them as one JSON array).
func (e executor) AddBackfills(ctx context.Context, todos []vocab.Backfill) error {
	if len(todos) == 0 {
		return nil
	}
	n := len(todos)
	var (
		ids, statuses = make([]int64, n), make([]string, n)
		processed     = make([]time.Time, n)
		sndr, typ     = make([]sql.NullString, n), make([]sql.NullString, n)
		styp          = make([]sql.NullString, n)
		seqn          = make([]sql.NullInt64, n)
		dttm          = make([]sql.NullTime, n)
		registration  = make([]int64, n)
	)
	for i, b := range todos {
		ids[i], statuses[i], processed[i] = b.MsgID, b.MailboxStatus, instant(b.ProcessedAt)
		sndr[i], typ[i], styp[i] = text(b.Meta.Sndr), text(b.Meta.Type), text(b.Meta.Styp)
		seqn[i], dttm[i] = int64Ptr(b.Meta.Seqn), instantPtr(b.Meta.Dttm)
		registration[i] = b.Registration
	}
	_, err := e.exec(ctx, "BackfillTodoAdd", map[string]any{
		"msg_id": ids, "mailbox_status": statuses, "processed_at": processed,
		"meta_sndr": sndr, "meta_seqn": seqn, "meta_dttm": dttm, "meta_type": typ, "meta_styp": styp,
		"registration": registration,
	})
	return err
}

func (e executor) DueBackfills(ctx context.Context, now time.Time, max int) ([]vocab.Backfill, error) {
	var out []vocab.Backfill
	err := e.query(ctx, "BackfillTodoListDue", map[string]any{"now": instant(now), "max_rows": max}, func(r *sql.Rows) error {
		b, err := scanBackfill(r)
		out = append(out, b)
		return err
	})
	return out, err
}

// scanBackfill reads a BACKFILL_TODO row (SELECT *, table order) and the
// status it may overwrite; NULL text is "".
func scanBackfill(r *sql.Rows) (vocab.Backfill, error) {
	var (
		b                          vocab.Backfill
		sndr, typ, styp, lastError sql.NullString
		overwrites                 sql.NullString
		seqn                       sql.NullInt64
		dttm                       sql.NullTime
		created                    time.Time
	)
	err := r.Scan(&b.MsgID, &b.MailboxStatus, &b.ProcessedAt, &sndr, &seqn, &dttm, &typ, &styp,
		&b.Attempts, &b.NextAttemptAt, &lastError, &created, &b.Registration, &overwrites)
	b.Meta = vocab.Meta{Sndr: sndr.String, Seqn: int64P(seqn), Dttm: timePtr(dttm), Type: typ.String, Styp: styp.String}
	b.LastError, b.OverwritesStatus = lastError.String, overwrites.String
	return b, err
}

// DeleteBackfills deletes the todos backfilled with one array-bound DELETE,
// each under its registration only.
func (e executor) DeleteBackfills(ctx context.Context, done []vocab.BackfillKey) error {
	if len(done) == 0 {
		return nil
	}
	ids, registrations := make([]int64, len(done)), make([]int64, len(done))
	for i, k := range done {
		ids[i], registrations[i] = k.MsgID, k.Registration
	}
	_, err := e.exec(ctx, "BackfillTodoDelete", map[string]any{"msg_id": ids, "registration": registrations})
	return err
}

func (e executor) RecordBackfillFailure(ctx context.Context, p store.RecordBackfillFailureParams) error {
	b := &p.Backfill
	_, err := e.exec(ctx, "BackfillTodoRecordFailure", map[string]any{
		"msg_id": b.MsgID, "mailbox_status": b.MailboxStatus, "processed_at": instant(b.ProcessedAt),
		"meta_sndr": text(b.Meta.Sndr), "meta_seqn": int64Ptr(b.Meta.Seqn), "meta_dttm": instantPtr(b.Meta.Dttm),
		"meta_type": text(b.Meta.Type), "meta_styp": text(b.Meta.Styp), "registration": b.Registration,
		"next_attempt_at": instant(p.NextAttemptAt), "last_error": text(p.Reason),
	})
	return err
}

func (e executor) BackfillMark(ctx context.Context) (int64, error) {
	var through int64
	err := e.queryOne(ctx, "BackfillMarkGet", nil, func(r *sql.Rows) error { return r.Scan(&through) })
	return through, err
}

func (e executor) UnmarkedBackfills(ctx context.Context, after int64, max int) ([]store.UnmarkedBackfill, error) {
	var out []store.UnmarkedBackfill
	err := e.query(ctx, "BackfillUnmarked", map[string]any{"after": after, "max_rows": max}, func(r *sql.Rows) error {
		var (
			id              int64
			status          string
			finished, dttm  sql.NullTime
			sndr, typ, styp sql.NullString
			seqn            sql.NullInt64
			replays         int64
		)
		err := r.Scan(&id, &status, &finished, &replays, &sndr, &seqn, &dttm, &typ, &styp)
		out = append(out, store.Unmarked(id, status, timePtr(finished), replays,
			vocab.Meta{Sndr: sndr.String, Seqn: int64P(seqn), Dttm: timePtr(dttm), Type: typ.String, Styp: styp.String}))
		return err
	})
	return out, err
}

// AdvanceBackfillMark takes the pipeline lock first (pgstore's says why).
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
	list, err := x.numbers(ctx, p.Covered)
	if err != nil {
		return false, err
	}
	n, err := x.execRows(ctx, "BackfillMarkAdvance", map[string]any{"through": p.Through, "now": instant(p.Now), "msg_ids": list})
	if err != nil {
		return false, err
	}
	return n > 0, t.Commit(ctx)
}

func (e executor) PassBackfillMark(ctx context.Context, through int64, now time.Time) error {
	_, err := e.exec(ctx, "BackfillMarkPass", map[string]any{"through": through, "now": instant(now)})
	return err
}
