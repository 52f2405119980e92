package orastore

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"testing"
	"time"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

const eventCols = "EVENT_ID TARGET PARTITION_KEY EVENT_TYPE CMINMSGS_ID FLID STATE_VERSION IDEMPOTENCY_KEY PAYLOAD STATUS ATTEMPTS NEXT_ATTEMPT_AT LAST_ERROR CREATED_AT SENT_AT"

// TestOutbox: KAFKA:msg rows are inserted with a NULL status and a CLOB
// payload, read back PENDING; the watermark refuses a gap; a delivery
// failure's NULL status is PENDING.
func TestOutbox(t *testing.T) {
	now := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	f, s := newFake(t,
		answer{affected: 1},
		rows(eventCols, []driver.Value{number("11"), "KAFKA:msg", "7", "UPSERT", number("3"), number("7"), number("2"),
			"3:7:2:KAFKA:msg", `{"flid":7}`, nil, number("0"), nil, nil, now, nil}),
		answer{}, answer{affected: 1},
	)
	err := s.InsertEvents(ctx, []vocab.NewEvent{{Target: vocab.TargetMsg, EventType: "UPSERT", MsgID: 3, FLID: 7, StateVersion: 2,
		IdempotencyKey: "3:7:2:KAFKA:msg", Payload: []byte(`{"flid":7}`), CreatedAt: now}})
	if err != nil {
		t.Fatal(err)
	}
	a := f.calls[0].Args
	if a["status"] != nil || a["payload"] != clob(`{"flid":7}`) || a["partition_key"] != "7" {
		t.Errorf("insert binds %v", a)
	}
	evs, err := s.PendingEvents(ctx, vocab.TargetMsg, 10)
	if err != nil || len(evs) != 1 || evs[0].Status != vocab.EventPending || string(evs[0].Payload) != `{"flid":7}` || evs[0].ID != 11 {
		t.Fatalf("events %+v, %v", evs, err)
	}
	if f.calls[1].Args["after_event_id"] != int64(0) {
		t.Errorf("the head is after 0, never NULL: %v", f.calls[1].Args)
	}
	f.outs = []any{int64(1), int64(2), int64(0)}
	if err := s.MarkSent(ctx, store.MarkSentParams{Target: vocab.TargetMsg, IDs: []int64{12}, Now: now}); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a gap below the acknowledged event: %v", err)
	}
	f.outs = []any{sql.NullString{}, int64(1)}
	st, err := s.RecordDeliveryFailure(ctx, store.RecordDeliveryFailureParams{EventID: 11, MaxAttempts: 5, NextAttemptAt: now})
	if err != nil || st != vocab.EventPending {
		t.Errorf("status %q, %v", st, err)
	}
}
