package pump

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/flight"
)

// A flight's times are kept at the store's precision from the start: the
// first event (one-by-one path, computed in memory), later events (batch
// path, cached state) and a read of the row all carry the same created_at.
func TestEventTimesHaveTheStorePrecision(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Clock.Advance(333858553 * time.Nanosecond)
	dnld := e.Send(t, schd("DNLD", fltr(1)))
	e.StepUntilWait(t)
	e.Clock.Advance(time.Second + 7*time.Nanosecond)
	stnd := e.Send(t, flop("STND", 1, "<STND>5</STND>"))
	e.StepUntilWait(t)

	createdAt := func(payload []byte) string {
		var p struct {
			CreatedAt string `json:"created_at"`
			UpdatedAt string `json:"updated_at"`
		}
		require.NoError(t, json.Unmarshal(payload, &p))
		require.NotContains(t, p.UpdatedAt, "553", "updated_at keeps microseconds only: %s", p.UpdatedAt)
		return p.CreatedAt
	}
	first := createdAt(e.events(t, dnld)[0].Payload)
	later := createdAt(e.events(t, stnd)[0].Payload)
	read, err := flight.EventPayload(e.flight(t, 1))
	require.NoError(t, err)
	require.Equal(t, first, later)
	require.Equal(t, first, createdAt(read))
	got, err := time.Parse(time.RFC3339Nano, first)
	require.NoError(t, err)
	require.True(t, got.Equal(start.Add(333858*time.Microsecond)), "created_at %s", first)
}
