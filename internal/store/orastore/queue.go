package orastore

import (
	"context"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

func (e executor) Enqueue(ctx context.Context, ids []int64, now time.Time) (int, error) {
	got, err := e.EnqueueNew(ctx, ids, now)
	return len(got), err
}

// EnqueueNew runs under PIPELINE_LOCK in a transaction of its own (or a
// savepoint of the caller's): the late check and the insert see the same
// finished messages, and the rows step 1 lists are exactly those step 2
// inserts — unless no id is new (a rescan of queued ids) or every new id is
// above every known one (as pgstore: nothing can be late or overtake a run).
func (e executor) EnqueueNew(ctx context.Context, ids []int64, now time.Time) ([]store.Enqueued, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	t, err := e.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer t.Rollback(ctx)
	x := t.(*tx).executor
	list, err := x.numbers(ctx, ids)
	if err != nil {
		return nil, err
	}
	var newIDs, minNew, maxKnown int64
	if err := x.queryOne(ctx, "ProcStateEnqueueCheck", map[string]any{"msg_ids": list}, func(r *sql.Rows) error {
		return r.Scan(&newIDs, &minNew, &maxKnown)
	}); err != nil || newIDs == 0 {
		return nil, err
	}
	if minNew <= maxKnown { // counted under the lock: a run read before may hold this id's place
		if err := x.takePipelineLock(ctx, "PipelineLockEnqueueBelow", now); err != nil {
			return nil, err
		}
	}
	var got []store.Enqueued
	err = x.query(ctx, "ProcStateEnqueue", map[string]any{"msg_ids": list}, func(r *sql.Rows) error {
		var (
			n    store.Enqueued
			late int64
		)
		err := r.Scan(&n.ID, &late)
		if late > 0 {
			n.LateAfter = &late
		}
		got = append(got, n)
		return err
	})
	if err != nil || len(got) == 0 {
		return nil, err
	}
	_, err = x.execRows(ctx, "ProcStateEnqueueInsert", map[string]any{"msg_ids": list, "now": instant(now)})
	if errors.Is(err, store.ErrDuplicate) {
		return nil, nil // a concurrent enqueue of the same ids: DO NOTHING
	}
	if err != nil {
		return nil, err
	}
	return got, t.Commit(ctx)
}

func (e executor) QueueHead(ctx context.Context, max int) ([]vocab.QueueEntry, error) {
	return e.messages(ctx, "ProcStateListHead", map[string]any{"max_rows": max})
}

func (e executor) QueueRun(ctx context.Context, max int) ([]vocab.QueueEntry, int64, error) {
	var (
		out   []vocab.QueueEntry
		below int64
	)
	err := e.query(ctx, "ProcStateListRun", map[string]any{"max_rows": max}, func(r *sql.Rows) error {
		var m vocab.QueueEntry
		var key sql.NullString
		err := r.Scan(&m.ID, &m.Status, &m.Attempts, &m.FirstSeenAt, &key, &m.ReplayCount, &below)
		m.IdentityKey = key.String
		out = append(out, m)
		return err
	})
	return out, below, err
}

func (e executor) PendingAfter(ctx context.Context, after int64, max int) ([]int64, error) {
	var ids []int64
	err := e.query(ctx, "ProcStateListPendingAfter", map[string]any{"after_msg_id": after, "max_rows": max}, func(r *sql.Rows) error {
		var id int64
		err := r.Scan(&id)
		ids = append(ids, id)
		return err
	})
	return ids, err
}

func (e executor) Message(ctx context.Context, id int64) (vocab.QueueEntry, error) {
	var m vocab.QueueEntry
	err := e.queryOne(ctx, "ProcStateGet", map[string]any{"msg_id": id}, func(r *sql.Rows) error {
		var err error
		m, err = scanMessage(r)
		return err
	})
	if !errors.Is(err, store.ErrNotFound) {
		return m, err
	}
	err = e.queryOne(ctx, "ProcStateHstGet", map[string]any{"msg_id": id}, func(r *sql.Rows) error {
		var err error
		m, err = scanArchived(r)
		return err
	})
	return m, err
}

func (e executor) lockMessagesOn(ctx context.Context, ids []int64) ([]vocab.QueueEntry, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	list, err := e.numbers(ctx, ids)
	if err != nil {
		return nil, err
	}
	var out []vocab.QueueEntry
	err = e.query(ctx, "ProcStateGetManyForUpdate", map[string]any{"msg_ids": list}, func(r *sql.Rows) error {
		var m vocab.QueueEntry
		var key sql.NullString
		err := r.Scan(&m.ID, &m.Status, &key, &m.ReplayCount)
		m.IdentityKey = key.String
		out = append(out, m)
		return err
	})
	return out, err
}

func (e executor) identityHoldersOn(ctx context.Context, keys []string) (map[string]vocab.Holder, error) {
	holders := map[string]vocab.Holder{}
	if len(keys) == 0 {
		return holders, nil
	}
	list, err := e.strs(ctx, keys)
	if err != nil {
		return nil, err
	}
	err = e.query(ctx, "ProcStateFindIdentities", map[string]any{"identity_keys": list}, func(r *sql.Rows) error {
		var key string
		var h vocab.Holder
		err := r.Scan(&key, &h.MsgID, &h.Digest)
		holders[key] = h
		return err
	})
	return holders, err
}

// bindValues are the binds of a vocab.Binding ("" as NULL).
func bindValues(b vocab.Binding) map[string]any {
	return map[string]any{
		"identity_key": text(b.IdentityKey), "kind": text(b.Kind),
		"msg_type": text(b.Meta.Type), "msg_subtype": text(b.Meta.Styp), "meta_sndr": text(b.Meta.Sndr),
		"meta_seqn": int64Ptr(b.Meta.Seqn), "meta_dttm_raw": text(b.Meta.DttmRaw), "meta_dttm": instantPtr(b.Meta.Dttm),
	}
}

// columns turns per-row bind maps into one slice per bind: the array bind
// that runs a single-row statement once per element in one round trip.
func columns(rows []map[string]any) map[string]any {
	out := map[string]any{}
	for k := range rows[0] {
		switch rows[0][k].(type) {
		case int64:
			col := make([]int64, len(rows))
			for i, r := range rows {
				col[i] = r[k].(int64)
			}
			out[k] = col
		case time.Time:
			col := make([]time.Time, len(rows))
			for i, r := range rows {
				col[i] = r[k].(time.Time)
			}
			out[k] = col
		case string:
			col := make([]string, len(rows))
			for i, r := range rows {
				col[i] = r[k].(string)
			}
			out[k] = col
		case sql.NullString:
			col := make([]sql.NullString, len(rows))
			for i, r := range rows {
				col[i] = r[k].(sql.NullString)
			}
			out[k] = col
		case sql.NullInt64:
			col := make([]sql.NullInt64, len(rows))
			for i, r := range rows {
				col[i] = r[k].(sql.NullInt64)
			}
			out[k] = col
		case sql.NullTime:
			col := make([]sql.NullTime, len(rows))
			for i, r := range rows {
				col[i] = r[k].(sql.NullTime)
			}
			out[k] = col
		default:
			panic(fmt.Sprintf("orastore: no array bind for %T", rows[0][k]))
		}
	}
	return out
}

// FinishMessages finishes every message with one array-bound UPDATE. Array
// DML reports the total of rows: fewer than messages means some were not
// as read (ErrStale: the caller rolls back the run, as with PostgreSQL's
// list). bind_meta 1 binds a message's identity in the same write.
func (e executor) FinishMessages(ctx context.Context, finishes []vocab.Finish) error {
	if len(finishes) == 0 {
		return nil
	}
	rows := make([]map[string]any, len(finishes))
	ids := make([]int64, len(finishes))
	for i, p := range finishes {
		ids[i] = p.MsgID
		b, bind := vocab.Binding{}, int64(0)
		if p.Bind != nil {
			b, bind = *p.Bind, 1
		}
		rows[i] = bindValues(b)
		rows[i]["msg_id"], rows[i]["now"], rows[i]["bind_meta"] = p.MsgID, instant(finishes[0].Now), bind
		rows[i]["status"], rows[i]["error_class"], rows[i]["reason"] = p.Status, text(p.ErrorClass), text(p.Reason)
		rows[i]["duplicate_of"] = int64Ptr(p.DuplicateOf)
		rows[i]["raw_digest"] = text(hex.EncodeToString(b.Digest))
		// What the row must still be; a NULL status checks only that it is unfinished.
		rows[i]["read_status"], rows[i]["read_identity"] = text(p.Read.Status), text(p.Read.IdentityKey)
		rows[i]["read_replay_count"] = p.Read.ReplayCount
	}
	n, err := e.execRows(ctx, "ProcStateFinishMany", columns(rows))
	if err != nil {
		return err
	}
	return allDone("finish", ids, n)
}

func allDone(what string, ids []int64, n int64) error {
	if n == int64(len(ids)) {
		return nil
	}
	return fmt.Errorf("%w: %s: %d of messages %v are no longer as read", store.ErrStale, what, int64(len(ids))-n, ids)
}

// RecordFailure returns the new attempts through RETURNING ... INTO; no row
// updated leaves the out bind alone, so rows affected decides: none is
// ErrStale (no longer unfinished at the replay count read).
func (e executor) RecordFailure(ctx context.Context, p vocab.RecordFailureParams) (int, error) {
	binds := bindValues(vocab.Binding{})
	if p.Bind != nil {
		binds = bindValues(*p.Bind)
	}
	delete(binds, "identity_key") // only a message that gets through binds its identity
	var attempts int64
	binds["error_class"], binds["reason"] = text(p.ErrorClass), text(p.Reason)
	binds["next_attempt_at"], binds["now"], binds["msg_id"] = instant(p.NextAttemptAt), instant(p.Now), p.MsgID
	binds["read_replay_count"] = p.ReplayCount
	binds["attempts"] = sql.Out{Dest: &attempts}
	n, err := e.execRows(ctx, "ProcStateRecordFailure", binds)
	if err == nil && n == 0 {
		err = store.StaleFailure(p)
	}
	return int(attempts), err
}

func (e executor) DeadLetters(ctx context.Context, p store.DeadLettersParams) ([]vocab.QueueEntry, error) {
	return e.messages(ctx, "ProcStateListDead", map[string]any{
		"after_msg_id": p.AfterID, "error_class": text(p.Class), "page_size": p.Limit,
	})
}

// QueueCounts: a NULL class (” is NULL) reads as "".
func (e executor) QueueCounts(ctx context.Context) ([]store.StatusCount, error) {
	var out []store.StatusCount
	err := e.query(ctx, "ProcStateCountBacklogAndDead", nil, func(r *sql.Rows) error {
		var c store.StatusCount
		var class sql.NullString
		err := r.Scan(&c.Status, &class, &c.Messages)
		c.ErrorClass = class.String
		out = append(out, c)
		return err
	})
	return out, err
}

func (e executor) messages(ctx context.Context, name string, binds map[string]any) ([]vocab.QueueEntry, error) {
	var out []vocab.QueueEntry
	err := e.query(ctx, name, binds, func(r *sql.Rows) error {
		m, err := scanMessage(r)
		out = append(out, m)
		return err
	})
	return out, err
}

// scanMessage reads a PROC_STATE row (SELECT *, table order).
func scanMessage(r *sql.Rows) (vocab.QueueEntry, error) {
	var (
		m                                                            vocab.QueueEntry
		key, kind, typ, styp, sndr, raw, class, reason, prevC, prevR sql.NullString
		seqn, dup                                                    sql.NullInt64
		dttm, next, failing, finished                                sql.NullTime
		created, updated                                             time.Time
		late                                                         sql.NullInt64
	)
	err := r.Scan(&m.ID, &m.Status, &key, &kind, &typ, &styp, &sndr, &seqn, &raw, &dttm,
		&m.Attempts, &next, &m.FirstSeenAt, &failing, &class, &reason, &dup, &m.ReplayCount,
		&prevC, &prevR, &finished, &created, &updated, &late, &m.Digest)
	m.LateAfter = int64P(late)
	m.IdentityKey, m.Kind, m.ErrorClass, m.Reason = key.String, kind.String, class.String, reason.String
	m.Meta = vocab.Meta{Sndr: sndr.String, Seqn: int64P(seqn), DttmRaw: raw.String, Dttm: timePtr(dttm), Type: typ.String, Styp: styp.String}
	m.NextAttemptAt, m.FailingSince, m.FinishedAt = timePtr(next), timePtr(failing), timePtr(finished)
	m.DuplicateOf, m.PrevClass, m.PrevReason = int64P(dup), prevC.String, prevR.String
	return m, err
}

// scanArchived reads a PROC_STATE_HST row (SELECT *, table order).
func scanArchived(r *sql.Rows) (vocab.QueueEntry, error) {
	var (
		m                                                            vocab.QueueEntry
		key, kind, typ, styp, sndr, raw, class, reason, prevC, prevR sql.NullString
		seqn, dup                                                    sql.NullInt64
		dttm, finished                                               sql.NullTime
		created, archivedAt                                          time.Time
		late                                                         sql.NullInt64
	)
	err := r.Scan(&m.ID, &m.Status, &key, &kind, &typ, &styp, &sndr, &seqn, &raw, &dttm,
		&m.Attempts, &m.FirstSeenAt, &class, &reason, &dup, &m.ReplayCount,
		&prevC, &prevR, &finished, &created, &archivedAt, &late, &m.Digest)
	m.LateAfter = int64P(late)
	m.IdentityKey, m.Kind, m.ErrorClass, m.Reason = key.String, kind.String, class.String, reason.String
	m.Meta = vocab.Meta{Sndr: sndr.String, Seqn: int64P(seqn), DttmRaw: raw.String, Dttm: timePtr(dttm), Type: typ.String, Styp: styp.String}
	m.FinishedAt, m.DuplicateOf, m.PrevClass, m.PrevReason = timePtr(finished), int64P(dup), prevC.String, prevR.String
	m.Archived = true
	return m, err
}
