package apply

import (
	"fmt"
	"time"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// recordLimit is kafka.max-record-bytes and the measure of an event's
// record against it (Config.MaxRecordBytes, EventBytes).
type recordLimit struct {
	max  int // 0: no limit
	size func(e vocab.NewEvent, payload []byte) int
}

// exceeded returns the record size of e when over the limit, else 0.
func (l recordLimit) exceeded(e vocab.NewEvent, payload []byte) int {
	if l.max <= 0 {
		return 0
	}
	n := len(payload)
	if l.size != nil {
		n = l.size(e, payload)
	}
	if n > l.max {
		return n
	}
	return 0
}

// messageEvents appends a message's outbox writes: per changed flight its
// KAFKA:msg event and its KAFKA:schd mark, from the state the message
// computed (rule 7), the event's payload written into payloads. When the
// Kafka record of one of them would exceed the limit, it returns the
// refusal instead, with events and marks as they were: the broker could
// never take it, so the message is DEAD(PROTOCOL) with nothing written,
// rather than a state whose record can never be delivered. Sized as the
// relay builds the record (the wiring passes the Kafka adapter's measure),
// so what passes here the relay never finds too large.
func messageEvents(events []vocab.NewEvent, marks []vocab.SchdMark, msgID int64, results []flight.Result, now time.Time, limit recordLimit, payloads *payloadArena) (_ []vocab.NewEvent, _ []vocab.SchdMark, tooLarge string, err error) {
	beforeEvents, beforeMarks := len(events), len(marks)
	for _, r := range results {
		if !r.Write || !r.Changed {
			continue
		}
		room := payloads.take(flight.ChangePayloadRoom(r.Next))
		payload, err := flight.ChangePayload(r.Next, room) // reuses the JSON of the lists r left alone
		if err != nil {
			return events[:beforeEvents], marks[:beforeMarks], "", fmt.Errorf("event payload of flight %d: %w", r.Next.FLID, err)
		}
		payloads.keep(room, payload)
		typ := vocab.EventUpsert
		if r.Next.Lifecycle == flight.Deleted {
			typ = vocab.EventTombstone
		}
		e, m := flightChange(typ, msgID, r.Next.FLID, r.Next.StateVersion, payload, now)
		for _, sized := range [...]vocab.NewEvent{e, schdRecord(m)} {
			if n := limit.exceeded(sized, payload); n > 0 {
				return events[:beforeEvents], marks[:beforeMarks], fmt.Sprintf("flight %d: its event would be %d bytes, over kafka.max-record-bytes %d", r.Next.FLID, n, limit.max), nil
			}
		}
		events, marks = append(events, e), append(marks, m)
	}
	return events, marks, "", nil
}

// flightChange is what one state of a flight writes to the outbox, for the
// message path and the history sweep alike: its KAFKA:msg event, which
// stores the payload, and its KAFKA:schd mark, whose record carries that
// payload (rule 8: one mark per flight, the latest change wins). The state
// version orders them and the idempotency key, naming the message,
// deduplicates them.
func flightChange(typ string, msgID, flid, version int64, payload []byte, now time.Time) (vocab.NewEvent, vocab.SchdMark) {
	return vocab.NewEvent{
			Target: vocab.TargetMsg, EventType: typ, MsgID: msgID, FLID: flid, StateVersion: version, CreatedAt: now,
			IdempotencyKey: vocab.IdempotencyKey(msgID, flid, version, vocab.TargetMsg), Payload: payload,
		}, vocab.SchdMark{
			FLID: flid, MsgID: msgID, StateVersion: version, EventType: typ, CreatedAt: now,
		}
}

// schdRecord is a mark as the event its record is built from (sized
// against the limit; its payload is given apart).
func schdRecord(m vocab.SchdMark) vocab.NewEvent {
	return vocab.NewEvent{
		Target: vocab.TargetSchd, EventType: m.EventType, MsgID: m.MsgID, FLID: m.FLID, StateVersion: m.StateVersion, CreatedAt: m.CreatedAt,
		IdempotencyKey: vocab.IdempotencyKey(m.MsgID, m.FLID, m.StateVersion, vocab.TargetSchd),
	}
}

// SweptTombstone is the TOMBSTONE of an ACTIVE flight the history sweep
// removes, as a deletion by its last message would be: the state version
// advances by one and the idempotency key names the last message, so
// consumers order and deduplicate it like any other event. It carries no
// payload (the flight's state moves to FLIGHT_HST).
func SweptTombstone(f *flight.State, now time.Time) (vocab.NewEvent, vocab.SchdMark) {
	return flightChange(vocab.EventTombstone, f.LastMessageID, f.FLID, f.StateVersion+1, nil, now)
}
