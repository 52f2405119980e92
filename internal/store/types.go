package store

import (
	"time"

	"github.com/msgx-aodb/msgx/internal/flight"
)

// Processing statuses (docs/design.md §3).
const (
	StatusPending   = "PENDING"
	StatusFailed    = "FAILED"
	StatusSucceeded = "SUCCEEDED"
	StatusSkipped   = "SKIPPED"
	StatusDead      = "DEAD"
)

// Delivery statuses and targets of the outbox.
const (
	EventPending = "PENDING"
	EventSent    = "SENT"
	EventDead    = "DEAD"

	TargetMsg  = "KAFKA:msg"
	TargetSchd = "KAFKA:schd"

	EventUpsert    = "UPSERT"
	EventTombstone = "TOMBSTONE"
)

// Message is one inbound message's processing record.
type Message struct {
	ID            int64
	Status        string
	IdentityKey   string // empty until bound
	Kind          string
	Meta          Meta
	Attempts      int
	NextAttemptAt *time.Time
	FirstSeenAt   time.Time
	FailingSince  *time.Time // first counted failure since enqueue or replay: the head-deadline's start
	ErrorClass    string     // empty when none
	Reason        string
	DuplicateOf   *int64
	ReplayCount   int
	PrevClass     string
	PrevReason    string
	FinishedAt    *time.Time
	Archived      bool
	// LateAfter marks a late row (rule 17): the largest id already finished
	// when it was enqueued; nil for a row enqueued in order.
	LateAfter *int64
	// Digest is the bound raw message's digest; nil when none was bound.
	Digest []byte
}

// Enqueued is a message new to the queue; LateAfter as in Message.
type Enqueued struct {
	ID        int64
	LateAfter *int64
}

// LateMark is how a late row is shown on its message: late:<largest finished id>.
func LateMark(after int64) string { return "late:" + itoa(after) }

// Meta is the decoded META of a message, as the mailbox backfill writes it.
type Meta struct {
	Sndr    string
	Seqn    *int64
	DttmRaw string
	Dttm    *time.Time
	Type    string
	Styp    string
}

// Binding is what a message binds once decoded: its identity (empty: none,
// META only) and META.
type Binding struct {
	IdentityKey string
	Kind        string
	Meta        Meta
	// Digest is the raw message's digest (RawDigest), bound with the
	// identity so a later duplicate can be compared with it (rule 2); nil
	// keeps what is bound.
	Digest []byte
}

// Holder is the message holding an identity, with the digest of its raw
// message; Digest is nil when unknown (bound before digests were kept).
type Holder struct {
	MsgID  int64
	Digest []byte
}

// Finish is a terminal outcome.
type Finish struct {
	MsgID       int64
	Status      string // SUCCEEDED, SKIPPED or DEAD
	ErrorClass  string // for DEAD
	Reason      string // error or SKIPPED reason
	DuplicateOf *int64
	// Bind, when set, binds the message in the same write as its status
	// (the batch path: one row write per message instead of two).
	Bind *Binding
	Now  time.Time
}

// Failure is a failed attempt to be retried after NextAttemptAt.
type Failure struct {
	MsgID         int64
	ErrorClass    string
	Reason        string
	NextAttemptAt time.Time
	Now           time.Time
	// Bind: the kind and META the message decoded to, bound with the failure
	// (its identity is not: only a message that gets through binds it); nil
	// or empty values keep what is bound.
	Bind *Binding
}

// StatusCount is a count of live messages of one status and class.
type StatusCount struct {
	Status, ErrorClass string
	Messages           int64
}

// DeadLettersParams pages the DEAD messages by id.
type DeadLettersParams struct {
	Class   string // empty: every class
	AfterID int64
	Limit   int
}

// FlightWrite is one computed next state and what of it changed.
type FlightWrite struct {
	State   *flight.State
	Changes flight.Changes
	New     bool // the flight does not exist yet: nothing to update or delete
}

// FlightsByDayParams pages the flights of an operation day by FLID.
type FlightsByDayParams struct {
	Day       time.Time
	AfterFLID int64
	Limit     int
}

// FlightStamp identifies a written flight row: every write sets UpdatedAt to
// its time, a change also bumps StateVersion. A state known with the same
// stamp is the current one.
type FlightStamp struct {
	StateVersion int64
	UpdatedAt    time.Time
}

// SnapshotGen is the current generation of a flight day.
type SnapshotGen struct {
	FDay          time.Time
	Version       int64
	LastMessageID int64
	ContentDigest string
	UpdatedAt     time.Time
	// Dttm is the META DTTM of the message that made the generation (nil for
	// a generation made before it was kept): an older snapshot is stale.
	Dttm    *time.Time
	DttmRaw string
}

// AdvanceGen is a compare-and-set of a day's generation.
type AdvanceGen struct {
	FDay            time.Time
	ExpectedVersion int64 // 0: the day has no generation yet
	MessageID       int64
	ContentDigest   string
	Dttm            *time.Time // META DTTM of the message
	DttmRaw         string
	Now             time.Time
}

// Snapshot log outcomes of one flight day.
const (
	SnapApplied = "APPLIED" // upserted, pruned, generation advanced
	SnapStale   = "STALE"   // sent before the day's generation: left alone
)

// SnapshotLog is the audit row of one snapshot day.
type SnapshotLog struct {
	MsgID                               int64
	Subtype                             string
	FDay                                time.Time
	Outcome                             string     // SnapApplied or SnapStale
	GenVersion                          int64      // made (APPLIED) or kept (STALE)
	StaleOf                             *int64     // STALE: the message that made the kept generation
	Dttm                                *time.Time // META DTTM of the message
	ScopeBegin, ScopeEnd                *time.Time
	Records, Changed, Unchanged, Pruned int
	// KeptNewer: values and flights a newer message kept from the
	// snapshot (rule 19).
	KeptNewer int
	RecvAt    time.Time
}

// NewEvent is an outbox event written in a business transaction.
type NewEvent struct {
	Target         string
	EventType      string
	MsgID          int64
	FLID           int64
	StateVersion   int64
	IdempotencyKey string
	Payload        []byte // nil for a TOMBSTONE without payload
	CreatedAt      time.Time
}

// PartitionKey is an event's partition key, its Kafka record key: the FLID
// as decimal text.
func PartitionKey(flid int64) string { return itoa(flid) }

// IdempotencyKey is rule 8 of docs/design.md: <CMINMSGS_ID>:<FLID>:<STATE_VERSION>:<TARGET>.
func IdempotencyKey(msgID, flid, version int64, target string) string {
	return itoa(msgID) + ":" + itoa(flid) + ":" + itoa(version) + ":" + target
}

// Event is an outbox event as stored.
type Event struct {
	NewEvent
	ID            int64
	PartitionKey  string
	Status        string
	Attempts      int
	NextAttemptAt *time.Time
	LastError     string
	SentAt        *time.Time
}

// DeliveryFailure is a failed delivery of one event.
type DeliveryFailure struct {
	EventID       int64
	Reason        string
	NextAttemptAt time.Time
	MaxAttempts   int
}

// UpTo names the events of one flight (PartitionKey) up to an EVENT_ID.
type UpTo struct {
	PartitionKey string
	EventID      int64
}

// PendingEventsAfterParams is a target's pending head after a cursor.
type PendingEventsAfterParams struct {
	Target  string
	AfterID int64
	Max     int
}

// DeadEventsParams pages a target's DEAD events by EVENT_ID.
type DeadEventsParams struct {
	Target  string
	AfterID int64
	Limit   int
}

// MarkSentParams names the acknowledged events of a target.
type MarkSentParams struct {
	Target string
	IDs    []int64
	Now    time.Time
}

// LatestPendingPerFlightParams is one schd aggregation read.
type LatestPendingPerFlightParams struct {
	Target string
	Now    time.Time // events still backing off at Now are left out
	Max    int       // flights
}

// MarkSentUpToParams names, per flight of a target, the delivered event.
type MarkSentUpToParams struct {
	Target    string
	Delivered []UpTo
	Now       time.Time
}

// MarkDeadBelowParams names the superseded events of one flight of a target
// and why they die.
type MarkDeadBelowParams struct {
	Target string
	Below  UpTo
	Reason string
}

// Backfill is a pending mailbox backfill.
type Backfill struct {
	MsgID         int64
	MailboxStatus string // SUCCEEDED, SKIPPED or DEAD
	ProcessedAt   time.Time
	// OverwritesStatus is the status of msgx's own earlier backfill of the
	// row this one may overwrite (rule 18: DEAD, for a replayed message);
	// empty: only a row never backfilled is written.
	OverwritesStatus string
	Meta             Meta
	Attempts         int
	NextAttemptAt    time.Time
	LastError        string
	// Registration is the message's REPLAY_COUNT when the todo was
	// registered: a replay re-registers it under the next one (rule 18).
	Registration int64
}

// Key names the todo as registered.
func (b Backfill) Key() BackfillKey { return BackfillKey{MsgID: b.MsgID, Registration: b.Registration} }

// BackfillKey names one registration of a message's backfill todo. Deleting
// or deferring a todo names its registration, so a todo a replay
// re-registered meanwhile is neither deleted nor deferred by the backfill
// of the one before (rule 18).
type BackfillKey struct {
	MsgID        int64
	Registration int64
}

// RecordBackfillFailureParams is a failed attempt of a backfill todo.
type RecordBackfillFailureParams struct {
	MsgID         int64
	Registration  int64
	NextAttemptAt time.Time
	Reason        string
}

// RefRecord is one reference-data record.
type RefRecord struct {
	RType, RKey   string
	Record        string
	Version       int64
	LastMessageID int64
	Now           time.Time
}
