package pump

import (
	"testing"
	"time"

	"github.com/msgx-aodb/msgx/internal/vocab"
	"github.com/stretchr/testify/require"
)

// Shadow mode processes into msgx's own tables but registers no mailbox
// backfill and writes no outbox events; the same messages outside shadow
// mode do both (the control).
func TestShadowWritesStateButNoEventsOrBackfill(t *testing.T) {
	for _, shadow := range []bool{false, true} {
		e := newEnv(t, func(c *Config) { c.Shadow = shadow })
		dn := e.Send(t, schd("DNLD", fltr(501, "<STND>A1</STND>"), fltr(502)))
		fl := e.Send(t, flop("STND", 501, "<STND>B7</STND>"))
		e.StepUntilWait(t)

		for _, id := range []int64{dn, fl} {
			m, err := e.Store.Message(t.Context(), id)
			require.NoError(t, err)
			require.Equal(t, vocab.StatusSucceeded, m.Status, "shadow=%v msg %d", shadow, id)
		}
		states, err := e.Store.Flights(t.Context(), []int64{501, 502})
		require.NoError(t, err)
		require.Len(t, states, 2)
		require.Equal(t, "B7", states[501].Scalars["STND"].Raw)

		events, err := e.Store.EventsOfMessage(t.Context(), fl)
		require.NoError(t, err)
		todos, err := e.Store.DueBackfills(t.Context(), start.Add(time.Hour), 100)
		require.NoError(t, err)
		if shadow {
			require.Empty(t, events, "shadow mode writes no outbox events")
			require.Empty(t, todos, "shadow mode registers no backfill")
			require.Empty(t, e.todos, "shadow mode hands nothing to the backfiller")
		} else {
			require.Len(t, events, 1, "its KAFKA:msg event (the flight's schd mark apart)")
			require.Empty(t, todos, "above the backfill mark: no todo")
			require.Len(t, e.todos, 2, "handed to the backfiller")
		}
		st, err := e.Store.BackfillStats(t.Context())
		require.NoError(t, err)
		mark, err := e.Store.BackfillMark(t.Context())
		require.NoError(t, err)
		if shadow {
			require.Zero(t, st.Todos, "nothing outstanding: the mark follows the messages")
			require.Equal(t, fl, mark)
		} else {
			require.Equal(t, int64(2), st.Todos, "both outstanding until the backfiller moves the mark")
			require.Zero(t, mark)
		}
	}
}
