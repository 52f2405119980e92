package apply

import (
	"fmt"
	"time"

	"github.com/msgx-aodb/msgx/internal/backoff"
	"github.com/msgx-aodb/msgx/internal/vocab"
	"github.com/msgx-aodb/msgx/internal/widths"
)

// Retries are the head's retry rules (docs/design.md §3.2), as given (the
// pump passes its configuration, defaults applied). The pump decides when
// they are applied and in which transaction; these decide what.
type Retries struct {
	MaxAttempts  int           // attempts ≥ this → DEAD(EXHAUSTED)
	BackoffBase  time.Duration // first retry delay, doubled per attempt
	BackoffCap   time.Duration // cap of one delay
	HeadDeadline time.Duration // failing this long (from its first counted failure) → DEAD(EXHAUSTED)
}

// Failed is what a failed attempt of message m records: FAILED with the
// failure's class and reason (cut to its column), its next attempt one
// backoff after now (the delay of the attempt it counts), and bind, when not
// nil, bound to the message; recorded only while m's replay count holds.
func (a *Applier) Failed(m vocab.QueueEntry, f *Failure, bind *vocab.Binding, now time.Time) vocab.RecordFailureParams {
	r := a.cfg.Retries
	return vocab.RecordFailureParams{
		MsgID: m.ID, ReplayCount: int64(m.ReplayCount), ErrorClass: string(f.Class), Reason: widths.Reason.Cut(f.Reason),
		NextAttemptAt: now.Add(backoff.Doubling(r.BackoffBase, r.BackoffCap, m.Attempts+1)), Now: now, Bind: bind,
	}
}

// HeadRetry is what the pump does with a FAILED head (Retry): settle it
// exhausted, or try it again at Due.
type HeadRetry struct {
	// Exhausted, when not nil, is what settles the head: Outcome,
	// DEAD(EXHAUSTED) with the META its failures bound, and its backfill.
	Exhausted *Writes
	Outcome   Outcome
	// Due is when it may be tried again; not after now: at once.
	Due time.Time
}

// Retry decides a FAILED head m at now: exhausted after MaxAttempts
// attempts, or once it has failed for HeadDeadline since its first counted
// failure — a deadline that does not run while the pump is paused on an
// outage (rule 14) — else due at its next attempt.
func (a *Applier) Retry(m vocab.QueueEntry, paused bool, now time.Time) HeadRetry {
	reason := a.exhausted(m, paused, now)
	if reason == "" {
		var due time.Time
		if m.NextAttemptAt != nil {
			due = *m.NextAttemptAt
		}
		return HeadRetry{Due: due}
	}
	out := dead(vocab.ClassExhausted, reason)
	var w Writes
	a.finish(&w, m, m.Meta, out, nil, now)
	return HeadRetry{Exhausted: &w, Outcome: out}
}

// exhausted says why a FAILED head must stop retrying, or "".
func (a *Applier) exhausted(m vocab.QueueEntry, paused bool, now time.Time) string {
	r := a.cfg.Retries
	if m.Attempts >= r.MaxAttempts {
		return fmt.Sprintf("%d attempts; last %s: %s", m.Attempts, m.ErrorClass, m.Reason)
	}
	if m.FailingSince == nil || paused {
		return "" // nothing failed yet, or an outage: it runs no deadline (rule 14)
	}
	if age := now.Sub(*m.FailingSince); age >= r.HeadDeadline {
		return fmt.Sprintf("failing for %s (deadline %s); last %s: %s", age.Round(time.Second), r.HeadDeadline, m.ErrorClass, m.Reason)
	}
	return ""
}
