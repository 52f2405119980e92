package pump

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/msgx-aodb/msgx/internal/apply"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// processRun processes a run of head messages. Reading the raw rows and
// decoding happen first, outside any transaction (read.go); while the run is
// processed, the next one is read ahead when the queue holds more. Then,
// from the head on:
//
//   - batch: a prefix of messages apply.CanBatch takes (flight operations,
//     deletes, schedule updates, ignored types, decode refusals) is computed
//     in memory and written with a few bulk statements in ONE transaction —
//     the fast path;
//   - alone: a message the batch cannot take (retryable decode failure,
//     snapshot, reference list, unsupported kind, very many records) is
//     settled on its own in a short transaction, and batching goes on
//     behind it.
//
// Every transaction commits one batch or one message, so progress is
// committed however long the run. A message that fails holds the head: the
// run stops there. A batch that fails rolls back whole; the pump then halves
// its batches until the failing message is alone, so it fails on its own and
// everything before it commits.
func (p *Pump) processRun(ctx, life context.Context, st *runState, heads []vocab.QueueEntry, below int64) (stepKind, error) {
	run, read, err := p.prepare(ctx, st, heads)
	defer p.releaseMemory(read)
	if err != nil {
		return p.failHead(ctx, heads[0], err, nil)
	}
	// The queue holds more than this run: read the next one meanwhile, unless
	// the byte budget cut this one (large messages: one run in memory).
	if len(run) == p.cfg.RunLength {
		p.startReadAhead(ctx, life, st, run[len(run)-1].Msg.ID)
	}
	for len(run) > 0 {
		n := min(batchable(run), st.batchLimit)
		if n < 2 {
			kind, err := p.commitAlone(ctx, st, &run[0])
			if err != nil || kind != committed {
				st.keep(run[1:])
				return kind, err
			}
			run = run[1:]
		} else {
			if err := p.commitBatch(ctx, st, run[:n], below); err != nil {
				st.keep(run)
				if errors.Is(err, errOvertaken) {
					p.logOvertaken(run[0].Msg.ID)
					return overtaken, nil
				}
				// Not the batch's fault: read again, no halving. The same
				// batch stale twice in a row is halved all the same, down to
				// a message settled alone under its row lock, so a check that
				// could never pass (a bug) cannot keep the pump spinning.
				if errors.Is(err, errStale) && st.staleFrom != run[0].Msg.ID {
					st.staleFrom = run[0].Msg.ID
					p.logStale(run[0].Msg.ID, err)
					return stale, nil
				}
				if up := p.outageOrShutdown(ctx, err); up != nil {
					return failed, up // nothing to isolate
				}
				st.batchLimit = n / 2
				p.log.Warn("batch failed, retrying it in halves", "from_msg_id", run[0].Msg.ID, "messages", n, "err", err)
				return halved, nil
			}
			run = run[n:]
		}
		st.batchLimit = min(2*st.batchLimit, p.cfg.RunLength)
		if shuttingDown(ctx, life) { // what is committed stays, the rest waits
			st.keep(run)
			return stopping, nil
		}
	}
	return committed, nil
}

func (p *Pump) logOvertaken(from int64) {
	p.log.Info("pump: an id entered the queue ahead of or inside the run; starting again from a fresh read", "run_from_msg_id", from)
}

func (p *Pump) logStale(from int64, err error) {
	p.log.Info("pump: a message of the run changed after it was read (a replay?); starting again from a fresh read", "run_from_msg_id", from, "err", err)
}

// batchable is the length of the run's prefix the fast path can take.
func batchable(run []prepared) int {
	for i := range run {
		if !apply.CanBatch(&run[i].Input) {
			return i
		}
	}
	return len(run)
}

// commitAlone settles one message in its own transaction, inside a
// savepoint, and reports it once committed; failed when it failed instead
// (recorded: it holds the head), stale when a replay since the read made its
// failure stale, overtaken when a smaller id came first. A
// failure binds what the message decoded to (kind, META), so it is kept for
// audit and backfilled when the message is exhausted. The states it
// committed go to the state cache, as a batch's do: a download's flights
// are then not read again by the messages after it, nor by its resend.
func (p *Pump) commitAlone(ctx context.Context, st *runState, pr *prepared) (stepKind, error) {
	now := p.now()
	var (
		res     *apply.Result
		written []vocab.FlightWrite
	)
	err := p.inTx(ctx, now, func(tx store.Tx, _ int64) (err error) {
		res, written, err = p.settle(ctx, tx, st.cache, pr, now)
		return err
	})
	if errors.Is(err, errOvertaken) {
		p.logOvertaken(pr.Msg.ID)
		return overtaken, nil
	}
	if err != nil {
		return p.failHead(ctx, pr.Msg, err, apply.FailureBinding(pr.Decoded))
	}
	if res != nil {
		st.cache.committed(written, now, func(int64) bool { return pr.size >= pinBytes })
		p.finished(pr, res.Outcome, now)
		p.afterCommit(ctx, res.Final.Backfills)
	}
	return committed, nil
}

// settle is the transaction of one message: re-check the head under the
// lock, apply the message in a savepoint (reading its flights through the
// state cache), write its final status. It returns nil when the message
// was no longer unfinished, and the flight states it wrote: the first
// maxCachedStates of them, as many as the cache keeps (a download of tens
// of thousands of flights is written in slices, so as not to hold them all).
// An error means a retryable failure: the savepoint is rolled back and
// nothing of the message is written.
func (p *Pump) settle(ctx context.Context, tx store.Tx, cache *stateCache, pr *prepared, now time.Time) (*apply.Result, []vocab.FlightWrite, error) {
	sp, err := tx.Begin(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer sp.Rollback(ctx)
	if err := stillHead(ctx, sp, pr.Msg.ID); err != nil {
		return nil, nil, err
	}
	// Re-check under the lock: another instance or a replay may have moved it.
	locked, err := sp.LockMessages(ctx, []int64{pr.Msg.ID})
	if err != nil {
		return nil, nil, err
	}
	if len(locked) == 0 || !unfinished(locked[0]) {
		return nil, nil, sp.Commit(ctx)
	}
	in := pr.Input
	in.Msg = locked[0]
	var written []vocab.FlightWrite
	res, err := p.apply.One(ctx, txReader{sp, p.cfg.Guard, cache}, in, now, func(w *apply.Writes) error {
		written = append(written, w.Flights[:min(len(w.Flights), maxCachedStates-len(written))]...)
		return write(ctx, sp, w, now, p.cfg.Shadow)
	})
	if err != nil {
		return nil, nil, err
	}
	if res.Discard { // undo what it began; Final is all it writes
		written = nil
		if err := sp.Rollback(ctx); err != nil {
			return nil, nil, err
		}
		if sp, err = tx.Begin(ctx); err != nil {
			return nil, nil, err
		}
		defer sp.Rollback(ctx)
	}
	if err := write(ctx, sp, res.Final, now, p.cfg.Shadow); err != nil {
		return nil, nil, err
	}
	return &res, written, sp.Commit(ctx)
}

// errStale: a message of the batch changed after the step read it (a
// replay, another writer): its finish found the row no longer as read
// (store.ErrStale). The batch rolls back whole and the next step starts
// again from a fresh read.
var errStale = errors.New("a message of the batch is no longer as read")

// commitBatch is the fast path: one transaction, every message computed in
// memory in order (apply.Batch) over the flights read once, then written
// with one statement (or pgx batch) per table. Any error rolls the whole
// batch back and the caller retries it in halves, so a failure still lands
// on exactly the message that caused it. below is the count of enqueues
// below the largest known id read with the run (store.QueueRun).
func (p *Pump) commitBatch(ctx context.Context, st *runState, run []prepared, below int64) error {
	now := p.now()
	var (
		w    *apply.Writes
		outs []apply.Outcome
	)
	err := p.inTx(ctx, now, func(tx store.Tx, locked int64) (err error) {
		if locked != below {
			return errOvertaken
		}
		w, outs, err = p.applyBatch(ctx, tx, st, run, now)
		return err
	})
	if err != nil {
		return err
	}
	st.cache.committed(w.Flights, now, pinning(run))
	for i := range run {
		p.finished(&run[i], outs[i], now)
	}
	p.afterCommit(ctx, w.Backfills)
	return nil
}

// applyBatch is the batch's transaction: re-check the head, read the
// messages' identities' holders and their flights (through the state
// cache), apply, write. It locks no message row: each message is applied as
// the step read it (QueueRun: status, identity bound, replay count), and
// its finish writes it only while it is still so (vocab.Finish.Read); a
// message changed meanwhile fails the batch with errStale.
func (p *Pump) applyBatch(ctx context.Context, tx store.Tx, st *runState, run []prepared, now time.Time) (*apply.Writes, []apply.Outcome, error) {
	ins := slices.Grow(st.inputs[:0], len(run))[:len(run)]
	st.inputs = ins
	defer clear(ins)
	for i := range run {
		ins[i] = run[i].Input
	}
	if err := stillHead(ctx, tx, ins[0].Msg.ID); err != nil {
		return nil, nil, err
	}
	identities, flids := apply.Needs(ins)
	holders, err := tx.IdentityHolders(ctx, identities)
	if err != nil {
		return nil, nil, err
	}
	states, err := st.cache.states(ctx, tx, flids)
	if err != nil {
		return nil, nil, err
	}
	w, outs, err := p.apply.Batch(ins, holders, states, now)
	if err != nil {
		return nil, nil, err
	}
	if err := write(ctx, tx, w, now, p.cfg.Shadow); err != nil {
		if errors.Is(err, store.ErrStale) {
			return nil, nil, fmt.Errorf("%w: %w", errStale, err)
		}
		return nil, nil, err
	}
	return w, outs, nil
}

// errOvertaken: an id entered the queue ahead of the run after it was read
// (rule 16: a mailbox row committed late, a replay; stillHead), or may have
// entered inside its range (a late row between two of its ids: the count of
// enqueues below the largest known id changed since the read, commitBatch).
// The run is abandoned without effect and the next step reads again: the
// late id is then in its run in order, or late (rule 17) when a larger id
// finished before it was enqueued.
var errOvertaken = errors.New("an id entered the queue ahead of or inside the run")

// stillHead re-checks, under PIPELINE_LOCK, that a run starting at id still
// starts at the smallest unfinished id. An enqueue of a smaller id takes
// that lock too (store.EnqueueNew), so a row enqueued before this check is
// seen here, and one enqueued after the commit finds this run finished: a
// late row. A batch also compares the lock's count of such enqueues with
// its run's (commitBatch): an id enqueued inside the run's range is not
// below its head. A message settled alone needs only this check: the run's
// ids before it are committed.
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

func unfinished(m vocab.QueueEntry) bool {
	return m.Status == vocab.StatusPending || m.Status == vocab.StatusFailed
}

// finished reports a committed terminal outcome to the log and the observer.
func (p *Pump) finished(pr *prepared, out apply.Outcome, now time.Time) {
	kind, identity := string(sis.KindUnknown), ""
	if pr.Decoded != nil {
		kind, identity = string(pr.Decoded.Kind), pr.Decoded.Identity
	}
	// Typed attributes in an array on the stack: a line per message, with
	// nothing boxed or allocated unless the handler keeps it.
	var buf [7]slog.Attr
	attrs := append(buf[:0], slog.Int64("msg_id", pr.Msg.ID), slog.String("kind", kind), slog.String("identity", identity), slog.String("status", out.Status))
	if out.Class != "" {
		attrs = append(attrs, slog.String("class", string(out.Class)))
	}
	if out.Reason != "" {
		attrs = append(attrs, slog.String("reason", out.Reason))
	}
	if out.DuplicateOf != nil {
		attrs = append(attrs, slog.Int64("duplicate_of", *out.DuplicateOf))
	}
	p.log.LogAttrs(context.Background(), slog.LevelInfo, "message processed", attrs...)
	if out.Conflict {
		// Rule 2: a reused identity is never silent.
		p.log.Warn("identity reused with other content: skipped as a duplicate; weigh identity.include-day-boundary",
			"msg_id", pr.Msg.ID, "holder", *out.DuplicateOf, "identity", identity)
	}
	if p.cfg.Observer == nil {
		return
	}
	if o, ok := p.cfg.Observer.(IdentityObserver); ok && out.Conflict {
		o.IdentityConflict()
	}
	p.cfg.Observer.MessageFinished(kind, out.Status, string(out.Class), now.Sub(pr.Msg.FirstSeenAt))
	if o, ok := p.cfg.Observer.(RequestObserver); ok {
		switch out.Resp {
		case apply.RespUnmatched:
			o.RespUnmatched()
		case apply.RespMatched:
			o.RespMatched()
		}
	}
}

// IdentityObserver is the optional part of an Observer that counts
// identity conflicts (rule 2; internal/metrics implements it).
type IdentityObserver interface {
	IdentityConflict()
}

// RequestObserver is the optional part of an Observer that counts RESPs
// (internal/metrics implements it).
type RequestObserver interface {
	RespMatched()
	RespUnmatched()
}
