// Package store is the dialect-neutral persistence interface of msgx: params
// in, domain values out, errors mapped to the kinds in errors.go. One adapter
// per dialect implements it (pgstore for PostgreSQL around sqlc code,
// orastore for Oracle 11g around the statements of sql/oracle11g), dbopen
// opens the one the configuration names, and every adapter must pass the
// conformance suite in storetest.
// One rule names what a method takes (river's driver): ctx, then at most two
// plain values. More travel as one struct: the record the method writes
// (LogSnapshot: vocab.SnapshotLog; a method writing several takes the
// slice, FinishMessages: []vocab.Finish), or else <Method>Params
// (MarkSent: MarkSentParams); a struct several methods share is
// named for what they share (PurgeParams, RetentionParams). The records and
// words the store shares with internal/apply live in internal/vocab.
//
// The interface is as small as the pipeline needs. Transactions are explicit:
// Begin returns a Tx, which is itself an Executor, and Begin on a Tx opens a
// nested transaction (a savepoint) — how the pump keeps each message
// all-or-nothing inside one commit of several messages.
package store

import (
	"context"
	"time"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Store is the entry point of an adapter.
type Store interface {
	Executor
	// Close releases the adapter's connections.
	Close()
}

// Tx is a transaction (or a savepoint inside one).
type Tx interface {
	Executor
	Commit(ctx context.Context) error
	// Rollback is safe to call after Commit (then it does nothing), so it can be deferred.
	Rollback(ctx context.Context) error
}

// Executor runs every operation, on the pool or inside a transaction.
type Executor interface {
	Begin(ctx context.Context) (Tx, error)

	Queue
	Flights
	Snapshots
	Outbox
	Backfills
	Reference
	Requests    // request.go
	Status      // status.go
	Replays     // replay.go
	Pipeline    // pipeline.go
	Maintenance // maintenance.go
}

// Queue is the inbound message queue (PROC_STATE and its archive).
type Queue interface {
	// Enqueue adds mailbox ids as PENDING; ids already known (live or archived)
	// are ignored. Returns how many were new.
	Enqueue(ctx context.Context, ids []int64, now time.Time) (int, error)
	// EnqueueNew is Enqueue returning the new messages, with the late rows
	// among them marked (rule 17: LateAfter, the largest id already
	// finished, live or archived). When a new id is below one already known
	// it holds PIPELINE_LOCK while it decides, and counts itself there (see
	// LockPipeline), so a business transaction either committed before (and
	// makes the row late) or sees the row in its head check or the count
	// changed since its run was read (the pump's re-checks); ids above every
	// known one need no lock. Enqueue is EnqueueNew counted.
	EnqueueNew(ctx context.Context, ids []int64, now time.Time) ([]Enqueued, error)
	// QueueHead returns up to max unfinished messages (PENDING or FAILED) in MSG_ID order.
	QueueHead(ctx context.Context, max int) ([]vocab.QueueEntry, error)
	// QueueRun is QueueHead with what the pump uses of the messages of a
	// run: ID, Status, Attempts, FirstSeenAt, IdentityKey, ReplayCount (the
	// other fields are zero); with them, read in the same snapshot, the
	// count of enqueues below the largest known id (as LockPipeline returns
	// it): another count under the lock means an id may have entered inside
	// the run since.
	QueueRun(ctx context.Context, max int) (run []vocab.QueueEntry, enqueuedBelow int64, err error)
	// PendingAfter returns the ids of up to max PENDING messages after an id,
	// in MSG_ID order.
	PendingAfter(ctx context.Context, after int64, max int) ([]int64, error)
	// Message returns a message, live or archived; ErrNotFound if neither.
	Message(ctx context.Context, id int64) (vocab.QueueEntry, error)
	// LockMessages locks live messages' rows (inside a transaction) and
	// returns, in MSG_ID order, what the transaction that settles them uses
	// of each: ID, Status, IdentityKey, ReplayCount (the other fields are
	// zero; Message reads a whole row). Ids not found are absent.
	LockMessages(ctx context.Context, ids []int64) ([]vocab.QueueEntry, error)
	// IdentityHolders returns the messages holding the given identity keys,
	// live or archived, with their raw messages' digests; free keys are
	// absent from the map.
	IdentityHolders(ctx context.Context, keys []string) (map[string]vocab.Holder, error)
	// FinishMessages moves unfinished messages to SUCCEEDED, SKIPPED or DEAD,
	// binding those with a Bind (identity, kind, META) in the same write,
	// each only while its row is still as its Read says (status, replay
	// count, identity bound: the check in the statement, no lock taken
	// before); ErrStale when one is not, ErrDuplicate when another message
	// holds a key.
	FinishMessages(ctx context.Context, finishes []vocab.Finish) error
	// RecordFailure marks an unfinished message FAILED with its backoff and
	// returns the attempts so far, only while its replay count is still
	// p.ReplayCount; ErrStale when it is not, or the message is no longer
	// unfinished (a replay meanwhile asked for a fresh start).
	RecordFailure(ctx context.Context, p vocab.RecordFailureParams) (int, error)
	// DeadLetters pages the DEAD messages by id, optionally of one class.
	DeadLetters(ctx context.Context, p DeadLettersParams) ([]vocab.QueueEntry, error)
	// QueueCounts counts the live messages that wait on msgx or an operator
	// by status and error class: PENDING, FAILED and DEAD (not archived).
	// SUCCEEDED and SKIPPED are not counted: that would read the whole
	// archive.after window (issue #35).
	QueueCounts(ctx context.Context) ([]StatusCount, error)
}

// Flights is the current flight state.
type Flights interface {
	// Flights returns the full states of the given flights that exist, keyed by FLID.
	Flights(ctx context.Context, flids []int64) (map[int64]*flight.State, error)
	// FlightStamps returns the write stamps of the given flights that exist,
	// keyed by FLID: a cheap check that a state known from before is current.
	FlightStamps(ctx context.Context, flids []int64) (map[int64]FlightStamp, error)
	// WriteFlights writes next states: every flight row, and for each flight
	// only the collections its Changes name (replaced as a whole).
	WriteFlights(ctx context.Context, writes []vocab.FlightWrite, now time.Time) error
	// FlightsByDay pages the flights of an operation day in FLID order.
	FlightsByDay(ctx context.Context, p FlightsByDayParams) ([]*flight.State, error)
	// PruneCandidates returns the previous-generation members of a flight day
	// that are still ACTIVE on that day and absent from keep.
	PruneCandidates(ctx context.Context, fday time.Time, keep []int64) ([]*flight.State, error)
}

// Snapshots are the per-day schedule generations.
type Snapshots interface {
	// SnapshotGen returns the current generation of a flight day; ErrNotFound if none.
	SnapshotGen(ctx context.Context, fday time.Time) (vocab.SnapshotGen, error)
	// AdvanceSnapshotGen moves the generation of a day from expected to
	// expected+1 (expected 0 creates it); ErrConflict if it moved meanwhile.
	AdvanceSnapshotGen(ctx context.Context, p vocab.AdvanceSnapshotGenParams) error
	// ReplaceSnapshotMembers makes flids the members of the day's generation.
	ReplaceSnapshotMembers(ctx context.Context, fday time.Time, flids []int64) error
	// SnapshotMembers lists the members of a day's generation in FLID order.
	SnapshotMembers(ctx context.Context, fday time.Time) ([]int64, error)
	// LogSnapshot appends the audit row of a snapshot day, applied or stale.
	LogSnapshot(ctx context.Context, l vocab.SnapshotLog) error
	// SnapshotLogs lists a message's audit rows in flight-day order.
	SnapshotLogs(ctx context.Context, msgID int64) ([]vocab.SnapshotLog, error)
}

// Outbox is the event outbox (MSG_EVENT).
type Outbox interface {
	// InsertEvents adds KAFKA:msg events as PENDING; ErrDuplicate if an
	// idempotency key exists.
	InsertEvents(ctx context.Context, events []vocab.NewEvent) error
	// PendingEvents returns the head of KAFKA:msg: up to max PENDING events in EVENT_ID order.
	PendingEvents(ctx context.Context, target string, max int) ([]Event, error)
	// PendingEventsAfter returns up to Max PENDING KAFKA:msg events with an
	// EVENT_ID above AfterID, in EVENT_ID order (the head after a cursor).
	PendingEventsAfter(ctx context.Context, p PendingEventsAfterParams) ([]Event, error)
	// EventsOfMessage lists the events a message produced, with their
	// effective status.
	EventsOfMessage(ctx context.Context, msgID int64) ([]Event, error)
	// EventsOfFlight lists the events of a flight in EVENT_ID order, with
	// their effective status: its history of versions.
	EventsOfFlight(ctx context.Context, flid int64) ([]Event, error)
	// DeadEvents returns up to Limit DEAD events of a target with an EVENT_ID
	// above AfterID, in EVENT_ID order (the outbox's dead letters).
	DeadEvents(ctx context.Context, p DeadEventsParams) ([]Event, error)
	// MarkSent marks acknowledged KAFKA:msg events SENT. KAFKA:msg is
	// delivered in EVENT_ID order: ids must be the contiguous acknowledged
	// prefix of its pending head: every PENDING event up to the last of them
	// becomes SENT at once (an adapter may keep this as a watermark), and
	// ErrConflict (nothing marked) when a PENDING event in that range is
	// missing from ids; ids not PENDING are ignored. SentAt is not kept per event.
	MarkSent(ctx context.Context, p MarkSentParams) error
	// RecordDeliveryFailure counts a failed delivery of a KAFKA:msg event:
	// backoff until next, or DEAD at maxAttempts. Returns the new status.
	RecordDeliveryFailure(ctx context.Context, p RecordDeliveryFailureParams) (string, error)

	// MarkSchd marks flights for KAFKA:schd (rule 8), one mark per flight
	// (FLIDs unique within a call): a flight's mark names its latest change
	// (MsgID, StateVersion; a newer one replaces it and starts its attempts
	// again). The change's KAFKA:msg event is written before, in the same
	// transaction; the mark does not read it.
	MarkSchd(ctx context.Context, marks []vocab.SchdMark) error
	// DueSchdMarks returns up to Max marks not backing off at Now, oldest
	// pending first, as KAFKA:schd events: ID and payload are those of the
	// KAFKA:msg event of the change it names (its twin).
	DueSchdMarks(ctx context.Context, p DueSchdMarksParams) ([]Event, error)
	// ClearSchdMarks deletes the marks of delivered flights, each only while
	// it still names the delivered change (SchdSent): a flight changed
	// meanwhile stays marked. Returns how many went.
	ClearSchdMarks(ctx context.Context, sent []SchdSent) (int, error)
	// RecordSchdFailure counts a failed delivery of a mark's event: backoff
	// until NextAttemptAt, or at MaxAttempts the mark becomes a DEAD
	// KAFKA:schd event (the dead letter, an EVENT_ID of its own). Returns PENDING,
	// DEAD, or "" when the mark names a newer change (nothing recorded).
	RecordSchdFailure(ctx context.Context, p RecordSchdFailureParams) (string, error)
	// AdoptSchdRows turns the PENDING KAFKA:schd events an earlier release
	// wrote (one per change) into marks: per flight the latest, unless its
	// mark names a later change. Returns how many flights were marked.
	AdoptSchdRows(ctx context.Context) (int, error)
}

// Backfills are the mailbox backfill todos and the backfill mark.
type Backfills interface {
	// AddBackfills registers todos (a todo of the same message is replaced):
	// the ones the backfill mark does not cover.
	AddBackfills(ctx context.Context, todos []vocab.Backfill) error
	DueBackfills(ctx context.Context, now time.Time, max int) ([]vocab.Backfill, error)
	// DeleteBackfills deletes the todos backfilled, each under its
	// registration only.
	DeleteBackfills(ctx context.Context, done []vocab.BackfillKey) error
	// RecordBackfillFailure counts a failed attempt of a todo and defers it
	// to NextAttemptAt, under its registration only; a backfill with no
	// todo (the mark covered it) is registered with the failure counted.
	RecordBackfillFailure(ctx context.Context, p RecordBackfillFailureParams) error
	// BackfillMark returns the backfill mark (0 before it first moves):
	// every terminal message at or below it is backfilled or has a todo.
	// The business transaction registers a todo only for a message at or
	// below it, or a replay's (docs/design.md §1.4).
	BackfillMark(ctx context.Context) (int64, error)
	// UnmarkedBackfills returns up to max messages above after in MSG_ID
	// order, up to the first unfinished message that is no replay.
	UnmarkedBackfills(ctx context.Context, after int64, max int) ([]UnmarkedBackfill, error)
	// AdvanceBackfillMark moves the mark to Through, in its own transaction
	// under the pipeline lock, when every message between the mark and
	// Through is one of Covered; reports whether it moved.
	AdvanceBackfillMark(ctx context.Context, p AdvanceBackfillMarkParams) (bool, error)
	// PassBackfillMark moves the mark to through (never back) in the
	// business transaction of shadow mode, where nothing is backfilled.
	PassBackfillMark(ctx context.Context, through int64, now time.Time) error
}

// Reference is the reference data (REF_MASTER).
type Reference interface {
	// UpsertRef stores a record; reports whether it changed.
	UpsertRef(ctx context.Context, r vocab.RefRecord) (bool, error)
	// DeleteRef removes a record; reports whether it existed.
	DeleteRef(ctx context.Context, rtype, rkey string) (bool, error)
	// Ref returns a record; ErrNotFound if none.
	Ref(ctx context.Context, rtype, rkey string) (vocab.RefRecord, error)
	// ReplaceRefList deletes every record of a reference list whose key is
	// not in keep; returns how many.
	ReplaceRefList(ctx context.Context, rtype string, keep []string) (int, error)
}
