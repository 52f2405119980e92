package apply

import (
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
func (a *Applier) Batch(run []Input, holders map[string]vocab.Holder, states map[int64]*flight.State, now time.Time) (*Writes, []Outcome, error) {
	// Sized for the run: every message finishes and is backfilled, and most
	// change one flight (an event and a mark); grown slices were a tenth of
	// a batch's allocations.
	w := Writes{
		Flights:   make([]vocab.FlightWrite, 0, len(run)),
		Events:    make([]vocab.NewEvent, 0, len(run)),
		SchdMarks: make([]vocab.SchdMark, 0, len(run)),
		Finishes:  make([]vocab.Finish, 0, len(run)),
		Backfills: make([]vocab.Backfill, 0, len(run)),
	}
	outs := make([]Outcome, len(run))
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
					tooLarge, err := a.addResults(&w, m.ID, results, now)
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
		a.finish(&w, m, meta, out, binding(in, meta, out), now)
	}
	return &w, outs, nil
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
