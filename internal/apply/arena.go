package apply

// payloadArena holds the event payloads of one batch (of one message settled
// alone, of one slice of a large one) in a few large blocks that the next
// reuses. A payload lives only until the store has written it (a COPY
// copies it out, Oracle binds a copy): one array per payload was the largest
// allocation of a FLOP message (2 KB of its 13.5), and the collector's work
// follows the bytes allocated (docs/dev/performance-notes.md).
//
// Not safe for concurrent use: the Applier's, used by the one pump.
type payloadArena struct {
	block []byte   // payloads are cut from it; its length is what is used
	full  [][]byte // blocks filled since the last reset
	spare [][]byte // blocks of arenaBlock bytes free for reuse
}

const (
	arenaBlock = 256 << 10 // a batch of 500 FLOPs fills four
	arenaKeep  = 8         // blocks kept between resets: 2 MiB at most
)

// take returns an empty slice with room for n bytes, in a block.
func (a *payloadArena) take(n int) []byte {
	if cap(a.block)-len(a.block) < n {
		if a.block != nil {
			a.full = append(a.full, a.block)
		}
		a.block = a.fresh(n)
	}
	at := len(a.block)
	return a.block[at:at:(at + n)]
}

// keep marks p, written into the slice room the last take returned, as in
// use until the next reset. A p that outgrew room is an array of its own:
// nothing of the block is used.
func (a *payloadArena) keep(room, p []byte) {
	if len(p) > 0 && cap(p) == cap(room) && &p[0] == &room[:1][0] {
		a.block = a.block[:len(a.block)+len(p)]
	}
}

// reset frees every payload handed out: the blocks are written over by the
// next ones. Only blocks of the usual size are kept, and not more than
// arenaKeep: a download's payloads do not stay allocated after it.
func (a *payloadArena) reset() {
	if a.block != nil {
		a.full = append(a.full, a.block)
		a.block = nil
	}
	for i, b := range a.full {
		if cap(b) == arenaBlock && len(a.spare) < arenaKeep {
			a.spare = append(a.spare, b[:0])
		}
		a.full[i] = nil
	}
	a.full = a.full[:0]
}

func (a *payloadArena) fresh(n int) []byte {
	if n <= arenaBlock {
		if k := len(a.spare); k > 0 {
			b := a.spare[k-1]
			a.spare[k-1] = nil
			a.spare = a.spare[:k-1]
			return b
		}
		n = arenaBlock
	}
	return make([]byte, 0, n)
}
