package store

import (
	"time"

	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Enqueued is a message new to the queue; LateAfter as in vocab.QueueEntry.
type Enqueued struct {
	ID        int64
	LateAfter *int64
}

// StatusCount is a count of live messages of one status and class (QueueCounts).
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

// Event is an outbox event as stored.
type Event struct {
	vocab.NewEvent
	ID            int64
	PartitionKey  string
	Status        string
	Attempts      int
	NextAttemptAt *time.Time
	LastError     string
	SentAt        *time.Time
}

// RecordDeliveryFailureParams is a failed delivery of one event.
type RecordDeliveryFailureParams struct {
	EventID       int64
	Reason        string
	NextAttemptAt time.Time
	MaxAttempts   int
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

// DueSchdMarksParams is one read of the due KAFKA:schd marks.
type DueSchdMarksParams struct {
	Now time.Time // marks still backing off at Now are left out
	Max int       // flights
}

// SchdSent names a delivered mark: the flight and the change it was sent
// as (the message and the flight's STATE_VERSION: a store.Event's MsgID and
// StateVersion).
type SchdSent struct {
	FLID         int64
	MsgID        int64
	StateVersion int64
}

// SentAs names the mark e (a KAFKA:schd event of DueSchdMarks) was sent as.
func SentAs(e Event) SchdSent {
	return SchdSent{FLID: e.FLID, MsgID: e.MsgID, StateVersion: e.StateVersion}
}

// RecordSchdFailureParams is a failed delivery of a mark's event.
type RecordSchdFailureParams struct {
	SchdSent
	Reason        string
	NextAttemptAt time.Time
	MaxAttempts   int
}

// RecordBackfillFailureParams is a failed attempt of a backfill: of a todo
// (under Backfill.Registration), or of a message the mark covered, which
// gets its todo with it (Backfill is what it is to write).
type RecordBackfillFailureParams struct {
	Backfill      vocab.Backfill
	NextAttemptAt time.Time
	Reason        string
}

// UnmarkedBackfill is a message above the backfill mark.
type UnmarkedBackfill struct {
	vocab.Backfill // a terminal message's backfill, as its business transaction registered it
	// Replay: REPLAY_COUNT > 0, finished or not. Its finish registers a todo
	// of its own (rule 18), so the mark passes it without writing it.
	Replay bool
}

// Unmarked is a message above the mark as the backfill its business
// transaction registered: its terminal status, finish time (nil: none yet),
// META and replay count (its todo's registration).
func Unmarked(id int64, status string, finished *time.Time, replays int64, meta vocab.Meta) UnmarkedBackfill {
	u := UnmarkedBackfill{Backfill: vocab.Backfill{MsgID: id, MailboxStatus: status, Meta: meta, Registration: replays},
		Replay: replays > 0}
	if finished != nil {
		u.ProcessedAt, u.NextAttemptAt = *finished, *finished
	}
	return u
}

// AdvanceBackfillMarkParams moves the backfill mark to Through, if every
// message between the mark and Through is one of Covered.
type AdvanceBackfillMarkParams struct {
	Through int64
	Covered []int64 // backfilled or given a todo by the caller, distinct
	Now     time.Time
}
