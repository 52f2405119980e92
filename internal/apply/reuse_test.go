package apply

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// The payloads handed out between two resets never share a byte: each
// holds what was written into it, whatever came after, including one
// larger than a block and one that outgrew the room it asked for.
func TestPayloadArenaKeepsEachPayload(t *testing.T) {
	var a payloadArena
	var got, want [][]byte
	put := func(room, size int, fill byte) {
		buf := a.take(room)
		require.Zero(t, len(buf))
		require.Equal(t, room, cap(buf))
		p := append(buf, bytes.Repeat([]byte{fill}, size)...)
		a.keep(buf, p)
		got, want = append(got, p), append(want, bytes.Repeat([]byte{fill}, size))
	}
	for i := range 600 { // more than a block's worth
		put(2048+i%300, 1900+i%200, byte(i))
	}
	put(arenaBlock+1, arenaBlock+1, 'L') // its own block
	put(100, 300, 'G')                   // outgrew its room: an array of its own
	put(2048, 0, 'E')
	put(2048, 10, 'A')
	require.Equal(t, want, got)
}

// A reset hands the blocks to the next payloads: taking, keeping and
// resetting allocates nothing once the blocks exist, and no more than
// arenaKeep blocks of the usual size outlive a reset.
func TestPayloadArenaReusesItsBlocks(t *testing.T) {
	var a payloadArena
	cycle := func() {
		for range 300 {
			buf := a.take(2048)
			a.keep(buf, append(buf, "payload"...))
		}
		a.reset()
	}
	cycle()
	require.Zero(t, testing.AllocsPerRun(10, cycle))

	for range 20 * arenaBlock / 2048 { // a download's payloads: twenty blocks
		buf := a.take(2048)
		a.keep(buf, buf[:2048])
	}
	huge := a.take(arenaBlock * 2)
	a.keep(huge, huge[:1])
	a.reset()
	require.Len(t, a.spare, arenaKeep)
	for _, b := range a.spare {
		require.Equal(t, arenaBlock, cap(b), "an oversized block is not kept")
		require.Zero(t, len(b))
	}
	require.Empty(t, a.full)
}

// A batch's event payloads are its states' (rule 7), each its own bytes
// though they share the Applier's blocks; the next batch's Writes hold its
// own messages only.
func TestBatchPayloadsAreTheirStates(t *testing.T) {
	t.Parallel()
	a := New(Config{Prune: true, Location: shanghai})
	w := setupWorld(t, a)
	const n = 400 // a few blocks' worth
	ins := make([]Input, n)
	for i := range ins {
		ins[i] = w.input(flop("STND", 1, fmt.Sprintf("<STND>%d</STND>", 1000+i)))
	}
	states, err := w.Flights(t.Context(), []int64{1})
	require.NoError(t, err)
	wr, _, err := a.Batch(ins, map[string]vocab.Holder{}, states, start)
	require.NoError(t, err)
	require.Len(t, wr.Events, n)
	last, err := flight.EventPayload(wr.Flights[0].State)
	require.NoError(t, err)
	require.Equal(t, string(last), string(wr.Events[n-1].Payload), "the last change's payload is the final state's")
	for i, e := range wr.Events {
		p := string(e.Payload)
		if !strings.Contains(p, fmt.Sprintf(`"STND":{"raw":"%d"}`, 1000+i)) || !strings.Contains(p, fmt.Sprintf(`"state_version":%d,`, e.StateVersion)) || !json.Valid(e.Payload) {
			t.Fatalf("event %d: payload %s", i, p)
		}
	}

	next := []Input{w.input(flop("STND", 1, "<STND>999</STND>"))}
	wr2, outs, err := a.Batch(next, map[string]vocab.Holder{}, states, start)
	require.NoError(t, err)
	require.Len(t, outs, 1)
	require.Len(t, wr2.Events, 1, "nothing of the batch before")
	require.Len(t, wr2.Flights, 1)
	require.Len(t, wr2.Finishes, 1)
	require.Len(t, wr2.Backfills, 1)
	require.Len(t, wr2.SchdMarks, 1)
	require.Contains(t, string(wr2.Events[0].Payload), `"STND":{"raw":"999"}`)
}

// A batch's backfills are the caller's: the pump hands them to the
// backfiller, which writes them back while the next batch is applied, so
// the next batch writes nothing into them.
func TestBatchBackfillsOutliveTheNextBatch(t *testing.T) {
	t.Parallel()
	a := New(Config{Prune: true, Location: shanghai})
	w := setupWorld(t, a)
	states, err := w.Flights(t.Context(), []int64{1})
	require.NoError(t, err)
	first := []Input{w.input(flop("STND", 1, "<STND>1</STND>")), w.input(flop("STND", 1, "<STND>2</STND>"))}
	wr, _, err := a.Batch(first, map[string]vocab.Holder{}, states, start)
	require.NoError(t, err)
	todos := wr.Backfills
	kept := slices.Clone(todos)
	second := []Input{w.input(flop("STND", 1, "<STND>3</STND>")), w.input(flop("STND", 1, "<STND>4</STND>"))}
	_, _, err = a.Batch(second, map[string]vocab.Holder{}, states, start)
	require.NoError(t, err)
	require.Equal(t, kept, todos)
	require.Equal(t, []int64{first[0].Msg.ID, first[1].Msg.ID}, []int64{todos[0].MsgID, todos[1].MsgID})
}

// Two calls at once would write into each other's payloads: the second one
// panics, and the first goes on; the Applier serves the next call after it.
func TestApplierServesOneCallerAtATime(t *testing.T) {
	t.Parallel()
	a := New(Config{Prune: true, Location: shanghai})
	w := newWorld(t)
	emitted := 0
	_, err := a.One(t.Context(), w, w.input(schd("DNLD", fltr(1))), start, func(wr *Writes) error {
		emitted++
		require.PanicsWithValue(t, "apply: an Applier called by two callers at once", func() {
			_, _, _ = a.Batch(nil, map[string]vocab.Holder{}, map[int64]*flight.State{}, start)
		})
		return w.write(wr)
	})
	require.NoError(t, err)
	require.Equal(t, 1, emitted)
	states, err := w.Flights(t.Context(), []int64{1})
	require.NoError(t, err)
	_, outs, err := a.Batch([]Input{w.input(flop("STND", 1, "<STND>9</STND>"))}, map[string]vocab.Holder{}, states, start)
	require.NoError(t, err)
	require.Equal(t, vocab.StatusSucceeded, outs[0].Status)
}
