package pgstore_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// An earlier release wrote a PENDING KAFKA:schd row per change (a rolling
// upgrade leaves some after the migration): AdoptSchdRows marks per flight
// the latest, unless the flight's mark names a later change, and removes
// the rows; the relay then delivers them like any mark.
func TestAdoptSchdRowsOfAnEarlierRelease(t *testing.T) {
	t.Parallel()
	pg := testdb.Postgres(t)
	s := pgstore.New(pg.Pool)
	at := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	msg := func(m, flid, v int64) vocab.NewEvent {
		return vocab.NewEvent{Target: vocab.TargetMsg, EventType: vocab.EventUpsert, MsgID: m, FLID: flid, StateVersion: v,
			IdempotencyKey: vocab.IdempotencyKey(m, flid, v, vocab.TargetMsg), Payload: []byte(`{}`), CreatedAt: at}
	}
	// Flight 10: v1 and v2 as the earlier release wrote them. Flight 11: v1
	// by the earlier release, then v2 by this one (its mark is newer).
	legacy := func(m, flid, v int64, minutes int) {
		require.NoError(t, s.InsertEvents(t.Context(), []vocab.NewEvent{msg(m, flid, v)}))
		_, err := pg.Pool.Exec(t.Context(), `INSERT INTO msg_event (target, partition_key, event_type, cminmsgs_id, flid,
			state_version, idempotency_key, status, created_at) VALUES ('KAFKA:schd', $1::bigint::text, 'UPSERT', $2, $1, $3, $4, 'PENDING', $5)`,
			flid, m, v, vocab.IdempotencyKey(m, flid, v, vocab.TargetSchd), at.Add(time.Duration(minutes)*time.Minute))
		require.NoError(t, err)
	}
	legacy(1, 10, 1, 0)
	legacy(2, 10, 2, 1)
	legacy(3, 11, 1, 2)
	require.NoError(t, s.InsertEvents(t.Context(), []vocab.NewEvent{msg(4, 11, 2)}))
	require.NoError(t, s.MarkSchd(t.Context(), []vocab.SchdMark{{FLID: 11, MsgID: 4, StateVersion: 2, EventType: vocab.EventUpsert, CreatedAt: at.Add(5 * time.Minute)}}))

	n, err := s.AdoptSchdRows(t.Context())
	require.NoError(t, err)
	require.Equal(t, 1, n, "flight 10 only: flight 11's mark names a later change")
	due, err := s.DueSchdMarks(t.Context(), store.DueSchdMarksParams{Now: at.Add(time.Hour), Max: 10})
	require.NoError(t, err)
	require.Len(t, due, 2)
	require.Equal(t, int64(10), due[0].FLID, "pending since its first change")
	require.Equal(t, int64(2), due[0].StateVersion, "the latest row stands for the older")
	require.Equal(t, int64(11), due[1].FLID)
	require.Equal(t, int64(2), due[1].StateVersion, "this release's newer change kept")
	lag, err := s.OutboxLag(t.Context())
	require.NoError(t, err)
	require.True(t, at.Equal(lag[1].Oldest), "flight 10 pending since its first legacy row")

	var left int
	require.NoError(t, pg.Pool.QueryRow(t.Context(), `SELECT count(*) FROM msg_event WHERE target = 'KAFKA:schd'`).Scan(&left))
	require.Zero(t, left, "the adopted rows are gone")
	n, err = s.AdoptSchdRows(t.Context())
	require.NoError(t, err)
	require.Zero(t, n, "nothing left to adopt")
}
