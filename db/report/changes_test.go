package report_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/db/report"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// FlightChanges lists a flight's KAFKA:msg events in order with their
// effective status (SENT up to the watermark), not other flights' events
// (KAFKA:schd is a pending mark per flight, never a msg_event row until
// it is dead).
func TestFlightChanges(t *testing.T) {
	t.Parallel()
	pool := testdb.Postgres(t).Pool
	ctx := t.Context()
	s := pgstore.New(pool)
	now := time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC)
	ev := func(msg, flid, version int64) vocab.NewEvent {
		return vocab.NewEvent{Target: vocab.TargetMsg, EventType: "UPSERT", MsgID: msg, FLID: flid, StateVersion: version, CreatedAt: now,
			IdempotencyKey: fmt.Sprintf("%d:%d:%d:%s", msg, flid, version, vocab.TargetMsg), Payload: []byte(`{"v":1}`)}
	}
	require.NoError(t, s.InsertEvents(ctx, []vocab.NewEvent{
		ev(1, 7, 1),
		ev(2, 8, 1),
		ev(3, 7, 2),
	}))
	head, err := s.PendingEvents(ctx, vocab.TargetMsg, 1)
	require.NoError(t, err)
	require.NoError(t, s.MarkSent(ctx, store.MarkSentParams{Target: vocab.TargetMsg, IDs: []int64{head[0].ID}, Now: now}))

	got, err := report.New().FlightChanges(ctx, pool, 7)
	require.NoError(t, err)
	require.Len(t, got, 2)
	require.EqualValues(t, 1, got[0].CminmsgsID)
	require.Equal(t, "SENT", got[0].Status)
	require.Equal(t, `{"v":1}`, *got[0].Payload)
	require.EqualValues(t, 2, got[1].StateVersion)
	require.Equal(t, "PENDING", got[1].Status)
}
