package apply

import (
	"testing"

	"github.com/msgx-aodb/msgx/internal/vocab"
	"github.com/stretchr/testify/require"
)

// The history sweep's TOMBSTONE of an ACTIVE flight is the deletion by its
// last message would be — the same KAFKA:msg event and KAFKA:schd mark, the
// next state version, the last message's idempotency keys — without a
// payload.
func TestSweptTombstoneIsADeletionByTheLastMessage(t *testing.T) {
	t.Parallel()
	a := New(Config{Prune: true, Location: shanghai})
	w := setupWorld(t, a)
	before := *w.flights[1]
	out, err := w.one(a, envelope("FDEL", "NONE", "<FDEL><FLID>1</FLID></FDEL>"))
	require.NoError(t, err)
	require.Equal(t, vocab.StatusSucceeded, out.Status)
	deleted := eventsOf(w, w.nextID)
	require.Len(t, deleted, 2, "its KAFKA:msg event and its KAFKA:schd mark")
	require.NotEmpty(t, deleted[0].Payload, "the message's KAFKA:msg event carries the state")

	before.LastMessageID = w.nextID // as if the FDEL's message had been the flight's last
	e, m := SweptTombstone(&before, start)
	deleted[0].Payload = nil
	require.Equal(t, deleted, []vocab.NewEvent{e, schdRecord(m)})
	require.Equal(t, vocab.EventTombstone, m.EventType)
	require.Equal(t, before.StateVersion+1, m.StateVersion)
	require.Equal(t, vocab.IdempotencyKey(before.LastMessageID, before.FLID, before.StateVersion+1, vocab.TargetSchd), schdRecord(m).IdempotencyKey)
}

// A flight changed by several messages of a batch is marked once, for its
// last change; every change keeps its KAFKA:msg event.
func TestBatchMarksAFlightOnceForItsLastChange(t *testing.T) {
	t.Parallel()
	a := New(Config{Prune: true, Location: shanghai})
	w := setupWorld(t, a)
	ins := []Input{w.input(flop("STND", 1, "<STND>7</STND>")), w.input(flop("STND", 1, "<STND>8</STND>"))}
	states, err := w.Flights(t.Context(), []int64{1})
	require.NoError(t, err)
	wr, outs, err := a.Batch(ins, map[string]vocab.Holder{}, states, start)
	require.NoError(t, err)
	require.Equal(t, vocab.StatusSucceeded, outs[1].Status)
	require.Len(t, wr.Events, 2, "one KAFKA:msg event per change")
	require.Equal(t, []vocab.SchdMark{{FLID: 1, MsgID: ins[1].Msg.ID, StateVersion: wr.Events[1].StateVersion, EventType: vocab.EventUpsert, CreatedAt: start}},
		wr.SchdMarks, "one mark, the last change")
	require.Equal(t, wr.Events[0].StateVersion+1, wr.Events[1].StateVersion)
}
