package pgstore

import (
	"context"
	"strconv"
	"time"
	"unsafe"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/msgx-aodb/msgx/internal/store/pgstore/pgarg"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// eventSource is EventInsert's COPY source (issue #34): sqlc's iterator
// boxes each of a row's nine values into a new []interface{} (about seven
// allocations per event, and one more where pgx re-boxes the time to encode
// it). This one hands pgx pointers into one scratch row, which it encodes
// through their Valuer methods before it asks for the next row: no
// allocation per event. The row's columns are EventInsert's, in its order
// (TestEventSourceEncodesAsEventInsert).
type eventSource struct {
	events []vocab.NewEvent
	at     int
	row    struct {
		target, eventType, idempotencyKey, payload pgarg.Text
		partitionKey                               flidText
		msgID, flid, stateVersion                  pgarg.Int8
		createdAt                                  copyTime
	}
	values []any
}

func newEventSource(events []vocab.NewEvent) *eventSource {
	s := &eventSource{events: events, at: -1}
	r := &s.row
	s.values = []any{&r.target, &r.partitionKey, &r.eventType, &r.msgID, &r.flid, &r.stateVersion,
		&r.idempotencyKey, &r.payload, &r.createdAt}
	return s
}

func (s *eventSource) Next() bool {
	s.at++
	if s.at >= len(s.events) {
		return false
	}
	ev, r := &s.events[s.at], &s.row
	r.target, r.eventType, r.idempotencyKey = pgarg.Text(ev.Target), pgarg.Text(ev.EventType), pgarg.Text(ev.IdempotencyKey)
	r.partitionKey.set(ev.FLID)
	r.msgID, r.flid, r.stateVersion = pgarg.Int8(ev.MsgID), pgarg.Int8(ev.FLID), pgarg.Int8(ev.StateVersion)
	r.createdAt = copyTime(ev.CreatedAt)
	if ev.Payload == nil {
		s.values[7] = nil // NULL: a TOMBSTONE without payload
	} else {
		// The bytes as a string without a copy (a payload is a few KB): pgx
		// reads them into the COPY buffer before the next row.
		r.payload = pgarg.Text(unsafe.String(unsafe.SliceData(ev.Payload), len(ev.Payload)))
		s.values[7] = &r.payload
	}
	return true
}

func (s *eventSource) Values() ([]any, error) { return s.values, nil }

func (s *eventSource) Err() error { return nil }

// flidText is the partition key, the FLID as text (vocab.PartitionKey),
// formatted into the row's own bytes instead of a new string per event.
type flidText struct {
	buf [20]byte
	n   int
}

func (f *flidText) set(flid int64) { f.n = len(strconv.AppendInt(f.buf[:0], flid, 10)) }

func (f *flidText) TextValue() (pgtype.Text, error) {
	return pgtype.Text{String: unsafe.String(&f.buf[0], f.n), Valid: true}, nil
}

// copyTime is a timestamptz encoded as pgx encodes a time.Time (truncated to
// the microsecond), unlike pgarg.Timestamptz, which rounds as PostgreSQL
// reads text: the events keep the instants sqlc's iterator wrote.
type copyTime time.Time

func (t *copyTime) TimestamptzValue() (pgtype.Timestamptz, error) {
	return pgtype.Timestamptz{Time: time.Time(*t), Valid: true}, nil
}

// copyWith is a connection whose CopyFrom reads src instead of the source
// it is given: EventInsert names the table and columns (sqlc, from
// sql/postgres/queries), src gives the rows.
type copyWith struct {
	conn
	src pgx.CopyFromSource
}

func (c copyWith) CopyFrom(ctx context.Context, table pgx.Identifier, columns []string, _ pgx.CopyFromSource) (int64, error) {
	return c.conn.CopyFrom(ctx, table, columns, c.src)
}
