package vocab

import "time"

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

// PartitionKey is an event's partition key, its Kafka record key: the FLID
// as decimal text.
func PartitionKey(flid int64) string { return itoa(flid) }

// IdempotencyKey is rule 8 of docs/design.md: <CMINMSGS_ID>:<FLID>:<STATE_VERSION>:<TARGET>.
func IdempotencyKey(msgID, flid, version int64, target string) string {
	return itoa(msgID) + ":" + itoa(flid) + ":" + itoa(version) + ":" + target
}
