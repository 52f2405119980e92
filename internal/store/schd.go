package store

import (
	"fmt"

	"github.com/msgx-aodb/msgx/internal/vocab"
)

// OnlyMsg refuses a per-event outbox operation on a target other than
// KAFKA:msg: KAFKA:schd is delivered from its marks (MarkSchd).
func OnlyMsg(target string) error {
	if target != vocab.TargetMsg {
		return fmt.Errorf("%w: %s is delivered from its marks, not per event", ErrConflict, target)
	}
	return nil
}

// SchdEvent is a pending mark as the KAFKA:schd event the relay produces:
// the record of the change it names, with the EVENT_ID and the payload of
// the change's KAFKA:msg event.
func SchdEvent(m vocab.SchdMark, eventID int64, payload []byte) Event {
	return Event{
		NewEvent: vocab.NewEvent{
			Target: vocab.TargetSchd, EventType: m.EventType, MsgID: m.MsgID, FLID: m.FLID, StateVersion: m.StateVersion,
			IdempotencyKey: vocab.IdempotencyKey(m.MsgID, m.FLID, m.StateVersion, vocab.TargetSchd),
			Payload:        payload, CreatedAt: m.CreatedAt,
		},
		ID: eventID, PartitionKey: vocab.PartitionKey(m.FLID), Status: vocab.EventPending,
	}
}
