package vocab

import "time"

// Processing statuses (docs/design.md §3).
const (
	StatusPending   = "PENDING"
	StatusFailed    = "FAILED"
	StatusSucceeded = "SUCCEEDED"
	StatusSkipped   = "SKIPPED"
	StatusDead      = "DEAD"
)

// QueueEntry is one inbound message's processing record: its PROC_STATE
// row, live or archived (sis.Message is the message decoded).
type QueueEntry struct {
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
	// Read is the row this outcome was computed from: the write applies
	// only while the row is still so (an optimistic check in place of a
	// row lock; a replay or another writer meanwhile makes it stale). Zero
	// (Status empty): any unfinished row, for tools and tests.
	Read RowRead
	Now  time.Time
}

// RowRead is what a finish expects of its message's row: what the pump
// read and computed the outcome from.
type RowRead struct {
	Status      string // PENDING or FAILED
	ReplayCount int64  // the registration of its backfill (rule 18)
	IdentityKey string // "" when none is bound
}

// ReadOf is what a finish computed from m expects of its row.
func ReadOf(m QueueEntry) RowRead {
	return RowRead{Status: m.Status, ReplayCount: int64(m.ReplayCount), IdentityKey: m.IdentityKey}
}

// RecordFailureParams is a failed attempt to be retried after NextAttemptAt.
type RecordFailureParams struct {
	MsgID int64
	// ReplayCount is the message's replay count when the attempt read it:
	// the failure is recorded only while the row's is still this. A replay
	// meanwhile asked for a fresh start (attempts 0), which the old
	// attempt's failure must not overwrite (store.ErrStale).
	ReplayCount   int64
	ErrorClass    string
	Reason        string
	NextAttemptAt time.Time
	Now           time.Time
	// Bind: the kind and META the message decoded to, bound with the failure
	// (its identity is not: only a message that gets through binds it); nil
	// or empty values keep what is bound.
	Bind *Binding
}
