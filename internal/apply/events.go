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

// messageEvents appends a message's outbox events to events: per changed
// flight one per target, from the state the message computed (rule 7). When
// the Kafka record of one of them would exceed the limit, it returns the
// refusal instead, with events as they were: the broker could never take
// it, so the message is DEAD(PROTOCOL) with nothing written, rather than a
// state whose event can never be delivered. Sized as the relay builds the
// record (the wiring passes the Kafka adapter's measure), so what passes
// here the relay never finds too large.
func messageEvents(events []vocab.NewEvent, msgID int64, results []flight.Result, now time.Time, limit recordLimit) (_ []vocab.NewEvent, tooLarge string, err error) {
	before := len(events)
	for _, r := range results {
		if !r.Write || !r.Changed {
			continue
		}
		payload, err := flight.EventPayload(r.Next)
		if err != nil {
			return events[:before], "", fmt.Errorf("event payload of flight %d: %w", r.Next.FLID, err)
		}
		typ := vocab.EventUpsert
		if r.Next.Lifecycle == flight.Deleted {
			typ = vocab.EventTombstone
		}
		for _, e := range flightEvents(typ, msgID, r.Next.FLID, r.Next.StateVersion, payload, now) {
			if n := limit.exceeded(e, payload); n > 0 {
				return events[:before], fmt.Sprintf("flight %d: its event would be %d bytes, over kafka.max-record-bytes %d", r.Next.FLID, n, limit.max), nil
			}
			events = append(events, e)
		}
	}
	return events, "", nil
}

// flightEvents are the outbox events of one state of a flight, one per
// target (rule 7), for the message path and the history sweep alike: the
// state version orders them and the idempotency key, naming the message,
// deduplicates them (rule 8). The payload is stored once, on the KAFKA:msg
// event; the KAFKA:schd event's is its twin's (040_outbox.sql).
func flightEvents(typ string, msgID, flid, version int64, payload []byte, now time.Time) [2]vocab.NewEvent {
	var out [2]vocab.NewEvent
	for i, target := range [...]string{vocab.TargetMsg, vocab.TargetSchd} {
		out[i] = vocab.NewEvent{
			Target: target, EventType: typ, MsgID: msgID, FLID: flid, StateVersion: version, CreatedAt: now,
			IdempotencyKey: vocab.IdempotencyKey(msgID, flid, version, target),
		}
		if target == vocab.TargetMsg {
			out[i].Payload = payload
		}
	}
	return out
}

// SweptTombstones are the TOMBSTONE events of an ACTIVE flight the history
// sweep removes, as a deletion by its last message would be: the state
// version advances by one and the idempotency key names the last message,
// so consumers order and deduplicate it like any other event. It carries
// no payload (the flight's state moves to FLIGHT_HST).
func SweptTombstones(f *flight.State, now time.Time) [2]vocab.NewEvent {
	return flightEvents(vocab.EventTombstone, f.LastMessageID, f.FLID, f.StateVersion+1, nil, now)
}
