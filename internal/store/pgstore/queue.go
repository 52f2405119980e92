package pgstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/msgx-aodb/msgx/db/postgres"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

func (e executor) Enqueue(ctx context.Context, ids []int64, now time.Time) (int, error) {
	got, err := e.EnqueueNew(ctx, ids, now)
	return len(got), err
}

// EnqueueNew inserts under PIPELINE_LOCK (in a transaction of its own, or a
// savepoint of the caller's), so the late check and the insert see the same
// finished messages — unless no id is new (a rescan of queued ids) or every
// new id is above every known one (the poll's usual case: nothing can be
// late, no run can be overtaken). Then it waits for no business transaction.
// Under the lock it counts itself (PipelineLockEnqueueBelow): a run read
// before it commits may have this id inside its range (store.QueueRun).
func (e executor) EnqueueNew(ctx context.Context, ids []int64, now time.Time) ([]store.Enqueued, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	c, err := e.q.ProcStateEnqueueCheck(ctx, e.db, ids)
	if err != nil || c.NewIds == 0 {
		return nil, interpret(err)
	}
	if c.MinNew > c.MaxKnown { // one statement, no lock: no transaction of its own
		if _, inTx := e.db.(pgx.Tx); int(c.NewIds) == len(ids) && !inTx {
			return e.enqueueAbove(ctx, ids, now)
		}
		rows, err := e.q.ProcStateEnqueue(ctx, e.db, postgres.ProcStateEnqueueParams{Now: now, MsgIds: ids})
		return enqueued(rows), interpret(err)
	}
	t, err := e.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer t.Rollback(ctx)
	x := t.(*tx).executor
	if err := interpret(x.q.PipelineLockEnqueueBelow(ctx, x.db, now)); err != nil {
		return nil, err
	}
	rows, err := x.q.ProcStateEnqueue(ctx, x.db, postgres.ProcStateEnqueueParams{Now: now, MsgIds: ids})
	if err != nil {
		return nil, interpret(err)
	}
	if err := t.Commit(ctx); err != nil {
		return nil, err
	}
	return enqueued(rows), nil
}

// enqueueAbove enqueues ids all new and above every known id by a plain
// insert (ProcStateEnqueueAbove), outside a transaction: a statement that
// fails on the primary key (another enqueuer inserted one of them since the
// check) has then written nothing, and the ids are enqueued the general way.
func (e executor) enqueueAbove(ctx context.Context, ids []int64, now time.Time) ([]store.Enqueued, error) {
	rows, err := e.q.ProcStateEnqueueAbove(ctx, e.db, postgres.ProcStateEnqueueAboveParams{Now: now, MsgIds: ids})
	if err = interpret(err); errors.Is(err, store.ErrDuplicate) {
		rows, err := e.q.ProcStateEnqueue(ctx, e.db, postgres.ProcStateEnqueueParams{Now: now, MsgIds: ids})
		return enqueued(rows), interpret(err)
	}
	return enqueued(rows), err
}

func enqueued[R postgres.ProcStateEnqueueRow | postgres.ProcStateEnqueueAboveRow](rows []R) []store.Enqueued {
	got := make([]store.Enqueued, len(rows))
	for i, r := range rows {
		row := postgres.ProcStateEnqueueRow(r)
		got[i] = store.Enqueued{ID: row.MsgID, LateAfter: row.LateAfter}
	}
	return got
}

func (e executor) QueueHead(ctx context.Context, max int) ([]vocab.QueueEntry, error) {
	rows, err := e.q.ProcStateListHead(ctx, e.db, int32(max))
	return messages(rows), interpret(err)
}

func (e executor) QueueRun(ctx context.Context, max int) ([]vocab.QueueEntry, int64, error) {
	rows, err := e.q.ProcStateListRun(ctx, e.db, int32(max))
	out := make([]vocab.QueueEntry, len(rows))
	var below int64
	for i, r := range rows {
		out[i] = vocab.QueueEntry{ID: r.MsgID, Status: r.Status, Attempts: int(r.Attempts), FirstSeenAt: r.FirstSeenAt,
			IdentityKey: deref(r.IdentityKey), ReplayCount: int(r.ReplayCount)}
		below = r.EnqueuedBelow
	}
	return out, below, interpret(err)
}

func (e executor) PendingAfter(ctx context.Context, after int64, max int) ([]int64, error) {
	ids, err := e.q.ProcStateListPendingAfter(ctx, e.db, postgres.ProcStateListPendingAfterParams{AfterMsgID: after, MaxRows: int32(max)})
	return ids, interpret(err)
}

func (e executor) Message(ctx context.Context, id int64) (vocab.QueueEntry, error) {
	row, err := e.q.ProcStateGet(ctx, e.db, id)
	if err == nil {
		return message(row), nil
	}
	if err = interpret(err); !errors.Is(err, store.ErrNotFound) {
		return vocab.QueueEntry{}, err
	}
	h, err := e.q.ProcStateHstGet(ctx, e.db, id)
	if err != nil {
		return vocab.QueueEntry{}, interpret(err)
	}
	return archived(h), nil
}

func (e executor) LockMessages(ctx context.Context, ids []int64) ([]vocab.QueueEntry, error) {
	rows, err := e.q.ProcStateGetManyForUpdate(ctx, e.db, ids)
	out := make([]vocab.QueueEntry, len(rows))
	for i, r := range rows {
		out[i] = vocab.QueueEntry{ID: r.MsgID, Status: r.Status, IdentityKey: deref(r.IdentityKey), ReplayCount: int(r.ReplayCount)}
	}
	return out, interpret(err)
}

func (e executor) IdentityHolders(ctx context.Context, keys []string) (map[string]vocab.Holder, error) {
	rows, err := e.q.ProcStateFindIdentities(ctx, e.db, keys)
	if err != nil {
		return nil, interpret(err)
	}
	holders := make(map[string]vocab.Holder, len(rows))
	for _, r := range rows {
		holders[r.IdentityKey] = vocab.Holder{MsgID: r.MsgID, Digest: r.RawDigest}
	}
	return holders, nil
}

// FinishMessages finishes every message in one statement: the rows travel
// as one array per column (queuearrays.go), one round trip for a whole run,
// binding those that carry a Bind in the same row write. A row not as its
// Read says is not updated: fewer ids back than sent is ErrStale.
func (e executor) FinishMessages(ctx context.Context, finishes []vocab.Finish) error {
	if len(finishes) == 0 {
		return nil
	}
	ids := make([]int64, len(finishes))
	for i, p := range finishes {
		ids[i] = p.MsgID
	}
	done, err := arrayQueries.ProcStateFinishMany(ctx, e.db, finishColumns(finishes))
	if err != nil {
		return interpret(err)
	}
	return allDone("finish", ids, done)
}

// allDone reports the messages a set-based update did not finish.
func allDone(what string, want, got []int64) error {
	if len(got) == len(want) {
		return nil
	}
	seen := make(map[int64]bool, len(got))
	for _, id := range got {
		seen[id] = true
	}
	var missing []int64
	for _, id := range want {
		if !seen[id] {
			missing = append(missing, id)
		}
	}
	return fmt.Errorf("%w: %s: messages %v are no longer as read", store.ErrStale, what, missing)
}

// RecordFailure: no row back means the message is no longer unfinished at
// the replay count read (ErrStale, as FinishMessages).
func (e executor) RecordFailure(ctx context.Context, p vocab.RecordFailureParams) (int, error) {
	params := postgres.ProcStateRecordFailureParams{
		ErrorClass:      nilIfEmpty(p.ErrorClass),
		Reason:          nilIfEmpty(p.Reason),
		NextAttemptAt:   &p.NextAttemptAt,
		Now:             p.Now,
		MsgID:           p.MsgID,
		ReadReplayCount: int32(p.ReplayCount),
	}
	if b := p.Bind; b != nil {
		params.Kind, params.MsgType, params.MsgSubtype = nilIfEmpty(b.Kind), nilIfEmpty(b.Meta.Type), nilIfEmpty(b.Meta.Styp)
		params.MetaSndr, params.MetaSeqn = nilIfEmpty(b.Meta.Sndr), b.Meta.Seqn
		params.MetaDttmRaw, params.MetaDttm = nilIfEmpty(b.Meta.DttmRaw), b.Meta.Dttm
	}
	attempts, err := e.q.ProcStateRecordFailure(ctx, e.db, params)
	if err = interpret(err); errors.Is(err, store.ErrNotFound) {
		return 0, store.StaleFailure(p)
	}
	return int(attempts), err
}

func (e executor) DeadLetters(ctx context.Context, p store.DeadLettersParams) ([]vocab.QueueEntry, error) {
	rows, err := e.q.ProcStateListDead(ctx, e.db, postgres.ProcStateListDeadParams{
		AfterMsgID: p.AfterID, ErrorClass: nilIfEmpty(p.Class), PageSize: int32(p.Limit),
	})
	return messages(rows), interpret(err)
}

func (e executor) QueueCounts(ctx context.Context) ([]store.StatusCount, error) {
	rows, err := e.q.ProcStateCountBacklogAndDead(ctx, e.db)
	out := make([]store.StatusCount, len(rows))
	for i, r := range rows {
		out[i] = store.StatusCount{Status: r.Status, ErrorClass: r.ErrorClass, Messages: r.Messages}
	}
	return out, interpret(err)
}

func messages(rows []postgres.ProcState) []vocab.QueueEntry {
	out := make([]vocab.QueueEntry, len(rows))
	for i, r := range rows {
		out[i] = message(r)
	}
	return out
}

func message(r postgres.ProcState) vocab.QueueEntry {
	return vocab.QueueEntry{
		ID:            r.MsgID,
		Status:        r.Status,
		IdentityKey:   deref(r.IdentityKey),
		Kind:          deref(r.Kind),
		Meta:          vocab.Meta{Sndr: deref(r.MetaSndr), Seqn: r.MetaSeqn, DttmRaw: deref(r.MetaDttmRaw), Dttm: r.MetaDttm, Type: deref(r.MsgType), Styp: deref(r.MsgSubtype)},
		Attempts:      int(r.Attempts),
		NextAttemptAt: r.NextAttemptAt,
		FirstSeenAt:   r.FirstSeenAt,
		FailingSince:  r.FailingSince,
		ErrorClass:    deref(r.ErrorClass),
		Reason:        deref(r.Reason),
		DuplicateOf:   r.DuplicateOf,
		ReplayCount:   int(r.ReplayCount),
		PrevClass:     deref(r.PrevErrorClass),
		PrevReason:    deref(r.PrevReason),
		FinishedAt:    r.FinishedAt,
		LateAfter:     r.LateAfter,
		Digest:        r.RawDigest,
	}
}

func archived(r postgres.ProcStateHst) vocab.QueueEntry {
	return vocab.QueueEntry{
		ID:          r.MsgID,
		Status:      r.Status,
		IdentityKey: deref(r.IdentityKey),
		Kind:        deref(r.Kind),
		Meta:        vocab.Meta{Sndr: deref(r.MetaSndr), Seqn: r.MetaSeqn, DttmRaw: deref(r.MetaDttmRaw), Dttm: r.MetaDttm, Type: deref(r.MsgType), Styp: deref(r.MsgSubtype)},
		Attempts:    int(r.Attempts),
		FirstSeenAt: r.FirstSeenAt,
		ErrorClass:  deref(r.ErrorClass),
		Reason:      deref(r.Reason),
		DuplicateOf: r.DuplicateOf,
		ReplayCount: int(r.ReplayCount),
		PrevClass:   deref(r.PrevErrorClass),
		PrevReason:  deref(r.PrevReason),
		FinishedAt:  r.FinishedAt,
		Archived:    true,
		LateAfter:   r.LateAfter,
		Digest:      r.RawDigest,
	}
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func nilIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
