package apply

import (
	"context"
	"maps"
	"time"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Result is what a message settled alone decided.
type Result struct {
	Outcome Outcome
	// Final is its terminal status and backfill, written after what emit
	// wrote — or instead of it when Discard is set.
	Final *Writes
	// Discard: a refused message (Outcome.Refused) writes nothing but its
	// status, so the caller rolls back everything emit wrote, then writes
	// Final alone.
	Discard bool
}

// One applies a message the batch cannot take (CanBatch), reading through
// r: it decides the message's outcome and hands its writes to emit as it
// goes — a message of many records a slice at a time (SliceRecords), so its
// states and events are not all held at once. A returned error is a
// retryable failure (a *Failure, or the reader's or emit's error): the
// caller rolls back everything emit wrote.
func (a *Applier) One(ctx context.Context, r Reader, in Input, now time.Time, emit func(*Writes) error) (Result, error) {
	defer a.enter()()
	// The payloads live until emit has written them: emit returns before One.
	a.payloads.reset()
	defer a.payloads.reset()
	meta := metaOf(in.Decoded)
	out, retry := in.decodeOutcome()
	if retry != nil {
		return Result{}, retry
	}
	if out.Status == "" { // decoded: a duplicate, or applied
		holders, err := r.IdentityHolders(ctx, []string{in.Decoded.Identity})
		if err != nil {
			return Result{}, err
		}
		var dup bool
		if out, dup = duplicate(&in, holders); !dup {
			if out, err = a.dispatch(ctx, r, in.Msg.ID, in.Decoded, now, emit); err != nil {
				return Result{}, err
			}
		}
	}
	var w Writes
	a.finish(&w, in.Msg, meta, out, binding(&in, meta, out), now)
	return Result{Outcome: out, Final: &w, Discard: out.Refused()}, nil
}

// dispatch applies a decoded message by kind. Returned errors are retryable
// failures; refusals and skips are outcomes.
func (a *Applier) dispatch(ctx context.Context, r Reader, msgID int64, msg *sis.Message, now time.Time, emit func(*Writes) error) (Outcome, error) {
	switch msg.Kind {
	case sis.KindUnsupported:
		return Outcome{}, &Failure{Class: vocab.ClassUnsupported, Reason: msg.Note}
	case sis.KindReference:
		return a.reference(ctx, r, msgID, msg, now, emit)
	case sis.KindSchedule:
		if msg.Schedule.Snapshot() {
			return a.snapshot(ctx, r, msgID, msg, now, emit)
		}
	}
	return a.inSlices(ctx, r, msgID, msg, now, emit)
}

// inSlices applies a message computed from the flights it names,
// SliceRecords records at a time: read the slice's flights not read yet,
// compute, emit the flights and events. The states carry over from slice to
// slice, one per flight. A flight a later slice names again is emitted
// there, once, with the change of all its records (rule 8).
func (a *Applier) inSlices(ctx context.Context, r Reader, msgID int64, msg *sis.Message, now time.Time, emit func(*Writes) error) (Outcome, error) {
	var acc matches
	states := map[int64]*flight.State{}
	n := recordCount(msg)
	var lastAt map[int64]int // the record naming each flight last
	if n > SliceRecords {
		acc.sliced = true
		lastAt = map[int64]int{}
		for i, id := range FLIDs(msg) {
			lastAt[id] = i
		}
	}
	for from := 0; ; from += SliceRecords {
		to := min(from+SliceRecords, n)
		part := sliceOf(msg, from, to)
		var need []int64
		for _, id := range FLIDs(part) {
			if _, ok := states[id]; !ok {
				need = append(need, id)
			}
		}
		got, err := r.Flights(ctx, need)
		if err != nil {
			return Outcome{}, err
		}
		maps.Copy(states, got)
		overlay := overlayOf(states)
		out, results := compute(&acc, part, overlay, msgID, now)
		if out.Status == "" {
			return Outcome{}, &Failure{Class: vocab.ClassUnsupported, Reason: "kind " + string(msg.Kind)}
		}
		if out.Refused() {
			return out, nil
		}
		overlay.merge()
		if acc.sliced {
			results = settled(&acc, results, lastAt, to)
		}
		var w Writes
		if tooLarge, err := a.addResults(&w, msgID, results, now); err != nil {
			return Outcome{}, err
		} else if tooLarge != "" {
			return dead(vocab.ClassProtocol, tooLarge), nil
		}
		if err := emit(&w); err != nil {
			return Outcome{}, err
		}
		a.payloads.reset() // written: the next slice's take their place
		if to >= n {
			return out, nil
		}
	}
}

// settled keeps the results of the flights no record after to names (their
// last slice), and forgets their runs; the others are emitted by a later
// slice.
func settled(acc *matches, results []flight.Result, lastAt map[int64]int, to int) []flight.Result {
	out := results[:0]
	for _, r := range results {
		if lastAt[r.Next.FLID] < to {
			delete(acc.runs, r.Next.FLID)
			out = append(out, r)
		}
	}
	return out
}
