package pipeline

import (
	"context"
	"errors"
	"maps"
	"strconv"
	"strings"
	"time"

	"github.com/msgx-aodb/msgx/internal/decode"
	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/store"
)

// prepared is one head message read and decoded outside the transaction.
type prepared struct {
	msg     store.Message
	decoded *sis.Message // nil when the raw row is missing or META unreadable
	err     error        // decode error (classified), or mailbox.ErrMissing
	size    int          // what it holds: its raw XML's bytes, or its decoded footprint when larger (budget.go)
}

// processRun processes a run of head messages. Reading the raw rows and
// decoding happen first, outside any transaction; while the run is
// processed, the next one is read ahead when the queue holds more. Then,
// from the head on:
//
//   - batch: a prefix of plain messages (flight operations, deletes, schedule
//     updates, ignored types) is computed in memory and written with a few
//     bulk statements in ONE transaction — the fast path;
//   - alone: a message the batch cannot take (decode failure, snapshot,
//     reference list, unsupported kind) is settled on its own in a short
//     transaction, and batching goes on behind it.
//
// Every transaction commits one batch or one message, so progress is
// committed however long the run. A message that fails holds the head: the
// run stops there. A batch that fails rolls back whole; the pump then halves
// its batches until the failing message is alone, so it fails on its own and
// everything before it commits.
func (p *Pump) processRun(ctx context.Context, heads []store.Message) error {
	run, read, err := p.prepare(ctx, heads)
	defer p.releaseMemory(read)
	if err != nil {
		return p.failHead(ctx, heads[0], err, nil)
	}
	// The queue holds more than this run: read the next one meanwhile, unless
	// the byte budget cut this one (large messages: one run in memory).
	if len(run) == p.cfg.RunLength {
		p.startReadAhead(ctx, run[len(run)-1].msg.ID)
	}
	for len(run) > 0 {
		n := min(batchable(run), p.batchLimit)
		if n < 2 {
			settled, err := p.commitAlone(ctx, &run[0])
			if err != nil || !settled {
				p.keep(run[1:])
				return err
			}
			run = run[1:]
		} else {
			if err := p.commitBatch(ctx, run[:n]); err != nil {
				p.keep(run)
				if errors.Is(err, errOvertaken) {
					p.log.Info("pump: a smaller id entered the queue ahead of the run; starting again from the new head", "run_from_msg_id", run[0].msg.ID)
					return nil
				}
				if up := p.notTheMessages(ctx, err); up != nil {
					return up // nothing to isolate
				}
				p.batchLimit = n / 2
				p.log.Warn("batch failed, retrying it in halves", "from_msg_id", run[0].msg.ID, "messages", n, "err", err)
				return nil
			}
			run = run[n:]
		}
		p.batchLimit = min(2*p.batchLimit, p.cfg.RunLength)
		if p.stopping(ctx) { // what is committed stays, the rest waits
			p.keep(run)
			return nil
		}
	}
	return nil
}

// prepare reads and decodes the runnable prefix of the heads: the first
// message (PENDING, or a FAILED head that is due) and the PENDING messages
// after it, as far as the byte budget allows (budget.go), taking what the
// read-ahead and the last step have and reading the rest. It also returns
// the bytes it read, and those of the read-ahead it took.
func (p *Pump) prepare(ctx context.Context, heads []store.Message) ([]prepared, int, error) {
	got, read := p.takeAhead()
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
	ids, fresh, n, err := p.readBudgeted(ctx, ids, got, true)
	read += n
	if err != nil {
		return nil, read, err
	}
	maps.Copy(got, fresh)
	run := make([]prepared, len(ids))
	for i, id := range ids {
		run[i] = got[id]
		run[i].msg = heads[i]
	}
	return run, read, nil
}

// readDecoded reads messages' raw XML in one round trip and decodes it in
// order while what it holds fits room (the first whatever its size); the
// messages after that are not in the result. A row missing from the mailbox
// is mailbox.ErrMissing. Each raw message is dropped once decoded.
func (p *Pump) readDecoded(ctx context.Context, ids []int64, room int) (map[int64]prepared, error) {
	raws, err := p.raw.ReadRaws(ctx, ids)
	if err != nil {
		return nil, err
	}
	got := make(map[int64]prepared, len(ids))
	used := 0
	for i, id := range ids {
		if i > 0 && used >= room {
			break
		}
		raw, ok := raws[id]
		if !ok {
			got[id] = prepared{err: mailbox.ErrMissing}
			continue
		}
		delete(raws, id)
		d, err := decode.Message(raw, p.cfg.Decode)
		pr := prepared{decoded: d, err: err, size: len(raw)}
		if d != nil {
			pr.size = max(pr.size, d.Footprint)
		}
		got[id] = pr
		used += pr.size
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
// once committed; settled is false when it failed instead (it holds the
// head). A failure binds what the message decoded to (kind, META), so it is
// kept for audit and backfilled when the message is exhausted.
func (p *Pump) commitAlone(ctx context.Context, pr *prepared) (settled bool, err error) {
	now := p.now()
	// This path writes flights without the state cache: forget what it touches.
	defer p.forget(pr)
	var (
		todos []store.Backfill
		out   *outcome
	)
	err = p.inTx(ctx, now, func(tx store.Tx) (err error) {
		todos, out, err = p.processOne(ctx, tx, pr, now)
		return err
	})
	if errors.Is(err, errOvertaken) {
		p.log.Info("pump: a smaller id entered the queue ahead of the run; starting again from the new head", "run_from_msg_id", pr.msg.ID)
		return false, nil
	}
	if err != nil {
		return false, p.failHead(ctx, pr.msg, err, failureBinding(pr.decoded))
	}
	if out != nil {
		p.finished(pr, *out, now)
	}
	p.afterCommit(ctx, todos)
	return true, nil
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

	if err := stillHead(ctx, sp, pr.msg.ID); err != nil {
		return nil, nil, err
	}
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
	if refusal(out) {
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

// errOvertaken: a smaller id entered the queue after the run was read
// (rule 16: a mailbox row committed late, a replay). The run is abandoned
// without effect and the next step starts from the new head.
var errOvertaken = errors.New("a smaller id entered the queue ahead of the run")

// stillHead re-checks, under PIPELINE_LOCK, that a run starting at id still
// starts at the smallest unfinished id. An enqueue of a smaller id takes
// that lock too (store.EnqueueNew), so a row enqueued before this check is
// seen here, and one enqueued after the commit finds this run finished: a
// late row.
func stillHead(ctx context.Context, ex store.Executor, id int64) error {
	heads, err := ex.QueueHead(ctx, 1)
	if err != nil {
		return err
	}
	if len(heads) > 0 && heads[0].ID < id {
		return errOvertaken
	}
	return nil
}

func unfinished(m store.Message) bool {
	return m.Status == store.StatusPending || m.Status == store.StatusFailed
}

// finished reports a committed terminal outcome to the log and the observer.
func (p *Pump) finished(pr *prepared, out outcome, now time.Time) {
	kind, identity := string(sis.KindUnknown), ""
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

// failureBinding is what a failing message binds: its kind and META, not
// its identity (nil when it did not decode).
func failureBinding(m *sis.Message) *store.Binding {
	if m == nil {
		return nil
	}
	return &store.Binding{Kind: string(m.Kind), Meta: metaOf(m)}
}

// bindingOf is what a decoded message binds: its identity, kind and META.
func bindingOf(m *sis.Message, meta store.Meta) store.Binding {
	return store.Binding{IdentityKey: m.Identity, Kind: string(m.Kind), Meta: meta}
}

func metaOf(m *sis.Message) store.Meta {
	if m == nil || m.Meta.Type == "" {
		return store.Meta{}
	}
	// Copies: the META outlives the message in backfill todos, and a
	// substring would keep the message's whole XML alive.
	meta := fitMeta(store.Meta{Sndr: strings.Clone(m.Meta.Sender), DttmRaw: strings.Clone(m.Meta.SentRaw),
		Type: strings.Clone(m.Meta.Type), Styp: strings.Clone(m.Meta.Subtype)})
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
