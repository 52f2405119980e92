package pump

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/apply"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// writeSpy records the largest flight and event writes through any
// transaction or savepoint of the store, and hands every flight written to
// largest.each when set.
type writeSpy struct {
	store.Store
	largest *largest
}

type largest struct {
	mu             sync.Mutex
	flights, evnts int
	written, calls int
	each           func(vocab.FlightWrite)
}

func (s writeSpy) Begin(ctx context.Context) (store.Tx, error) {
	tx, err := s.Store.Begin(ctx)
	return txSpy{tx, s.largest}, err
}

type txSpy struct {
	store.Tx
	largest *largest
}

func (t txSpy) Begin(ctx context.Context) (store.Tx, error) {
	sp, err := t.Tx.Begin(ctx)
	return txSpy{sp, t.largest}, err
}

func (t txSpy) WriteFlights(ctx context.Context, writes []vocab.FlightWrite, now time.Time) error {
	t.largest.mu.Lock()
	t.largest.flights = max(t.largest.flights, len(writes))
	t.largest.written += len(writes)
	t.largest.calls++
	if t.largest.each != nil {
		for _, w := range writes {
			t.largest.each(w)
		}
	}
	t.largest.mu.Unlock()
	return t.Tx.WriteFlights(ctx, writes, now)
}

func (t txSpy) InsertEvents(ctx context.Context, events []vocab.NewEvent) error {
	t.largest.mu.Lock()
	t.largest.evnts = max(t.largest.evnts, len(events))
	t.largest.mu.Unlock()
	return t.Tx.InsertEvents(ctx, events)
}

// A download is written in slices of flushChunk flights and events: one
// statement's rows are built in memory whole, so a download of tens of
// thousands of flights would otherwise hold a second copy of itself. Every
// flight is written once, with its events.
func TestLargeDownloadIsWrittenInSlices(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spy := writeSpy{Store: e.Store, largest: &largest{}}
	pump := New(spy, envReader{e}, nil, e.Clock, e.pump.log, e.pump.cfg)
	const n = 2*flushChunk + 1
	recs := make([]string, n)
	for i := range recs {
		recs[i] = fltr(int64(i + 1))
	}
	id := e.Send(t, schd("DNLD", recs...))
	_, err := pump.Step(t.Context())
	require.NoError(t, err)
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, id).Status)
	require.Equal(t, flushChunk, spy.largest.flights, "flights written a slice at a time")
	require.Equal(t, flushChunk, spy.largest.evnts, "events written a slice at a time")
	require.Equal(t, n, spy.largest.written, "every flight written once")
	evs := e.events(t, id)
	require.NotEmpty(t, evs)
	require.Zero(t, len(evs)%n, "as many events for every flight: %d for %d flights", len(evs), n)
	require.NotNil(t, e.flight(t, n))
	require.NotNil(t, e.flight(t, 1))
}

// A message of more than apply.SliceRecords records is applied a slice at a time
// (each slice's flights and events written before the next is computed),
// with the outcome of the one-piece apply: every record applied in order on
// the state the records before left, records of unknown flights named in
// the reason, one change per flight (rule 8).
func TestManyRecordsAreAppliedInSlices(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Send(t, dnld(3))
	e.StepUntilWait(t)
	spy := writeSpy{Store: e.Store, largest: &largest{}}
	pump := New(spy, envReader{e}, nil, e.Clock, e.pump.log, e.pump.cfg)
	const n = 2*apply.SliceRecords + 2
	var recs strings.Builder
	for r := range n - 2 {
		fmt.Fprintf(&recs, "<FLOP><FLID>%d</FLID><STND>%d</STND></FLOP>", r%3+1, r)
	}
	recs.WriteString("<FLOP><FLID>77</FLID><STND>1</STND></FLOP><FLOP><FLID>78</FLID><STND>1</STND></FLOP>")
	small := e.Send(t, flop("STND", 1, "<STND>X</STND>")) // batched before it
	id := e.Send(t, envelope("FLOP", "STND", recs.String()))
	after := e.Send(t, flop("STND", 2, "<STND>Y</STND>"))
	for range 10 {
		wait, err := pump.Step(t.Context())
		require.NoError(t, err)
		if wait > 0 {
			break
		}
	}
	m := e.msg(t, id)
	require.Equal(t, vocab.StatusSucceeded, m.Status)
	require.Equal(t, "no-match:flight:77,78", m.Reason)
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, small).Status)
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, after).Status)
	require.Equal(t, "1998", e.flight(t, 1).Scalars["STND"].Raw)
	require.Equal(t, "Y", e.flight(t, 2).Scalars["STND"].Raw)
	require.Equal(t, "1997", e.flight(t, 3).Scalars["STND"].Raw)
	require.Equal(t, int64(1+1+1), e.flight(t, 1).StateVersion, "created, X, then one version for the message (rule 8)")
	require.Len(t, e.events(t, id), 3+2, "a KAFKA:msg event per flight, each once; the marks of flights 1 and 3 (flight 2's names a later message)")
	require.Equal(t, 1+1+1, spy.largest.calls, "the small message, the last slice (every slice names flights 1-3: they are written once, there), the other small one")
}

// A refusal in the last slice refuses the whole message: nothing the
// slices before wrote stays, neither in the store nor in the state cache
// (the first slice's flights, which no later record names, were written
// before the refusal).
func TestRefusalInALaterSliceWritesNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Send(t, dnld(4))
	e.StepUntilWait(t)
	var recs []string
	for r := range 2 * apply.SliceRecords {
		flid := 4
		if r < apply.SliceRecords {
			flid = r%3 + 1
		}
		recs = append(recs, fmt.Sprintf("<FLTR><FLID>%d</FLID><STND>%d</STND></FLTR>", flid, r))
	}
	recs = append(recs, "<FLTR><FLID>99</FLID><STND>1</STND></FLTR>") // a new flight without SODT
	id := e.Send(t, schd("UPD", recs...))
	e.StepUntilWait(t)
	m := e.msg(t, id)
	require.Equal(t, vocab.StatusDead, m.Status)
	require.Contains(t, m.Reason, "flight 99: a new flight needs SODT")
	require.Equal(t, "201", e.flight(t, 1).Scalars["STND"].Raw, "the earlier slices are rolled back")
	require.Equal(t, int64(1), e.flight(t, 1).StateVersion)
	require.Empty(t, e.events(t, id))
	require.Equal(t, int64(1), e.pump.st.cache.entries[1].state.StateVersion)
	requireCacheMatchesStore(t, e)
}
