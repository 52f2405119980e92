package pipeline

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/widths"
)

// batchable is the length of the run's prefix the fast path can take:
// decoded messages whose effect is computed from the flights they name
// alone, and messages refused at decode (MALFORMED, PROTOCOL: settled DEAD,
// nothing to compute). Snapshots (they read generations and prune
// candidates), reference lists, retryable decode failures, unsupported
// kinds and messages of more than sliceRecords records (applied a slice at a
// time) are settled alone — RESPs among them, since the request guard reads
// and completes REQ_TRACK in their transaction.
func batchable(run []prepared) int {
	for i := range run {
		pr := &run[i]
		if pr.err != nil || pr.decoded == nil {
			if out, retry := decodeOutcome(pr); out.status == "" || retry != nil {
				return i
			}
			continue
		}
		if recordCount(pr.decoded) > sliceRecords {
			return i
		}
		switch m := pr.decoded; m.Kind {
		case sis.KindFlightOps, sis.KindFlightDelete, sis.KindIgnored:
		case sis.KindSchedule:
			if m.Schedule.Snapshot() {
				return i
			}
		default:
			return i
		}
	}
	return len(run)
}

var errStale = errors.New("a message of the batch is no longer unfinished")

// commitBatch is the fast path: one transaction, every message computed in
// memory in order over the flights read once, then written with one
// statement (or pgx batch) per table. Any error rolls the whole batch back
// and the caller retries it in halves, so a failure still lands on exactly
// the message that caused it.
func (p *Pump) commitBatch(ctx context.Context, run []prepared) error {
	now := p.now()
	ids := make([]int64, len(run))
	var keys []string
	var flids []int64
	for i, pr := range run {
		ids[i] = pr.msg.ID
		if pr.decoded != nil && pr.err == nil {
			keys = append(keys, pr.decoded.Identity)
			flids = append(flids, messageFLIDs(pr.decoded)...)
		}
	}

	tx, err := p.store.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if err := tx.LockPipeline(ctx, now); err != nil {
		return err
	}
	if err := stillHead(ctx, tx, ids[0]); err != nil {
		return err
	}
	locked, err := tx.LockMessages(ctx, ids)
	if err != nil {
		return err
	}
	if len(locked) != len(run) {
		return errStale
	}
	for _, m := range locked {
		if !unfinished(m) {
			return errStale
		}
	}
	holders, err := tx.IdentityHolders(ctx, keys)
	if err != nil {
		return err
	}
	states, err := p.cache.states(ctx, tx, flids)
	if err != nil {
		return err
	}

	w := p.newWriter()
	outs := make([]outcome, len(run))
	for i := range run {
		pr := &run[i]
		m, msg, meta := locked[i], pr.decoded, metaOf(pr.decoded)
		if out, _ := decodeOutcome(pr); out.status != "" { // refused at decode: nothing to compute
			outs[i] = out
			w.finish(m, meta, out, nil, now)
			continue
		}
		var bind *store.Binding
		if h, ok := holders[msg.Identity]; ok && h != m.ID {
			outs[i] = duplicateOf(h) // held before, or by an earlier message of this batch
			b := bindingOf(msg, meta)
			bind = &b
		} else {
			overlay := overlayOf(states)
			out, results := compute(msg, overlay, m.ID, now)
			if !refusal(out) {
				tooLarge, err := w.addResults(m.ID, results, now)
				if err != nil {
					return err
				}
				if tooLarge != "" {
					out = dead(sis.ClassProtocol, tooLarge)
				}
			}
			if !refusal(out) {
				holders[msg.Identity] = m.ID
				b := bindingOf(msg, meta)
				bind = &b
				overlay.merge()
			}
			outs[i] = out
		}
		w.finish(m, meta, outs[i], bind, now)
	}
	if err := w.flush(ctx, tx, now); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return err
	}
	p.cache.committed(w.writes, now)
	p.cache.forget(pinningFLIDs(run))
	for i := range run {
		p.finished(&run[i], outs[i], now)
	}
	p.afterCommit(ctx, w.todos)
	return nil
}

// newWriter returns a writer for one transaction's messages.
func (p *Pump) newWriter() batchWriter {
	return batchWriter{shadow: p.cfg.Shadow, limit: recordLimit{max: p.cfg.MaxRecordBytes, size: p.cfg.EventBytes}}
}

// batchWriter collects the writes of one or more messages and sends each
// kind in one statement or pgx batch: flight rows and collections, events,
// terminal statuses with their bindings, backfill todos.
type batchWriter struct {
	shadow   bool // shadow mode: no outbox events, no mailbox backfill
	limit    recordLimit
	writes   []store.FlightWrite
	byFLID   map[int64]int // index into writes: a flight changed twice is written once, last state
	events   []store.NewEvent
	finishes []store.Finish
	todos    []store.Backfill
}

// addResults queues a message's flight results: the row (final state, every
// replaced collection with the version that last replaced it) and, per
// changed flight, one event per target built from the state of that message
// (rule 7). A message with an event over the record limit is refused: it
// queues nothing and the refusal's reason is returned.
func (w *batchWriter) addResults(msgID int64, results []flight.Result, now time.Time) (tooLarge string, err error) {
	var events []store.NewEvent
	if !w.shadow {
		if events, tooLarge, err = messageEvents(msgID, results, now, w.limit); err != nil || tooLarge != "" {
			return tooLarge, err
		}
	}
	if w.byFLID == nil {
		w.byFLID = map[int64]int{}
	}
	for _, r := range results {
		if !r.Write {
			continue
		}
		if i, ok := w.byFLID[r.Next.FLID]; ok {
			w.writes[i].State = r.Next
			w.writes[i].Changes = w.writes[i].Changes.Merge(r.Changes)
		} else {
			w.byFLID[r.Next.FLID] = len(w.writes)
			w.writes = append(w.writes, store.FlightWrite{State: r.Next, Changes: r.Changes, New: r.Created})
		}
	}
	w.events = append(w.events, events...)
	return "", nil
}

// finish queues the terminal status with the message's binding (nil: bound
// before, or nothing to bind) and the mailbox backfill todo. A refused
// message keeps its META for audit but binds no identity.
func (w *batchWriter) finish(m store.Message, meta store.Meta, out outcome, bind *store.Binding, now time.Time) {
	if bind == nil && out.status == store.StatusDead && metaKnown(meta) && m.IdentityKey == "" {
		bind = &store.Binding{Meta: meta}
	}
	w.finishes = append(w.finishes, store.Finish{
		MsgID: m.ID, Status: out.status, ErrorClass: string(out.class),
		Reason: widths.Reason.Cut(out.reason), DuplicateOf: out.duplicateOf, Bind: bind, Now: now,
	})
	// Every terminal message is backfilled: the AODB sees it read, with the
	// META columns where META decoded (a MALFORMED row gets only its status).
	// A replayed message may have been backfilled DEAD before: its new
	// outcome overwrites that backfill, msgx's own (rule 18).
	if !w.shadow {
		todo := store.Backfill{MsgID: m.ID, MailboxStatus: out.status, ProcessedAt: now, Meta: meta, NextAttemptAt: now}
		if m.ReplayCount > 0 {
			todo.OverwritesStatus = store.StatusDead
		}
		w.todos = append(w.todos, todo)
	}
}

// flushChunk is the most flights, or events, one write statement carries:
// a statement's rows are built in memory whole (a copy of every state's
// columns, of every event's payload), so a download of 38 000 flights is
// written in slices rather than doubling what its run holds. Each flight is
// written once either way (addResults merges a flight changed twice).
const flushChunk = 1000

// flush writes everything queued, flights before the events and statuses
// that refer to them.
func (w *batchWriter) flush(ctx context.Context, ex store.Executor, now time.Time) error {
	for writes := range slices.Chunk(w.writes, flushChunk) {
		if err := ex.WriteFlights(ctx, writes, now); err != nil {
			return err
		}
	}
	for events := range slices.Chunk(w.events, flushChunk) {
		if err := ex.InsertEvents(ctx, events); err != nil {
			return err
		}
	}
	if len(w.finishes) > 0 {
		if err := ex.FinishMessages(ctx, w.finishes); err != nil {
			return err
		}
	}
	if len(w.todos) > 0 {
		return ex.AddBackfills(ctx, w.todos)
	}
	return nil
}

// overlay stages one message's flight states over the batch's states, so a
// message refused half way leaves the batch's view untouched.
type overlay struct {
	base   map[int64]*flight.State
	staged map[int64]*flight.State
}

func overlayOf(base map[int64]*flight.State) *overlay {
	return &overlay{base: base, staged: map[int64]*flight.State{}}
}

func (o *overlay) get(flid int64) *flight.State {
	if s, ok := o.staged[flid]; ok {
		return s
	}
	return o.base[flid]
}

func (o *overlay) put(s *flight.State) { o.staged[s.FLID] = s }

func (o *overlay) merge() {
	for id, s := range o.staged {
		o.base[id] = s
	}
}
