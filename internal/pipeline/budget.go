package pipeline

import (
	"context"
	"fmt"
	"maps"
)

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
		got, err := p.readDecoded(ctx, chunk, room-total)
		if err != nil {
			return nil, nil, 0, fmt.Errorf("read raw messages from %d: %w", chunk[0], err)
		}
		for _, pr := range got {
			total += pr.size
		}
		maps.Copy(read, got)
		if len(got) < len(chunk) || total >= room {
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

// releaseMemory returns freed memory to the operating system after a step
// that read at least a quarter of the run budget: the garbage collector
// keeps freed pages for reuse (at gc.percent 400 the heap may grow to five
// times its live data), so without this a burst of large messages would
// leave the process at its peak size long after the burst.
func (p *Pump) releaseMemory(read int) {
	if read > 0 && read >= p.cfg.RunBytes/4 {
		p.release()
	}
}
