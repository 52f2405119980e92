package apply

import "github.com/msgx-aodb/msgx/internal/sis"

// SliceRecords is the most records of a message applied and written at
// once: a FLOP of 300 000 records on known flights would otherwise hold a
// next state and its events for every record until the end. A message of
// more records is settled alone (CanBatch), a slice at a time inside its
// savepoint: a refusal in a later slice rolls the earlier ones back, so the
// message stays all-or-nothing, and each flight's final state, versions and
// events are those of the one-piece apply.
const SliceRecords = 1000

// recordCount is how many records (flights to delete included) a message
// carries.
func recordCount(msg *sis.Message) int {
	switch {
	case msg.FlightOps != nil:
		return len(msg.FlightOps.Records)
	case msg.Schedule != nil:
		return len(msg.Schedule.Flights)
	case msg.Delete != nil:
		return len(msg.Delete.Records)
	}
	return 0
}

// sliceOf is msg with only its records [from, to).
func sliceOf(msg *sis.Message, from, to int) *sis.Message {
	part := *msg
	switch {
	case msg.FlightOps != nil:
		ops := *msg.FlightOps
		ops.Records = ops.Records[from:to]
		part.FlightOps = &ops
	case msg.Schedule != nil:
		s := *msg.Schedule
		s.Flights = s.Flights[from:to]
		part.Schedule = &s
	case msg.Delete != nil:
		d := *msg.Delete
		d.Records = d.Records[from:to]
		part.Delete = &d
	}
	return &part
}
