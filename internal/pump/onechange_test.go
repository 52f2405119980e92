package pump

import (
	"testing"

	"github.com/msgx-aodb/msgx/internal/vocab"
	"github.com/stretchr/testify/require"
)

// A message naming a flight more than once changes it once (rule 8): a
// FLOP/STND with two records of flight 1 (STND 14, then 15) advances its
// STATE_VERSION by one and writes one KAFKA:msg and one KAFKA:schd event,
// of the last record's state; an FDEL naming it twice tombstones it once.
func TestMessageNamingAFlightTwiceChangesItOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Send(t, schd("DNLD", fltr(1, "<STND>201</STND>")))
	e.StepUntilWait(t)
	require.Equal(t, int64(1), e.flight(t, 1).StateVersion)

	id := e.Send(t, envelope("FLOP", "STND", "<FLOP><FLID>1</FLID><STND>14</STND></FLOP><FLOP><FLID>1</FLID><STND>15</STND></FLOP>"))
	e.StepUntilWait(t)
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, id).Status)
	f := e.flight(t, 1)
	require.Equal(t, "15", f.Scalars["STND"].Raw)
	require.Equal(t, int64(2), f.StateVersion, "one version for the message")
	evs := e.events(t, id)
	require.Len(t, evs, 2)
	targets := map[string]bool{}
	for _, ev := range evs {
		require.Equal(t, int64(2), ev.StateVersion)
		targets[ev.Target] = true
	}
	require.Equal(t, map[string]bool{vocab.TargetMsg: true, vocab.TargetSchd: true}, targets)

	back := e.Send(t, envelope("FLOP", "STND", "<FLOP><FLID>1</FLID><STND>16</STND></FLOP><FLOP><FLID>1</FLID><STND>15</STND></FLOP>"))
	e.StepUntilWait(t)
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, back).Status)
	require.Equal(t, int64(2), e.flight(t, 1).StateVersion, "records that cancel out change nothing")
	require.Empty(t, e.events(t, back))

	del := e.Send(t, envelope("FDEL", "NONE", "<FDEL><FLID>1</FLID></FDEL><FDEL><FLID>1</FLID></FDEL>"))
	e.StepUntilWait(t)
	require.Equal(t, int64(3), e.flight(t, 1).StateVersion)
	require.Len(t, e.events(t, del), 2)
}
