package pump

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// countingReader counts how often each mailbox row is read.
type countingReader struct {
	r     RawReader
	mu    sync.Mutex
	reads map[int64]int
}

func (c *countingReader) ReadRaws(ctx context.Context, ids []int64) (map[int64][]byte, error) {
	c.mu.Lock()
	for _, id := range ids {
		c.reads[id]++
	}
	c.mu.Unlock()
	return c.r.ReadRaws(ctx, ids)
}

func (c *countingReader) RawSizes(ctx context.Context, ids []int64) (map[int64]int, error) {
	return c.r.RawSizes(ctx, ids)
}

// aheadSpy records the ids the pump read ahead after.
type aheadSpy struct {
	store.Store
	mu     sync.Mutex
	afters []int64
}

func (s *aheadSpy) PendingAfter(ctx context.Context, after int64, max int) ([]int64, error) {
	s.mu.Lock()
	s.afters = append(s.afters, after)
	s.mu.Unlock()
	return s.Store.PendingAfter(ctx, after, max)
}

// When the queue holds more than a run, the next run is read and decoded
// while the current one commits, and the next step takes it from there:
// every message is read from the mailbox exactly once, and the outcome is
// the one without read-ahead (each flight ends with its last stand).
func TestPumpReadsTheNextRunAhead(t *testing.T) {
	e := newEnv(t)
	e.Send(t, dnld(3))
	e.StepUntilWait(t)
	var ids []int64
	for i := range 6 {
		ids = append(ids, e.Send(t, flop("STND", int64(i%3+1), fmt.Sprintf("<STND>%d</STND>", 200+i))))
	}
	reader := &countingReader{r: e.Mailbox, reads: map[int64]int{}}
	spy := &aheadSpy{Store: e.Store}
	cfg := e.pump.cfg
	cfg.RunLength = 2
	pump := New(spy, reader, nil, e.Clock, slog.New(slog.NewTextHandler(io.Discard, nil)), cfg)
	for {
		wait, err := pump.Step(t.Context())
		require.NoError(t, err)
		if wait > 0 {
			break
		}
	}
	pump.st.takeAhead() // the read-ahead after the last run, which found nothing

	require.Equal(t, []int64{ids[1], ids[3], ids[5]}, spy.afters, "each full run read the next one ahead")
	for _, id := range ids {
		require.Equal(t, 1, reader.reads[id], "message %d read once", id)
		require.Equal(t, vocab.StatusSucceeded, e.msg(t, id).Status)
	}
	for flid, stand := range map[int64]string{1: "203", 2: "204", 3: "205"} {
		require.Equal(t, stand, e.flight(t, flid).Scalars["STND"].Raw, "flight %d", flid)
	}
}
