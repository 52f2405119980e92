package vocab

import (
	"strconv"
	"time"
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

// SchdMark marks a flight for the schd topic (rule 8): its latest change,
// which the relay sends as the state of that change's KAFKA:msg event (its
// payload, or a null value for a TOMBSTONE). One per flight: a newer change
// replaces it.
type SchdMark struct {
	FLID         int64
	MsgID        int64 // the message of the change
	StateVersion int64
	EventType    string
	CreatedAt    time.Time
}

// PartitionKey is an event's partition key, its Kafka record key: the FLID
// as decimal text.
func PartitionKey(flid int64) string { return itoa(flid) }

// IdempotencyKey is rule 8 of docs/design.md: <CMINMSGS_ID>:<FLID>:<STATE_VERSION>:<TARGET>.
// The numbers are appended into a buffer on the stack: one allocation, the
// result, where three formatted numbers and their concatenation were four
// (an event and a schd mark per change).
func IdempotencyKey(msgID, flid, version int64, target string) string {
	var buf [64]byte
	b := strconv.AppendInt(buf[:0], msgID, 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, flid, 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, version, 10)
	b = append(b, ':')
	b = append(b, target...)
	return string(b)
}
