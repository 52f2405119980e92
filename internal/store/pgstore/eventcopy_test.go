package pgstore

import (
	"context"
	"testing"
	"time"
	"unsafe"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/db/postgres"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// copyCapture is a connection that keeps what CopyFrom is called with.
type copyCapture struct {
	postgres.DBTX
	columns []string
	src     pgx.CopyFromSource
}

func (c *copyCapture) CopyFrom(_ context.Context, _ pgx.Identifier, columns []string, src pgx.CopyFromSource) (int64, error) {
	c.columns, c.src = columns, src
	return 0, nil
}

func (c *copyCapture) Begin(context.Context) (pgx.Tx, error) { return nil, nil }

func sampleEvents() []vocab.NewEvent {
	at := time.Date(2026, 12, 4, 22, 0, 0, 123456789, time.UTC) // nanoseconds: truncated alike
	return []vocab.NewEvent{
		{Target: vocab.TargetMsg, EventType: vocab.EventUpsert, MsgID: 9000001, FLID: 123456, StateVersion: 7,
			IdempotencyKey: vocab.IdempotencyKey(9000001, 123456, 7, vocab.TargetMsg), Payload: []byte(`{"flid":123456}`), CreatedAt: at},
		{Target: vocab.TargetMsg, EventType: vocab.EventTombstone, MsgID: 9000002, FLID: -5, StateVersion: 300,
			IdempotencyKey: vocab.IdempotencyKey(9000002, -5, 300, vocab.TargetMsg), CreatedAt: at.Add(time.Second)},
		{Target: vocab.TargetMsg, EventType: vocab.EventUpsert, MsgID: 1, FLID: 9223372036854775807, StateVersion: 1,
			IdempotencyKey: "1:9223372036854775807:1:KAFKA:msg", Payload: []byte{}, CreatedAt: at},
	}
}

// The COPY source writes what sqlc's iterator for EventInsert wrote, column
// by column, byte for byte in pgx's binary encoding: a column added to or
// moved in the statement fails here.
func TestEventSourceEncodesAsEventInsert(t *testing.T) {
	events := sampleEvents()
	rows := make([]postgres.EventInsertParams, len(events))
	for i, ev := range events {
		var payload *string
		if ev.Payload != nil {
			p := string(ev.Payload)
			payload = &p
		}
		rows[i] = postgres.EventInsertParams{
			Target: ev.Target, PartitionKey: vocab.PartitionKey(ev.FLID), EventType: ev.EventType,
			CminmsgsID: ev.MsgID, Flid: ev.FLID, StateVersion: ev.StateVersion,
			IdempotencyKey: ev.IdempotencyKey, Payload: payload, CreatedAt: ev.CreatedAt,
		}
	}
	sqlc := &copyCapture{}
	_, err := postgres.New().EventInsert(t.Context(), sqlc, rows)
	require.NoError(t, err)
	ours := &copyCapture{}
	_, err = postgres.New().EventInsert(t.Context(), copyWith{conn: ours, src: newEventSource(events)}, nil)
	require.NoError(t, err)
	require.Equal(t, sqlc.columns, ours.columns)

	oids := map[string]uint32{
		"target": pgtype.VarcharOID, "partition_key": pgtype.VarcharOID, "event_type": pgtype.VarcharOID,
		"cminmsgs_id": pgtype.Int8OID, "flid": pgtype.Int8OID, "state_version": pgtype.Int8OID,
		"idempotency_key": pgtype.VarcharOID, "payload": pgtype.TextOID, "created_at": pgtype.TimestamptzOID,
	}
	m := pgtype.NewMap()
	encode := func(col string, v any) []byte {
		oid, ok := oids[col]
		require.True(t, ok, "column %s: add its type here", col)
		b, err := m.Encode(oid, pgtype.BinaryFormatCode, v, nil)
		require.NoError(t, err, col)
		return b
	}
	for i := range events {
		require.True(t, sqlc.src.Next())
		require.True(t, ours.src.Next())
		want, err := sqlc.src.Values()
		require.NoError(t, err)
		got, err := ours.src.Values()
		require.NoError(t, err)
		require.Len(t, got, len(want))
		for c, col := range sqlc.columns {
			require.Equal(t, encode(col, want[c]), encode(col, got[c]), "event %d, column %s", i, col)
		}
	}
	require.False(t, sqlc.src.Next())
	require.False(t, ours.src.Next())
}

// A row costs no allocation to hand to pgx and encode (sqlc's iterator:
// about eight per event).
func TestEventSourceAllocatesNothingPerEvent(t *testing.T) {
	events := make([]vocab.NewEvent, 0, 300)
	for len(events) < cap(events) {
		events = append(events, sampleEvents()...)
	}
	m := pgtype.NewMap()
	oids := []uint32{pgtype.VarcharOID, pgtype.VarcharOID, pgtype.VarcharOID, pgtype.Int8OID, pgtype.Int8OID,
		pgtype.Int8OID, pgtype.VarcharOID, pgtype.TextOID, pgtype.TimestamptzOID}
	buf := make([]byte, 0, 1<<16)
	src := newEventSource(events)
	allocs := testing.AllocsPerRun(10, func() {
		src.at = -1
		for src.Next() {
			values, _ := src.Values()
			buf = buf[:0]
			for c, v := range values {
				if v == nil {
					continue // pgx writes NULL itself
				}
				var err error
				if buf, err = m.Encode(oids[c], pgtype.BinaryFormatCode, v, buf); err != nil {
					panic(err)
				}
			}
		}
	})
	require.Zero(t, allocs/float64(len(events)), "allocations per event")
}

// BenchmarkEventCopySource: msgx's CPU and allocations to hand a flush's
// events to pgx and encode them as COPY does, sqlc's iterator against
// eventSource (docs/dev/performance-notes.md).
func BenchmarkEventCopySource(b *testing.B) {
	events := make([]vocab.NewEvent, 0, 300)
	for len(events) < cap(events) {
		events = append(events, sampleEvents()...)
	}
	for i := range events {
		events[i].Payload = make([]byte, 1660)
	}
	m := pgtype.NewMap()
	buf := make([]byte, 0, 1<<20)
	encode := func(b *testing.B, columns []string, src pgx.CopyFromSource) {
		oids := map[string]uint32{"cminmsgs_id": pgtype.Int8OID, "flid": pgtype.Int8OID, "state_version": pgtype.Int8OID,
			"payload": pgtype.TextOID, "created_at": pgtype.TimestamptzOID}
		buf = buf[:0]
		for src.Next() {
			values, _ := src.Values()
			for c, v := range values {
				if v == nil {
					continue
				}
				oid, ok := oids[columns[c]]
				if !ok {
					oid = pgtype.VarcharOID
				}
				var err error
				if buf, err = m.Encode(oid, pgtype.BinaryFormatCode, v, buf); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	b.Run("sqlc", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			// What InsertEvents built before eventSource.
			rows := make([]postgres.EventInsertParams, len(events))
			payloads := make([]string, len(events))
			for i, ev := range events {
				payloads[i] = unsafe.String(unsafe.SliceData(ev.Payload), len(ev.Payload))
				rows[i] = postgres.EventInsertParams{
					Target: ev.Target, PartitionKey: vocab.PartitionKey(ev.FLID), EventType: ev.EventType,
					CminmsgsID: ev.MsgID, Flid: ev.FLID, StateVersion: ev.StateVersion,
					IdempotencyKey: ev.IdempotencyKey, Payload: &payloads[i], CreatedAt: ev.CreatedAt,
				}
			}
			c := &copyCapture{}
			_, _ = postgres.New().EventInsert(b.Context(), c, rows)
			encode(b, c.columns, c.src)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(events)), "ns/event")
	})
	b.Run("eventSource", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			c := &copyCapture{}
			_, _ = postgres.New().EventInsert(b.Context(), copyWith{conn: c, src: newEventSource(events)}, nil)
			encode(b, c.columns, c.src)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(events)), "ns/event")
	})
}
