package pipeline

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"time"

	"github.com/msgx-aodb/msgx/internal/limits"
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

// processRun processes the head of the queue. Reading the raw rows and
// decoding happen first, outside any transaction. Then:
//
//   - batch: a prefix of plain messages (flight operations, deletes, schedule
//     updates, ignored types) is computed in memory and written with a few
//     bulk statements in ONE transaction — the fast path; while it commits,
//     the next run is read ahead when the queue holds more than one run;
//   - alone: a message the batch cannot take (decode failure, snapshot,
//     reference list, unsupported kind) is settled on its own in a short
//     transaction, and batching goes on with the next step.
//
// A batch that fails rolls back whole; the pump then halves its batches
// until the failing message is alone, so it fails on its own and everything
// before it commits. Each step commits what it did: a transaction never
// holds more than one batch, whatever the queue holds.
func (p *Pump) processRun(ctx context.Context, heads []store.Message) error {
	run, err := p.prepare(ctx, heads)
	if err != nil {
		return p.recordFailure(ctx, heads[0], classify(err))
	}
	n := min(batchable(run), p.batchLimit)
	if n < 2 {
		p.keep(run[1:])
		p.batchLimit = min(2*p.batchLimit, p.cfg.RunLength)
		return p.commitAlone(ctx, &run[0])
	}
	if n == len(heads) && n == p.cfg.RunLength {
		p.startReadAhead(ctx, heads[n-1].ID)
	}
	if err := p.commitBatch(ctx, run[:n]); err != nil {
		p.batchLimit = n / 2
		p.log.Warn("batch failed, retrying it in halves", "from_msg_id", run[0].msg.ID, "messages", n, "err", err)
		p.keep(run)
		return nil
	}
	p.batchLimit = min(2*p.batchLimit, p.cfg.RunLength)
	p.keep(run[n:])
	return nil
}

// prepare reads and decodes the runnable prefix of the heads: the first
// message (PENDING, or a FAILED head that is due) and the PENDING messages
// after it, taking what the read-ahead has and reading the rest in one round
// trip.
func (p *Pump) prepare(ctx context.Context, heads []store.Message) ([]prepared, error) {
	got := p.takeAhead()
	if got == nil {
		got = map[int64]prepared{}
	}
	maps.Copy(got, p.kept)
	p.kept = nil
	ids := []int64{heads[0].ID}
	for _, m := range heads[1:] {
		if m.Status != store.StatusPending {
			break
		}
		ids = append(ids, m.ID)
	}
	var missing []int64
	for _, id := range ids {
		if _, ok := got[id]; !ok {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		read, err := p.readDecoded(ctx, missing)
		if err != nil {
			return nil, fmt.Errorf("read raw messages from %d: %w", missing[0], err)
		}
		maps.Copy(got, read)
	}
	run := make([]prepared, len(ids))
	for i, id := range ids {
		run[i] = got[id]
		run[i].msg = heads[i]
	}
	return run, nil
}

// readDecoded reads messages' raw XML in one round trip and decodes it; a
// row missing from the mailbox is mailbox.ErrMissing.
func (p *Pump) readDecoded(ctx context.Context, ids []int64) (map[int64]prepared, error) {
	raws, err := p.raw.ReadRaws(ctx, ids)
	if err != nil {
		return nil, err
	}
	got := make(map[int64]prepared, len(ids))
	for _, id := range ids {
		raw, ok := raws[id]
		if !ok {
			got[id] = prepared{err: mailbox.ErrMissing}
			continue
		}
		d, err := limits.Decode(raw, p.cfg.Decode)
		got[id] = prepared{decoded: d, err: err}
	}
	return got, nil
}

// keep holds messages read and decoded but not processed by this step, so
// the next step does not read them again (a cache by message id, like the
// read-ahead: the next step still reads the queue head itself).
func (p *Pump) keep(rest []prepared) {
	if len(rest) == 0 {
		return
	}
	p.kept = make(map[int64]prepared, len(rest))
	for _, pr := range rest {
		p.kept[pr.msg.ID] = pr
	}
}

// commitAlone settles one message in its own transaction and reports it
// once committed.
func (p *Pump) commitAlone(ctx context.Context, pr *prepared) error {
	now := p.now()
	tx, err := p.store.Begin(ctx)
	if err != nil {
		return p.recordFailure(ctx, pr.msg, classify(err))
	}
	defer tx.Rollback(ctx)
	// This path writes flights without the state cache: forget what it touches.
	defer p.forget(pr)
	if err := tx.LockPipeline(ctx, now); err != nil {
		return p.recordFailure(ctx, pr.msg, classify(err))
	}
	todos, out, err := p.processOne(ctx, tx, pr, now)
	if err != nil {
		return p.recordFailure(ctx, pr.msg, classify(err))
	}
	if err := tx.Commit(ctx); err != nil {
		return p.recordFailure(ctx, pr.msg, classify(err))
	}
	if out != nil {
		p.finished(pr, *out, now)
	}
	p.afterCommit(ctx, todos)
	return nil
}

// forget drops from the state cache the flights a message alone may have
// written: those it names, or every one after a snapshot (its prune reaches
// flights it does not name).
func (p *Pump) forget(pr *prepared) {
	if pr.decoded == nil {
		return
	}
	if pr.decoded.Kind == sis.KindSchedule && pr.decoded.Schedule.Snapshot() {
		p.cache.clear()
		return
	}
	p.cache.forget(messageFLIDs(pr.decoded))
}

// processOne is the business transaction of one message inside a savepoint:
// re-check, bind identity, dispatch, finish. It returns the backfill todos it
// registered and its outcome (nil: the message was no longer unfinished). An
// error means a retryable failure: the savepoint is rolled back and nothing
// of the message is written.
func (p *Pump) processOne(ctx context.Context, tx store.Tx, pr *prepared, now time.Time) ([]store.Backfill, *outcome, error) {
	sp, err := tx.Begin(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer sp.Rollback(ctx)

	// Re-check under the lock: another instance or a replay may have moved it.
	locked, err := sp.LockMessages(ctx, []int64{pr.msg.ID})
	if err != nil {
		return nil, nil, err
	}
	if len(locked) == 0 || !unfinished(locked[0]) {
		return nil, nil, sp.Commit(ctx)
	}
	m := locked[0]

	out, meta, bind, err := p.decide(ctx, sp, m, pr, now)
	if err != nil {
		return nil, nil, err
	}
	if out.status == store.StatusDead && out.class == sis.ClassProtocol {
		// A refused message writes nothing: undo whatever dispatch began.
		if err := sp.Rollback(ctx); err != nil {
			return nil, nil, err
		}
		if sp, err = tx.Begin(ctx); err != nil {
			return nil, nil, err
		}
		defer sp.Rollback(ctx)
	}
	w := p.newWriter()
	w.finish(m, meta, out, bind, now)
	if err := w.flush(ctx, sp, now); err != nil {
		return nil, nil, err
	}
	if err := sp.Commit(ctx); err != nil {
		return nil, nil, err
	}
	return w.todos, &out, nil
}

// decide turns a prepared message into its outcome, writing its business
// effect through ex, and says what the terminal write still binds (a
// duplicate's identity, kind and META; nil when bound already or nothing to
// bind). Terminal decode errors are outcomes; retryable ones are returned as
// errors.
func (p *Pump) decide(ctx context.Context, ex store.Executor, m store.Message, pr *prepared, now time.Time) (outcome, store.Meta, *store.Binding, error) {
	meta := metaOf(pr.decoded)
	if out, retry := decodeOutcome(pr); out.status != "" || retry != nil {
		return out, meta, nil, retry
	}
	msg := pr.decoded
	holders, err := ex.IdentityHolders(ctx, []string{msg.Identity})
	if err != nil {
		return outcome{}, meta, nil, err
	}
	b := bindingOf(msg, meta)
	if h, ok := holders[msg.Identity]; ok && h != m.ID {
		return duplicateOf(h), meta, &b, nil
	}
	if err := ex.BindIdentities(ctx, []store.BindIdentity{{MsgID: m.ID, Binding: b, Now: now}}); err != nil {
		return outcome{}, meta, nil, err
	}
	out, err := p.dispatch(ctx, ex, m.ID, msg, now)
	return out, meta, nil, err
}

// decodeOutcome: a missing raw row or a MALFORMED/PROTOCOL message is a
// terminal outcome; other decode errors are retryable failures.
func decodeOutcome(pr *prepared) (outcome, error) {
	switch {
	case errors.Is(pr.err, mailbox.ErrMissing):
		return dead(sis.ClassMalformed, "raw message missing from the mailbox"), nil
	case pr.err != nil:
		f := classify(pr.err)
		if f.class != sis.ClassMalformed && f.class != sis.ClassProtocol {
			return outcome{}, f
		}
		return dead(f.class, f.reason), nil
	}
	return outcome{}, nil
}

// duplicateOf is a message whose identity another message holds. It binds
// that identity too (the holders' uniqueness leaves duplicates out), so
// operators see what it repeated.
func duplicateOf(holder int64) outcome {
	return outcome{status: store.StatusSkipped, reason: "duplicate-of:" + strconv.FormatInt(holder, 10), duplicateOf: &holder}
}

func unfinished(m store.Message) bool {
	return m.Status == store.StatusPending || m.Status == store.StatusFailed
}

// finished reports a committed terminal outcome to the log and the observer.
func (p *Pump) finished(pr *prepared, out outcome, now time.Time) {
	kind, identity := "UNKNOWN", ""
	if pr.decoded != nil {
		kind, identity = string(pr.decoded.Kind), pr.decoded.Identity
	}
	attrs := []any{"msg_id", pr.msg.ID, "kind", kind, "identity", identity, "status", out.status}
	if out.class != "" {
		attrs = append(attrs, "class", out.class)
	}
	if out.reason != "" {
		attrs = append(attrs, "reason", out.reason)
	}
	if out.duplicateOf != nil {
		attrs = append(attrs, "duplicate_of", *out.duplicateOf)
	}
	p.log.Info("message processed", attrs...)
	if p.cfg.Observer != nil {
		p.cfg.Observer.MessageFinished(kind, out.status, string(out.class), now.Sub(pr.msg.FirstSeenAt))
	}
	p.countResp(out)
}

// bindingOf is what a decoded message binds: its identity, kind and META.
func bindingOf(m *sis.Message, meta store.Meta) store.Binding {
	return store.Binding{IdentityKey: m.Identity, Kind: string(m.Kind), Meta: meta}
}

func metaOf(m *sis.Message) store.Meta {
	if m == nil || m.Meta.Type == "" {
		return store.Meta{}
	}
	meta := fitMeta(store.Meta{Sndr: m.Meta.Sender, DttmRaw: m.Meta.SentRaw, Type: m.Meta.Type, Styp: m.Meta.Subtype})
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
