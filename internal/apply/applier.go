// Package apply is what one message does (docs/design.md §3): given a head
// message as read and decoded, and what it reads of the current state, it
// decides the outcome (SUCCEEDED, SKIPPED, DEAD, or a retryable Failure) and
// computes everything the message writes — flight rows, outbox events,
// snapshot generations, reference records, the request it answers, its
// terminal status and its mailbox backfill — as data (Writes).
//
// It holds no database handle and imports no driver: reads go through the
// narrow Reader, writes come back as Writes, so every rule is tested without
// a database. internal/pump decides when, how many and in which
// transaction (queue head, budget, batching, savepoints, retries).
package apply

import (
	"cmp"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/msgx-aodb/msgx/internal/respmatch"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Config is what the rules depend on besides the message and the state.
type Config struct {
	// Prune: a snapshot deletes the previous members of its days it lacks
	// (pipeline.prune; default on).
	Prune bool
	// Shadow: no outbox events and no mailbox backfill (another system
	// serves the consumers and the AODB).
	Shadow bool
	// Guard is request.guard: which RESPs apply; "" is request mode.
	Guard respmatch.Mode
	// Location is the airport zone, for the days of a requested range; nil:
	// sis.DefaultOptions' zone.
	Location *time.Location
	// MaxRecordBytes is kafka.max-record-bytes, as a number: a message whose
	// event's record would be larger is refused, DEAD(PROTOCOL); 0: no limit.
	// Not applied in shadow mode (no events).
	MaxRecordBytes int
	// EventBytes sizes the record the relay will produce for an event
	// (payload: the record's value); the wiring passes the Kafka adapter's
	// measure, so this package knows no Kafka. nil: the payload's length.
	EventBytes func(e vocab.NewEvent, payload []byte) int
	// Log receives what a rule notes but does not store (a RESP that matches
	// no request); nil: discarded.
	Log *slog.Logger
	// Retries is how a failing head is retried and when it is exhausted
	// (Failed, Retry).
	Retries Retries
}

// Applier applies messages under one Config, for one caller at a time
// (a second call while one runs panics): what a call of Batch or One hands
// out (the Writes, the outcomes, the event payloads) is valid until the
// next call, which reuses its memory.
type Applier struct {
	cfg   Config
	limit recordLimit
	log   *slog.Logger

	// What one call writes, reused by the next (so one caller at a time):
	// the event payloads and a batch's Writes and outcomes.
	payloads payloadArena
	batch    batchScratch
	busy     atomic.Bool // a call of Batch or One is running
}

// enter marks a call of Batch or One as running until the returned func:
// two at once would write into each other's payloads, so a second one
// panics rather than corrupt an outbox row.
func (a *Applier) enter() (leave func()) {
	if !a.busy.CompareAndSwap(false, true) {
		panic("apply: an Applier called by two callers at once")
	}
	return func() { a.busy.Store(false) }
}

// New returns the Applier of a config.
func New(cfg Config) *Applier {
	cfg.Guard = cmp.Or(cfg.Guard, respmatch.ModeRequest)
	if cfg.Location == nil {
		cfg.Location = sis.DefaultOptions().Location
	}
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Applier{cfg: cfg, limit: recordLimit{max: cfg.MaxRecordBytes, size: cfg.EventBytes}, log: log}
}

// Input is one head message as the pump read and decoded it, outside any
// transaction.
type Input struct {
	Msg     vocab.QueueEntry // the queue row, as locked in the message's transaction
	Decoded *sis.Message     // nil when the raw row is missing or the XML did not decode
	Err     error            // the decode error (classified by sis), if any
	Missing bool             // the raw row is gone from the mailbox
	// Digest is the raw message's digest (vocab.RawDigest), bound with its
	// identity; nil when unknown (a duplicate is then never a conflict).
	Digest []byte
}

// decodeOutcome: a missing raw row or a MALFORMED/PROTOCOL message is a
// terminal outcome; other decode errors are retryable failures.
func (in *Input) decodeOutcome() (Outcome, *Failure) {
	switch {
	case in.Missing:
		return dead(vocab.ClassMalformed, "raw message missing from the mailbox"), nil
	case in.Err != nil:
		f := Classify(in.Err)
		if f.Class != vocab.ClassMalformed && f.Class != vocab.ClassProtocol {
			return Outcome{}, f
		}
		return dead(f.Class, f.Reason), nil
	}
	return Outcome{}, nil
}
