package apply

import (
	"slices"
	"time"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// CanBatch says whether a message can join a batch: decoded messages whose
// effect is computed from the flights they name alone, and messages refused
// at decode (MALFORMED, PROTOCOL: settled DEAD, nothing to compute).
// Snapshots (they read generations and prune candidates), reference lists,
// retryable decode failures, unsupported kinds and messages of more than
// SliceRecords records (applied a slice at a time) are settled alone (One)
// — RESPs among them, since the request guard reads and completes REQ_TRACK
// in their transaction.
func CanBatch(in *Input) bool {
	if in.Err != nil || in.Decoded == nil {
		out, retry := in.decodeOutcome()
		return out.Status != "" && retry == nil
	}
	if recordCount(in.Decoded) > SliceRecords {
		return false
	}
	switch m := in.Decoded; m.Kind {
	case sis.KindFlightOps, sis.KindFlightDelete, sis.KindIgnored:
		return true
	case sis.KindSchedule:
		return !m.Schedule.Snapshot()
	}
	return false
}

// Batch applies messages CanBatch takes, in order, over the flights they
// name (states, read once for the batch) and the holders of their
// identities: each message sees the states and identities the earlier ones
// left. It returns everything the batch writes and each message's outcome.
// states and holders are updated in place to what the batch leaves. An
// error (an event payload that cannot be built) fails the whole batch.
//
// The Writes and outcomes are the Applier's, valid until its next call,
// but for the backfills: those are the caller's to keep.
func (a *Applier) Batch(run []Input, holders map[string]vocab.Holder, states map[int64]*flight.State, now time.Time) (*Writes, []Outcome, error) {
	defer a.enter()()
	a.payloads.reset()
	w, outs := a.batch.next(len(run))
	for i := range run {
		in := &run[i]
		m, msg, meta := in.Msg, in.Decoded, metaOf(in.Decoded)
		out, _ := in.decodeOutcome()
		if out.Status == "" { // decoded: a duplicate, or computed over the batch's states
			var dup bool
			if out, dup = duplicate(in, holders); !dup {
				overlay := overlayOf(states)
				var results []flight.Result
				out, results = compute(&matches{}, msg, overlay, m.ID, now)
				if !out.Refused() {
					tooLarge, err := a.addResults(w, m.ID, results, now)
					if err != nil {
						return nil, nil, err
					}
					if tooLarge != "" {
						out = dead(vocab.ClassProtocol, tooLarge)
					}
				}
				if !out.Refused() {
					// Later messages of the batch repeating it are its duplicates.
					holders[msg.Identity] = vocab.Holder{MsgID: m.ID, Digest: in.Digest}
					overlay.merge()
				}
			}
		}
		outs[i] = out
		a.finish(w, m, meta, out, binding(in, meta, out), now)
	}
	return w, outs, nil
}

// batchScratch is the Writes and outcomes of the Applier's last batch,
// reused by the next: sized for the run (every message finishes and is
// backfilled, most change one flight: an event and a mark), they were
// allocated anew for every batch, a sixteenth of a FLOP message's bytes.
// Not the backfills: the pump hands them to the backfiller, which writes
// them back to the mailbox while the next batch is applied.
type batchScratch struct {
	w    Writes
	outs []Outcome
}

// next empties the scratch for a run of n messages: nothing of the batch
// before stays reachable from it.
func (b *batchScratch) next(n int) (*Writes, []Outcome) {
	w := &b.w
	w.Flights = emptied(w.Flights, n)
	w.Events = emptied(w.Events, n)
	w.SchdMarks = emptied(w.SchdMarks, n)
	w.Finishes = emptied(w.Finishes, n)
	w.Backfills = make([]vocab.Backfill, 0, n)
	clear(w.byFLID)
	clear(w.markOf)
	b.outs = emptied(b.outs, n)[:n]
	return w, b.outs
}

// emptied is s cleared and cut to length 0, with room for n (what lies
// past its length was cleared by the call before).
func emptied[T any](s []T, n int) []T {
	clear(s)
	return slices.Grow(s[:0], n)
}

// Needs lists what a batch reads before Batch: the identities its messages
// hold and the flights they name.
func Needs(run []Input) (identities []string, flids []int64) {
	for i := range run {
		if in := &run[i]; in.Decoded != nil && in.Err == nil {
			identities = append(identities, in.Decoded.Identity)
			flids = append(flids, FLIDs(in.Decoded)...)
		}
	}
	return identities, flids
}
