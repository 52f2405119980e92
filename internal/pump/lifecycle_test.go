package pump

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// A FLOP for a DELETED flight changes nothing and emits nothing; only a
// schedule record brings the flight back (processing contract, rule 5).
func TestFlightOpsOnDeletedFlightAreSkipped(t *testing.T) {
	t.Parallel()
	for _, path := range []struct {
		name string
		run  int
	}{{"batch", 1000}, {"one by one", 1}} {
		t.Run(path.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, func(c *Config) { c.RunLength = path.run })
			e.Send(t, schd("DNLD", fltr(1, "<STND>1</STND>"), fltr(2)))
			del := e.Send(t, envelope("FDEL", "NONE", "<FDEL><FLID>1</FLID></FDEL>"))
			late := e.Send(t, flop("STND", 1, "<STND>7</STND>"))
			again := e.Send(t, flop("STND", 1, "<STND>8</STND>"))
			mixed := e.Send(t, envelope("FLOP", "STND",
				"<FLOP><FLID>1</FLID><STND>9</STND></FLOP><FLOP><FLID>2</FLID><STND>5</STND></FLOP><FLOP><FLID>77</FLID><STND>5</STND></FLOP>"))
			e.StepUntilWait(t)

			require.Equal(t, vocab.StatusSucceeded, e.msg(t, del).Status)
			deleted := e.flight(t, 1)
			require.Equal(t, flight.Deleted, deleted.Lifecycle)
			for _, id := range []int64{late, again} {
				m := e.msg(t, id)
				require.Equal(t, vocab.StatusSkipped, m.Status, "message %d", id)
				require.Equal(t, "no-match:flight-deleted", m.Reason)
				require.Empty(t, e.events(t, id), "no further TOMBSTONE")
			}
			got := e.flight(t, 1)
			require.Equal(t, deleted.StateVersion, got.StateVersion)
			require.Equal(t, "1", got.Scalars["STND"].Raw)

			m := e.msg(t, mixed)
			require.Equal(t, vocab.StatusSucceeded, m.Status)
			require.Equal(t, "no-match:flight:77 no-match:flight-deleted:1", m.Reason)
			require.Len(t, e.events(t, mixed), 2, "only flight 2 changed")
			require.Equal(t, "5", e.flight(t, 2).Scalars["STND"].Raw)

			revive := e.Send(t, schd("UPD", fltr(1, "<STND>3</STND>")))
			e.StepUntilWait(t)
			require.Equal(t, vocab.StatusSucceeded, e.msg(t, revive).Status)
			back := e.flight(t, 1)
			require.Equal(t, flight.Active, back.Lifecycle, "a schedule record revives it")
			require.Equal(t, "3", back.Scalars["STND"].Raw)
		})
	}
}
