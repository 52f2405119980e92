package pgarg

// pgx encodes a statement's parameters into one buffer of its connection,
// and shrinks that buffer back to 256 bytes before each statement (so a
// large one does not stay allocated). The batch's statements carry arrays
// of hundreds of KB (a column of every flight, of every message): each
// rebuilt the buffer by doubling from 256 bytes, copying what it held at
// every step. That was about a tenth of what msgx allocated per FLOP
// message (issue #34, docs/dev/performance-notes.md).
//
// An encode plan appends to the buffer it is given and returns the result,
// which may be another array, as append's is when it grows. So the array
// plans keep a buffer of their connection's (scratch) from statement to
// statement: when the buffer they are given has no room for their array,
// they move what it holds into the scratch buffer and append there; pgx
// then appends the statement's other parameters to it too. A statement's
// parameters are copied into the protocol message before the connection
// encodes the next one (a batch copies each statement's at once), so the
// scratch buffer is free again at the next statement's first array.

const (
	// minScratch is the smallest buffer kept: below it pgx's own does.
	minScratch = 64 << 10
	// maxScratch is the largest buffer kept; a statement that needs more
	// gets a buffer of its own, garbage once sent (a download's rows are
	// written in slices of flushChunk flights: well below it).
	maxScratch = 4 << 20
)

// scratch is the parameter buffer kept for one connection (one pgtype.Map:
// pgx encodes a connection's statements one at a time), and its write
// buffer (writebuf.go).
type scratch struct{ buf, wire []byte }

// room returns buf, or a copy of its bytes in a larger buffer, with room
// for at least n more bytes.
func (s *scratch) room(buf []byte, n int) []byte {
	if cap(buf)-len(buf) >= n {
		s.keep(buf)
		return buf
	}
	if cap(s.buf) >= len(buf)+n && !sameArray(buf, s.buf) {
		return append(s.buf[:0], buf...)
	}
	grown := append(make([]byte, 0, max(len(buf)+n, 2*cap(s.buf), minScratch)), buf...)
	s.keep(grown)
	return grown
}

// keep makes buf the scratch buffer when it is larger and within bounds
// (the statement using it is sent before the next one starts over in it).
func (s *scratch) keep(buf []byte) {
	if cap(buf) > cap(s.buf) && cap(buf) >= minScratch && cap(buf) <= maxScratch {
		s.buf = buf[:0]
	}
}

// sameArray: a and b start at the same array.
func sameArray(a, b []byte) bool {
	return cap(a) > 0 && cap(b) > 0 && &a[:1][0] == &b[:1][0]
}
