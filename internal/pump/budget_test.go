package pump

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/decode"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// paddedFlop is a stand change of about size bytes: a valid FLOP whose bulk
// is an XML comment (the codec reads past it; the message holds it).
func paddedFlop(flid int64, stand string, size int) string {
	msg := flop("STND", flid, "<STND>"+stand+"</STND>", "<!---->")
	return strings.Replace(msg, "<!---->", "<!--"+strings.Repeat("x", max(size-len(msg), 0))+"-->", 1)
}

// byteCounter counts the raw bytes the pump reads, per read.
type byteCounter struct {
	r     rawReads
	mu    sync.Mutex
	reads []read
}

type read struct{ bytes, messages int }

func (c *byteCounter) ReadRaws(ctx context.Context, ids []int64) (map[int64][]byte, error) {
	raws, err := c.r.ReadRaws(ctx, ids)
	n := 0
	for _, raw := range raws {
		n += len(raw)
	}
	c.mu.Lock()
	c.reads = append(c.reads, read{n, len(raws)})
	c.mu.Unlock()
	return raws, err
}

// take returns the reads since the last take.
func (c *byteCounter) take() []read {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.reads
	c.reads = nil
	return r
}

// A run is cut at pipeline.run-bytes of raw XML, read in chunks of a
// quarter of it: a step never reads more than the budget, except a head
// larger than the budget, which is taken alone (never starved). The outcome
// is the one without a budget: every message applied, in order. A step that
// read a quarter of the budget or more returns memory to the OS.
func TestRunIsCutByBytes(t *testing.T) {
	t.Parallel()
	const budget = 40_000
	e := newEnv(t, func(c *Config) { c.RunBytes = budget })
	releases := 0
	e.pump.release = func() { releases++ }
	e.Send(t, dnld(3))
	e.StepUntilWait(t)
	counter := &byteCounter{r: e.Mailbox}
	e.useRaw(counter)
	releases = 0

	var ids []int64
	sizes := map[int64]int{}
	send := func(flid int64, stand string, size int) {
		xml := paddedFlop(flid, stand, size)
		id := e.Send(t, xml)
		ids = append(ids, id)
		sizes[id] = len(xml)
	}
	for i := range 16 {
		send(int64(i%3+1), fmt.Sprint(100+i), 4_500)
	}
	send(1, "900", 3*budget) // a head over the budget
	send(2, "901", 4_500)
	send(3, "902", 300) // small: the last step reads less than a quarter

	var steps [][]read
	for range 100 {
		wait, err := e.pump.Step(t.Context())
		require.NoError(t, err)
		steps = append(steps, counter.take())
		if wait > 0 {
			break
		}
	}
	for i, reads := range steps {
		total := 0
		for _, r := range reads {
			if r.messages > 1 {
				require.LessOrEqual(t, r.bytes, budget/4, "step %d: a read of several messages is at most a chunk", i)
			}
			total += r.bytes
		}
		if total > budget {
			require.Len(t, reads, 1, "step %d read %d bytes: only a head over the budget, alone", i, total)
			require.Equal(t, sizes[ids[16]], total)
		}
	}
	// 16 messages of 4 500 bytes: eight per run, read two per chunk; then
	// the large head alone, then the last two together.
	require.Equal(t, 4, len(steps)-1, "steps that processed a run: %v", steps)
	require.Equal(t, []read{{9_000, 2}, {9_000, 2}, {9_000, 2}, {9_000, 2}}, steps[0])

	for _, id := range ids {
		require.Equal(t, vocab.StatusSucceeded, e.msg(t, id).Status, "message %d", id)
	}
	for flid, stand := range map[int64]string{1: "900", 2: "901", 3: "902"} {
		require.Equal(t, stand, e.flight(t, flid).Scalars["STND"].Raw, "flight %d", flid)
	}
	require.Equal(t, 3, releases, "every step but the last (4 800 bytes, under a quarter) returned memory")
}

// The run's prefix that fits the budget: at least the head when it must be
// taken, nothing over the budget otherwise; chunks of at most the limit, a
// larger message alone.
func TestFitBudgetAndChunks(t *testing.T) {
	t.Parallel()
	sizes := map[int64]int{1: 50, 2: 30, 3: 30, 4: 200, 5: 10}
	size := func(id int64) int { return sizes[id] }
	ids := []int64{1, 2, 3, 4, 5}
	require.Equal(t, 2, fitBudget(ids, size, 100, true))
	require.Equal(t, 3, fitBudget(ids, size, 110, true))
	require.Equal(t, 1, fitBudget(ids[3:], size, 100, true), "a head over the budget alone")
	require.Equal(t, 0, fitBudget(ids[3:], size, 100, false), "a read-ahead takes nothing over the budget")
	require.Equal(t, 5, fitBudget(ids, size, 1000, false))

	require.Equal(t, [][]int64{{1, 2}, {3}, {4}, {5}}, chunks(ids, sizes, 80))
	require.Equal(t, [][]int64{{1, 2, 3, 4, 5}}, chunks(ids, sizes, 1000))
	require.Nil(t, chunks(nil, sizes, 80))
}

// A read-ahead keeps to the budget too: it takes the next messages that fit
// (here one of two), and the step takes the rest itself; every message is
// read once and the outcome is the same.
func TestReadAheadKeepsToTheBudget(t *testing.T) {
	t.Parallel()
	const budget = 10_000
	e := newEnv(t, func(c *Config) { c.RunBytes, c.RunLength = budget, 2 })
	e.Send(t, dnld(2))
	e.StepUntilWait(t)
	counter := &byteCounter{r: e.Mailbox}
	e.useRaw(counter)
	reads := &countingReader{r: envReader{e}, reads: map[int64]int{}}
	spy := &aheadSpy{Store: e.Store}
	pump := New(spy, reads, nil, e.Clock, e.pump.log, e.pump.cfg)

	ids := []int64{
		e.Send(t, flop("STND", 1, "<STND>1</STND>")), e.Send(t, flop("STND", 2, "<STND>2</STND>")), // a full run: read ahead
		e.Send(t, paddedFlop(1, "3", 6_000)), e.Send(t, paddedFlop(2, "4", 6_000)), // only one fits the budget
		e.Send(t, paddedFlop(1, "5", 2*budget)), // over the budget: never read ahead
	}
	_, err := pump.Step(t.Context())
	require.NoError(t, err)
	require.Equal(t, []int64{ids[1]}, spy.afters, "the full run read ahead")
	ra := pump.st.ahead
	<-ra.done
	require.Len(t, ra.got, 1, "only the first message after the run fits the budget")
	require.Contains(t, ra.got, ids[2])
	require.Equal(t, ra.got[ids[2]].size, ra.read)
	for {
		wait, err := pump.Step(t.Context())
		require.NoError(t, err)
		if wait > 0 {
			break
		}
	}
	pump.st.takeAhead()
	for _, r := range counter.take() {
		require.True(t, r.bytes <= budget || r.messages == 1, "a read of %d messages, %d bytes", r.messages, r.bytes)
	}
	for _, id := range ids {
		require.Equal(t, 1, reads.reads[id], "message %d read once", id)
		require.Equal(t, vocab.StatusSucceeded, e.msg(t, id).Status)
	}
	require.Equal(t, "5", e.flight(t, 1).Scalars["STND"].Raw)
	require.Equal(t, "4", e.flight(t, 2).Scalars["STND"].Raw)
}

// A decoded message's values are substrings of its XML: the state cache
// keeps the states a large message wrote as copies that own their strings
// (they would keep the whole message alive), a small message's as written;
// the batch's input list the pump keeps holds nothing, and the META kept
// for the backfill is a copy.
func TestLargeMessagesAreNotKeptAlive(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Send(t, dnld(2))
	e.StepUntilWait(t)
	// Where each flight's STND value pointed when it was written (the
	// message's memory, for a decoded value).
	stands := map[int64]*byte{}
	e.pump.store = writeSpy{Store: e.Store, largest: &largest{each: func(w vocab.FlightWrite) {
		stands[w.State.FLID] = unsafe.StringData(w.State.Scalars["STND"].Raw)
	}}}
	large := e.Send(t, paddedFlop(1, "7", 2*pinBytes))
	small := e.Send(t, flop("STND", 2, "<STND>8</STND>"))
	e.StepUntilWait(t)
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, large).Status)
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, small).Status)
	require.Equal(t, "7", e.flight(t, 1).Scalars["STND"].Raw)
	require.Len(t, stands, 2, "the two FLOPs went as one batch")
	for flid, written := range stands {
		cached := e.pump.st.cache.entries[flid].state.Scalars["STND"].Raw
		shared := unsafe.StringData(cached) == written
		require.Equal(t, flid == 2, shared, "flight %d: only the small message's state is cached as written", flid)
	}
	// The batch's input list is kept for the next batch, holding nothing.
	require.NotEmpty(t, e.pump.st.inputs, "the two FLOPs went as one batch")
	for _, in := range e.pump.st.inputs {
		require.Zero(t, in)
	}
}

// The pump's default budget is the service's (benchmarks run with it).
func TestRunBytesDefaultIsTheServices(t *testing.T) {
	t.Parallel()
	require.Equal(t, config.Defaults().RunBytes, DefaultConfig().RunBytes)
}

// A message counts at its decoded footprint when that is larger than its
// raw XML: FLOPs of many tiny records (a few KB raw, several times that
// decoded) fit the budget by their raw bytes five at a time, but by what
// they hold decoded only one at a time, so each step's run is one message.
// The outcome is the same: every record applied, in order.
func TestRunIsCutByDecodedSize(t *testing.T) {
	t.Parallel()
	const budget = 60_000
	e := newEnv(t, func(c *Config) { c.RunBytes = budget })
	e.Send(t, dnld(3))
	e.StepUntilWait(t)
	var ids []int64
	for m := range 5 {
		var recs strings.Builder
		for r := range 150 {
			fmt.Fprintf(&recs, "<FLOP><FLID>%d</FLID><STND>%d</STND></FLOP>", r%3+1, 100*m+r)
		}
		xml := envelope("FLOP", "STND", recs.String())
		d, err := decode.Message([]byte(xml), e.pump.cfg.Decode)
		require.NoError(t, err)
		require.Less(t, 5*len(xml), budget, "the raw XML of all five fits one run")
		require.Greater(t, 2*d.Footprint, budget, "what one holds decoded leaves no room for a second")
		ids = append(ids, e.Send(t, xml))
	}
	steps := 0
	for range 100 {
		wait, err := e.pump.Step(t.Context())
		require.NoError(t, err)
		if wait > 0 {
			break
		}
		steps++
	}
	require.Equal(t, 5, steps, "one message a run")
	for _, id := range ids {
		require.Equal(t, vocab.StatusSucceeded, e.msg(t, id).Status, "message %d", id)
	}
	for flid, stand := range map[int64]string{1: "547", 2: "548", 3: "549"} {
		require.Equal(t, stand, e.flight(t, flid).Scalars["STND"].Raw, "flight %d", flid)
	}
}
