package pump

import (
	"context"
	"fmt"
	"maps"
	"time"

	"github.com/msgx-aodb/msgx/internal/apply"
	"github.com/msgx-aodb/msgx/internal/decode"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// What a step reads before any transaction: the raw XML of the run's
// messages from the mailbox, decoded, within the byte budget, taking what
// the read-ahead and the last step hold.

// DefaultRunBytes is the default byte budget of a run (pipeline.run-bytes).
const DefaultRunBytes = 64 << 20

// A run holds its messages decoded until it commits. A decoded message
// keeps a copy of its raw XML (the codec's values point into it) and its
// records: for a message of few large values that is about its raw size,
// for one of many tiny records several times it (a 15 MiB FLOP of 300 000
// two-value records holds about 80 MB decoded). A message therefore counts
// for its size: its raw bytes, or its decoded footprint (sis.Message) when
// larger. The pump cuts every read at RunBytes of size, asking the mailbox
// for the raw sizes first:
//
//   - a step's run is the runnable prefix that fits RunBytes, counting what
//     it holds already (kept or read ahead), and at least the head whatever
//     its size: a large head is never starved;
//   - a read-ahead takes only what fits, possibly nothing;
//   - the XML is read in chunks of a quarter of the budget of raw bytes,
//     each decoded before the next is read, and dropped once decoded;
//     decoding stops where the decoded sizes fill the budget, and the run
//     ends there;
//   - a step that read at least a quarter of the budget returns the freed
//     memory to the operating system when its run is done.

// fitBudget is how many of ids, in order, fit budget bytes together; with
// head the first always counts as fitting.
func fitBudget(ids []int64, size func(int64) int, budget int, head bool) int {
	total := 0
	for i, id := range ids {
		s := size(id)
		if total+s > budget && (i > 0 || !head) {
			return i
		}
		total += s
	}
	return len(ids)
}

// chunks splits ids, in order, into reads of at most limit bytes each (a
// message larger than limit is read alone).
func chunks(ids []int64, sizes map[int64]int, limit int) [][]int64 {
	var out [][]int64
	from, total := 0, 0
	for i, id := range ids {
		s := sizes[id]
		if i > from && total+s > limit {
			out = append(out, ids[from:i])
			from, total = i, 0
		}
		total += s
	}
	if from < len(ids) {
		out = append(out, ids[from:])
	}
	return out
}

// readAheadTimeout bounds a read-ahead (a slow database must not keep a
// connection for longer; the step then reads itself).
const readAheadTimeout = 30 * time.Second

// readAhead reads and decodes the next run's messages while the current run
// commits: the raw XML comes from the mailbox database and decoding is CPU,
// so neither has to wait for the commit. It is only a cache: the next step
// still reads the queue head itself and takes an entry only for the same
// message id (a mailbox row's raw XML never changes, nor does a row
// come back once gone). A failed read-ahead is simply empty; the step then
// reads as it always does.
type readAhead struct {
	done chan struct{}      // closed once got is final
	got  map[int64]prepared // decoded messages (or their decode errors) by id
	read int                // raw bytes read
}

// prepared is one head message read and decoded outside the transaction.
type prepared struct {
	apply.Input
	size int // what it holds: its raw XML's bytes, or its decoded footprint when larger
}

// prepare reads and decodes the runnable prefix of the heads: the first
// message (PENDING, or a FAILED head that is due) and the PENDING messages
// after it, as far as the byte budget allows, taking what the
// read-ahead and the last step have and reading the rest. It also returns
// the bytes it read, and those of the read-ahead it took.
func (p *Pump) prepare(ctx context.Context, st *runState, heads []vocab.QueueEntry) ([]prepared, int, error) {
	got, read := st.takeAhead()
	if kept := st.takeKept(); got == nil {
		got = kept
	} else {
		maps.Copy(got, kept)
	}
	ids := []int64{heads[0].ID}
	for _, m := range heads[1:] {
		if m.Status != vocab.StatusPending {
			break
		}
		ids = append(ids, m.ID)
	}
	ids, fresh, n, err := p.readBudgeted(ctx, ids, got, true)
	read += n
	if err != nil {
		return nil, read, err
	}
	run := make([]prepared, len(ids))
	for i, id := range ids {
		pr, ok := got[id]
		if !ok {
			pr = fresh[id] // looked up, not copied into got: a map grown for nothing
		}
		run[i] = pr
		run[i].Msg = heads[i]
	}
	return run, read, nil
}

// readDecoded reads messages' raw XML in one round trip and decodes it in
// order into got while what it holds fits room (the first whatever its
// size); the messages after that are not read into got. It returns how many
// it read and their size. A row missing from the mailbox is
// mailbox.ErrMissing. Each raw message is dropped once decoded.
func (p *Pump) readDecoded(ctx context.Context, ids []int64, room int, got map[int64]prepared) (n, used int, err error) {
	raws, err := p.raw.ReadRaws(ctx, ids)
	if err != nil {
		return 0, 0, err
	}
	for i, id := range ids {
		if i > 0 && used >= room {
			break
		}
		n++
		raw, ok := raws[id]
		if !ok {
			got[id] = prepared{Input: apply.Input{Missing: true}}
			continue
		}
		delete(raws, id)
		d, err := decode.Message(raw, p.cfg.Decode)
		pr := prepared{Input: apply.Input{Decoded: d, Err: err, Digest: vocab.RawDigest(raw)}, size: len(raw)}
		if d != nil {
			pr.size = max(pr.size, d.Footprint)
		}
		got[id] = pr
		used += pr.size
	}
	return n, used, nil
}

// readBudgeted returns the longest prefix of ids whose sizes fit the
// budget, with the messages of it not in held read and decoded; head takes
// the first id whatever its size. held are messages read before (kept or
// read ahead): they count, and are not read again.
func (p *Pump) readBudgeted(ctx context.Context, ids []int64, held map[int64]prepared, head bool) ([]int64, map[int64]prepared, int, error) {
	var missing []int64
	for _, id := range ids {
		if _, ok := held[id]; !ok {
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 {
		return ids, nil, 0, nil
	}
	sizes, err := p.raw.RawSizes(ctx, missing)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("size raw messages from %d: %w", missing[0], err)
	}
	read := make(map[int64]prepared, len(missing))
	size := func(id int64) int {
		if pr, ok := held[id]; ok {
			return pr.size
		}
		if pr, ok := read[id]; ok {
			return pr.size
		}
		return sizes[id] // 0 for a missing row: it holds nothing
	}
	ids = ids[:fitBudget(ids, size, p.cfg.RunBytes, head)]
	if len(ids) == 0 {
		return nil, nil, 0, nil
	}
	last := ids[len(ids)-1]
	for len(missing) > 0 && missing[len(missing)-1] > last {
		missing = missing[:len(missing)-1]
	}
	room := p.cfg.RunBytes
	for _, id := range ids {
		if pr, ok := held[id]; ok {
			room -= pr.size
		}
	}
	total := 0
	for _, chunk := range chunks(missing, sizes, max(p.cfg.RunBytes/4, 1)) {
		n, size, err := p.readDecoded(ctx, chunk, room-total, read)
		if err != nil {
			return nil, nil, 0, fmt.Errorf("read raw messages from %d: %w", chunk[0], err)
		}
		total += size
		if n < len(chunk) || total >= room {
			break // decoded, the messages fill the budget
		}
	}
	// The run ends before the first message neither held nor read, and
	// where the sizes now known fill the budget.
	n := 0
	for n < len(ids) {
		if _, ok := held[ids[n]]; !ok {
			if _, ok := read[ids[n]]; !ok {
				break
			}
		}
		n++
	}
	ids = ids[:fitBudget(ids[:n], size, p.cfg.RunBytes, head)]
	for id := range read {
		if len(ids) == 0 || id > ids[len(ids)-1] {
			delete(read, id) // decoded past the budget: read again by a later step
		}
	}
	if len(ids) == 0 {
		return nil, nil, total, nil
	}
	return ids, read, total, nil
}

// releaseMemory returns freed memory to the operating system after a step
// that read at least a quarter of the run budget: the garbage collector
// keeps freed pages for reuse (the heap may grow to 1 + gc.percent/100
// times its live data, up to gc.memory-limit), so without this a burst of large messages would
// leave the process at its peak size long after the burst.
func (p *Pump) releaseMemory(read int) {
	if read > 0 && read >= p.cfg.RunBytes/4 {
		p.release()
	}
}

// startReadAhead reads ahead the PENDING messages after the given id, up
// to one run by count and by bytes (nothing when the first alone is over
// the budget: the step reads it), in the background, into st.ahead.
func (p *Pump) startReadAhead(ctx, life context.Context, st *runState, after int64) {
	ra := &readAhead{done: make(chan struct{})}
	st.ahead = ra
	// Not the step's context: the step ends before the next one takes the
	// result. Run's (life): at shutdown nobody waits for it.
	parent := life
	if parent == nil {
		parent = context.WithoutCancel(ctx)
	}
	go func() {
		defer close(ra.done)
		ctx, cancel := context.WithTimeout(parent, readAheadTimeout)
		defer cancel()
		ids, err := p.store.PendingAfter(ctx, after, p.cfg.RunLength)
		if err != nil || len(ids) == 0 {
			return
		}
		_, got, read, err := p.readBudgeted(ctx, ids, nil, false)
		if err == nil { // on error nothing: the step reads itself
			ra.got, ra.read = got, read
		}
	}()
}
