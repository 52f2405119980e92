package vocab

import "time"

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
