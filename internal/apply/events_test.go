package apply

import (
	"testing"

	"github.com/msgx-aodb/msgx/internal/vocab"
	"github.com/stretchr/testify/require"
)

// The history sweep's TOMBSTONE of an ACTIVE flight is the deletion by its
// last message would be — the same events on both targets, the next state
// version, the last message's idempotency keys — without a payload.
func TestSweptTombstonesAreADeletionByTheLastMessage(t *testing.T) {
	t.Parallel()
	a := New(Config{Prune: true, Location: shanghai})
	w := setupWorld(t, a)
	before := *w.flights[1]
	out, err := w.one(a, envelope("FDEL", "NONE", "<FDEL><FLID>1</FLID></FDEL>"))
	require.NoError(t, err)
	require.Equal(t, vocab.StatusSucceeded, out.Status)
	deleted := eventsOf(w, w.nextID)
	require.Len(t, deleted, 2)
	require.NotEmpty(t, deleted[0].Payload, "the message's KAFKA:msg event carries the state")

	before.LastMessageID = w.nextID // as if the FDEL's message had been the flight's last
	swept := SweptTombstones(&before, start)
	for i := range deleted {
		deleted[i].Payload = nil
	}
	require.Equal(t, deleted, swept[:])
	require.Equal(t, vocab.EventTombstone, swept[0].EventType)
	require.Equal(t, before.StateVersion+1, swept[1].StateVersion)
	require.Equal(t, vocab.IdempotencyKey(before.LastMessageID, before.FLID, before.StateVersion+1, vocab.TargetSchd), swept[1].IdempotencyKey)
}
