package pipeline

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store"
)

// writeSpy records the largest flight and event writes through any
// transaction or savepoint of the store.
type writeSpy struct {
	store.Store
	largest *largest
}

type largest struct {
	mu             sync.Mutex
	flights, evnts int
	written        int
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

func (t txSpy) WriteFlights(ctx context.Context, writes []store.FlightWrite, now time.Time) error {
	t.largest.mu.Lock()
	t.largest.flights = max(t.largest.flights, len(writes))
	t.largest.written += len(writes)
	t.largest.mu.Unlock()
	return t.Tx.WriteFlights(ctx, writes, now)
}

func (t txSpy) InsertEvents(ctx context.Context, events []store.NewEvent) error {
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
	spy := writeSpy{Store: e.st, largest: &largest{}}
	pump := NewPump(spy, envReader{e}, nil, e.clk, e.pump.log, e.pump.cfg)
	const n = 2*flushChunk + 1
	recs := make([]string, n)
	for i := range recs {
		recs[i] = fltr(int64(i + 1))
	}
	id := e.send(t, schd("DNLD", recs...))
	_, err := pump.Step(t.Context())
	require.NoError(t, err)
	require.Equal(t, store.StatusSucceeded, e.msg(t, id).Status)
	require.Equal(t, flushChunk, spy.largest.flights, "flights written a slice at a time")
	require.Equal(t, flushChunk, spy.largest.evnts, "events written a slice at a time")
	require.Equal(t, n, spy.largest.written, "every flight written once")
	evs := e.events(t, id)
	require.NotEmpty(t, evs)
	require.Zero(t, len(evs)%n, "as many events for every flight: %d for %d flights", len(evs), n)
	require.NotNil(t, e.flight(t, n))
	require.NotNil(t, e.flight(t, 1))
}
