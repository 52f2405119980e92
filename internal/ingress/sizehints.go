package ingress

import (
	"context"
	"maps"
	"sync"

	"github.com/msgx-aodb/msgx/internal/mailbox"
)

// SizeHints carries the XML sizes the poller reads with the ids
// (mailbox.Visible) to the pump, so the pump's byte budget (pump/read.go) does
// not read those rows a second time for their sizes (RawSizes): one primary
// key lookup a message fewer on the AODB's server. A hint is used once; an
// id without one is sized by the mailbox, as before. Sizes only cut runs: a
// row deleted after its poll is still found missing by the read.
type SizeHints struct {
	mu    sync.Mutex
	sizes map[int64]int
}

// maxSizeHints bounds the hints held: past it they are dropped (ids the
// pump never asks for, such as another instance's, cannot pile up).
const maxSizeHints = 100_000

// NewSizeHints returns an empty set of hints.
func NewSizeHints() *SizeHints { return &SizeHints{sizes: map[int64]int{}} }

// put keeps the sizes of the rows up to upTo the poller enqueued (a row
// processed elsewhere is not the pump's).
func (h *SizeHints) put(rows []mailbox.Visible, upTo int64) {
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.sizes)+len(rows) > maxSizeHints {
		clear(h.sizes)
	}
	for _, r := range rows {
		if r.ID <= upTo && !r.Done {
			h.sizes[r.ID] = r.Size
		}
	}
}

// take removes and returns the hints of ids, with the ids that have none.
func (h *SizeHints) take(ids []int64) (map[int64]int, []int64) {
	got := make(map[int64]int, len(ids))
	var rest []int64
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, id := range ids {
		if n, ok := h.sizes[id]; ok {
			got[id] = n
			delete(h.sizes, id)
		} else {
			rest = append(rest, id)
		}
	}
	return got, rest
}

// RawReader is what the pump reads the mailbox rows through (pump.RawReader,
// declared again here: the ingress does not import the pump).
type RawReader interface {
	ReadRaws(ctx context.Context, ids []int64) (map[int64][]byte, error)
	RawSizes(ctx context.Context, ids []int64) (map[int64]int, error)
}

// Reader is r with RawSizes answered from the hints first; nil hints: r.
func (h *SizeHints) Reader(r RawReader) RawReader {
	if h == nil {
		return r
	}
	return hintedReader{RawReader: r, hints: h}
}

type hintedReader struct {
	RawReader
	hints *SizeHints
}

func (r hintedReader) RawSizes(ctx context.Context, ids []int64) (map[int64]int, error) {
	got, rest := r.hints.take(ids)
	if len(rest) == 0 {
		return got, nil
	}
	more, err := r.RawReader.RawSizes(ctx, rest)
	if err != nil {
		return nil, err
	}
	maps.Copy(got, more)
	return got, nil
}
