package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/store"
)

// prepared is one head message read and decoded outside the transaction.
type prepared struct {
	msg     store.Message
	decoded *sis.Message // nil when the raw row is missing or META unreadable
	err     error        // decode error (classified), or mailbox.ErrMissing
}

// processRun processes consecutive head messages in ONE transaction, each in
// its own savepoint, so the commit is shared but every message stays
// all-or-nothing. The run stops at the first message that fails: it is the
// new head and nothing may pass it. Reading the raw rows and decoding happen
// before the transaction, so no lock is held across mailbox I/O.
func (p *Pump) processRun(ctx context.Context, heads []store.Message) error {
	run, readErr := p.prepare(ctx, heads)
	if len(run) == 0 {
		return p.recordFailure(ctx, heads[0], classify(readErr))
	}

	now := p.clock.Now()
	var (
		todos   []store.Backfill
		failed  *store.Message
		failErr *failure
	)
	tx, err := p.store.Begin(ctx)
	if err != nil {
		return p.recordFailure(ctx, run[0].msg, classify(err))
	}
	defer tx.Rollback(ctx)
	if err := tx.LockPipeline(ctx, now); err != nil {
		return p.recordFailure(ctx, run[0].msg, classify(err))
	}
	for i := range run {
		todo, err := p.processOne(ctx, tx, &run[i], now)
		if err != nil {
			failed, failErr = &run[i].msg, classify(err)
			break
		}
		todos = append(todos, todo...)
	}
	if err := tx.Commit(ctx); err != nil {
		// Nothing of the run is committed: the head failed, the rest waits.
		return p.recordFailure(ctx, run[0].msg, classify(err))
	}
	p.runBackfill(ctx, todos)
	if failed != nil {
		return p.recordFailure(ctx, *failed, failErr)
	}
	if readErr != nil && len(run) < len(heads) {
		return p.recordFailure(ctx, heads[len(run)], classify(readErr))
	}
	return nil
}

// prepare reads and decodes the runnable prefix of the heads: the first
// message (PENDING, or a FAILED head that is due) and the PENDING messages
// after it. A mailbox read failure ends the prefix; it is returned so the
// message it hit can be failed once the messages before it are done.
func (p *Pump) prepare(ctx context.Context, heads []store.Message) ([]prepared, error) {
	run := make([]prepared, 0, len(heads))
	for i, m := range heads {
		if i > 0 && m.Status != store.StatusPending {
			break
		}
		raw, err := p.raw.ReadRaw(ctx, m.ID)
		if err != nil && !errors.Is(err, mailbox.ErrMissing) {
			return run, fmt.Errorf("read raw message %d: %w", m.ID, err)
		}
		pr := prepared{msg: m, err: err}
		if err == nil {
			pr.decoded, pr.err = sis.Decode(raw, p.cfg.Decode)
		}
		run = append(run, pr)
	}
	return run, nil
}

// processOne is the business transaction of one message, inside the run's
// transaction: re-check, bind identity, dispatch, finish. It returns the
// backfill todo it registered. An error means a retryable failure: the
// savepoint is rolled back and nothing of the message is written.
func (p *Pump) processOne(ctx context.Context, tx store.Tx, pr *prepared, now time.Time) ([]store.Backfill, error) {
	sp, err := tx.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer sp.Rollback(ctx)

	// Re-check under the lock: another instance or a replay may have moved it.
	m, err := sp.LockMessage(ctx, pr.msg.ID)
	if err != nil {
		return nil, err
	}
	if m.Status != store.StatusPending && m.Status != store.StatusFailed {
		return nil, sp.Commit(ctx)
	}

	out, meta, err := p.decide(ctx, sp, m, pr, now)
	if err != nil {
		return nil, err
	}
	if out.status == store.StatusDead && out.class == sis.ClassProtocol {
		// A refused message writes nothing: undo whatever dispatch began.
		if err := sp.Rollback(ctx); err != nil {
			return nil, err
		}
		if sp, err = tx.Begin(ctx); err != nil {
			return nil, err
		}
		defer sp.Rollback(ctx)
	}
	todos, err := p.finish(ctx, sp, m, meta, out, now)
	if err != nil {
		return nil, err
	}
	if err := sp.Commit(ctx); err != nil {
		return nil, err
	}
	p.log.Info("message processed", "msg_id", m.ID, "status", out.status, "class", out.class, "reason", out.reason)
	return todos, nil
}

// decide turns a prepared message into its outcome, writing its business
// effect through ex. Terminal decode errors are outcomes; retryable ones are
// returned as errors.
func (p *Pump) decide(ctx context.Context, ex store.Executor, m store.Message, pr *prepared, now time.Time) (outcome, store.Meta, error) {
	meta := metaOf(pr.decoded)
	switch {
	case errors.Is(pr.err, mailbox.ErrMissing):
		return dead(sis.ClassMalformed, "raw message missing from the mailbox"), meta, nil
	case pr.err != nil:
		f := classify(pr.err)
		if f.class != sis.ClassMalformed && f.class != sis.ClassProtocol {
			return outcome{}, meta, f
		}
		return dead(f.class, f.reason), meta, nil
	}

	msg := pr.decoded
	holder, err := ex.IdentityHolder(ctx, msg.Identity)
	switch {
	case err == nil && holder != m.ID:
		return outcome{status: store.StatusSkipped, reason: "duplicate-of:" + strconv.FormatInt(holder, 10), duplicateOf: &holder}, meta, nil
	case err != nil && !errors.Is(err, store.ErrNotFound):
		return outcome{}, meta, err
	}
	if err := ex.BindIdentity(ctx, store.BindIdentity{MsgID: m.ID, IdentityKey: msg.Identity, Kind: string(msg.Kind), Meta: meta, Now: now}); err != nil {
		return outcome{}, meta, err
	}
	out, err := p.dispatch(ctx, ex, m.ID, msg, now)
	return out, meta, err
}

// finish records the terminal status and, when META is known, the mailbox
// backfill todo — in the same transaction as the business effect.
func (p *Pump) finish(ctx context.Context, ex store.Executor, m store.Message, meta store.Meta, out outcome, now time.Time) ([]store.Backfill, error) {
	if out.status == store.StatusDead && meta.Type != "" && m.IdentityKey == "" {
		// Keep the META of a refused message for audit; it binds no identity.
		if err := ex.BindIdentity(ctx, store.BindIdentity{MsgID: m.ID, Meta: meta, Now: now}); err != nil {
			return nil, err
		}
	}
	if err := ex.Finish(ctx, store.Finish{
		MsgID: m.ID, Status: out.status, ErrorClass: string(out.class),
		Reason: truncate(out.reason), DuplicateOf: out.duplicateOf, Now: now,
	}); err != nil {
		return nil, err
	}
	if meta.Type == "" {
		return nil, nil // no decoded META: nothing to backfill (dead letter without META)
	}
	todo := store.Backfill{MsgID: m.ID, MailboxStatus: out.status, ProcessedAt: now, Meta: meta, NextAttemptAt: now}
	if err := ex.AddBackfill(ctx, todo); err != nil {
		return nil, err
	}
	return []store.Backfill{todo}, nil
}

func metaOf(m *sis.Message) store.Meta {
	if m == nil || m.Meta.Type == "" {
		return store.Meta{}
	}
	meta := store.Meta{Sndr: m.Meta.Sender, DttmRaw: m.Meta.SentRaw, Type: m.Meta.Type, Styp: m.Meta.Subtype}
	if m.Identity != "" { // SNDR, STYP and SEQN were valid
		seq := m.Meta.Seq
		meta.Seqn = &seq
	}
	if !m.Meta.Sent.IsZero() {
		sent := m.Meta.Sent
		meta.Dttm = &sent
	}
	return meta
}
