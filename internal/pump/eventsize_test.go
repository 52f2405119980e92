package pump

import (
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/msgx-aodb/msgx/internal/vocab"
	"github.com/stretchr/testify/require"
)

// limit is a small kafka.max-record-bytes: a flight's ordinary event fits,
// one with a VIP list of a hundred entries does not.
const limit = 4096

func manyGates(n int) []string {
	codes := make([]string, n)
	for i := range codes {
		codes[i] = fmt.Sprintf("G%03d", i)
	}
	return codes
}

var tooLargeReason = regexp.MustCompile(`^flight 1: its event would be \d+ bytes, over kafka.max-record-bytes 4096$`)

// requireTooLarge: the message is DEAD(PROTOCOL) at the first attempt,
// naming the flight, the size and the limit; it wrote nothing.
func requireTooLarge(t *testing.T, e *env, id int64) {
	t.Helper()
	m := e.msg(t, id)
	require.Equal(t, vocab.StatusDead, m.Status, "%s: %s", m.ErrorClass, m.Reason)
	require.Equal(t, string(vocab.ClassProtocol), m.ErrorClass)
	require.Regexp(t, tooLargeReason, m.Reason)
	require.Zero(t, m.Attempts, "refused at the first attempt")
	require.Empty(t, m.IdentityKey, "a refused message binds no identity")
	require.Empty(t, e.events(t, id))
}

// A message whose event would exceed kafka.max-record-bytes is refused,
// DEAD(PROTOCOL), nothing of it written; the flight keeps its state and the
// queue moves on. On the one-by-one path, in a batch (as one refusal among
// its outcomes, not a batch failure) and in a snapshot.
func TestEventOverRecordLimitIsProtocol(t *testing.T) {
	t.Parallel()
	commits := 0
	e := newEnv(t, func(c *Config) { c.MaxRecordBytes = limit })
	e.onCommit = func([]vocab.Backfill) { commits++ } // every commit here hands over todos
	e.Send(t, schd("DNLD", fltr(1, "<STND>A</STND>")))
	e.StepUntilWait(t)
	version := e.flight(t, 1).StateVersion

	// Alone: the only message of its run.
	alone := e.Send(t, flop("VIPF", 1, vipList(100)))
	e.StepUntilWait(t)
	requireTooLarge(t, e, alone)

	// In a batch between two changes of the same flight.
	commits = 0
	before := e.Send(t, flop("STND", 1, "<STND>B</STND>"))
	batched := e.Send(t, flop("VIPF", 1, vipList(100)))
	after := e.Send(t, flop("STND", 1, "<STND>C</STND>"))
	e.StepUntilWait(t)
	require.Equal(t, 1, commits, "the batch committed whole, the refusal one of its outcomes")
	requireTooLarge(t, e, batched)
	for id, n := range map[int64]int{before: 1, after: 2} {
		require.Equal(t, vocab.StatusSucceeded, e.msg(t, id).Status)
		require.Len(t, e.events(t, id), n, "message %d: KAFKA:msg, and the flight's KAFKA:schd mark on the last", id)
	}
	f := e.flight(t, 1)
	require.Equal(t, "C", f.Scalars["STND"].Raw, "the queue moved on")
	require.Empty(t, f.Payloads, "nothing of the refused messages was written")
	require.Equal(t, version+2, f.StateVersion, "one version per accepted change, none for the refused")

	// A snapshot: no flight, no generation.
	snap := e.Send(t, schd("DNLD", fltr(1, "<STND>C</STND>"), fltr(2, gates(manyGates(100)...))))
	e.StepUntilWait(t)
	m := e.msg(t, snap)
	require.Equal(t, vocab.StatusDead, m.Status, "%s: %s", m.ErrorClass, m.Reason)
	require.Regexp(t, `^flight 2: its event would be \d+ bytes, over kafka.max-record-bytes 4096$`, m.Reason)
	require.Empty(t, e.events(t, snap))
	require.Nil(t, e.flight(t, 2))
	gen, err := e.Store.SnapshotGen(t.Context(), time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC))
	require.NoError(t, err)
	require.EqualValues(t, 1, gen.Version, "the refused snapshot advanced no generation")
}

// Shadow mode writes no events, so no event can be too large: the limit
// does not apply and state is kept whole (state and events never diverge).
func TestShadowIgnoresRecordLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.MaxRecordBytes, c.Shadow = limit, true })
	e.Send(t, schd("DNLD", fltr(1)))
	id := e.Send(t, flop("VIPF", 1, vipList(100)))
	e.StepUntilWait(t)
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, id).Status)
	require.NotEmpty(t, e.flight(t, 1).Payloads["VIPF"].Content)
}
