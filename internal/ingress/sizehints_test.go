package ingress

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/mailbox"
)

// sizeCounter is a RawReader that counts the ids it was asked to size.
type sizeCounter struct {
	RawReader
	asked []int64
}

func (c *sizeCounter) RawSizes(_ context.Context, ids []int64) (map[int64]int, error) {
	c.asked = append(c.asked, ids...)
	out := map[int64]int{}
	for _, id := range ids {
		out[id] = 7
	}
	return out, nil
}

// The pump sizes a polled id from its hint, once; an id without one is
// sized by the mailbox.
func TestSizeHintsSpareTheMailboxASecondRead(t *testing.T) {
	t.Parallel()
	h := NewSizeHints()
	h.put([]mailbox.Visible{{ID: 1, Size: 100}, {ID: 2, Size: 200}, {ID: 4, Size: 400, Done: true}, {ID: 5, Size: 500}}, 4)
	c := &sizeCounter{}
	r := h.Reader(c)
	got, err := r.RawSizes(t.Context(), []int64{1, 2, 3})
	require.NoError(t, err)
	require.Equal(t, map[int64]int{1: 100, 2: 200, 3: 7}, got)
	require.Equal(t, []int64{3}, c.asked, "only the id without a hint")
	got, err = r.RawSizes(t.Context(), []int64{4, 5})
	require.NoError(t, err)
	require.Equal(t, map[int64]int{4: 7, 5: 7}, got, "no hint for a row processed elsewhere, or past the ids enqueued")
	c.asked = c.asked[:1]
	_, err = r.RawSizes(t.Context(), []int64{1})
	require.NoError(t, err)
	require.Equal(t, []int64{3, 1}, c.asked, "a hint is used once")
	require.Same(t, RawReader(c), (*SizeHints)(nil).Reader(c), "no hints: the reader itself")
}
