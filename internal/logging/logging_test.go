package logging

import (
	"bytes"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// blockedWriter never returns from Write until released: a full pipe.
type blockedWriter struct {
	release chan struct{}
	mu      sync.Mutex
	buf     bytes.Buffer
}

func (b *blockedWriter) Write(p []byte) (int, error) {
	<-b.release
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func TestBlockedOutputNeverBlocksLogging(t *testing.T) {
	out := &blockedWriter{release: make(chan struct{})}
	aw := NewAsyncWriter(out, 8)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 1000; i++ { // far more than the buffer
			_, _ = aw.Write([]byte("line\n"))
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Write blocked on a stuck output")
	}
	require.GreaterOrEqual(t, aw.Dropped(), int64(1000-8-1))
	close(out.release)
	aw.Close()
	require.Contains(t, out.buf.String(), "log lines dropped")
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestFailingOutputIsIgnoredAndCounted(t *testing.T) {
	aw := NewAsyncWriter(failingWriter{}, 8)
	n, err := aw.Write([]byte("x\n"))
	require.NoError(t, err)
	require.Equal(t, 2, n)
	aw.Close()
	require.Equal(t, int64(1), aw.Dropped())
}

func TestJSONLinesAndLevel(t *testing.T) {
	var buf bytes.Buffer
	log, flush := New(&buf, "warn")
	log.Info("hidden", "msg_id", 1)
	log.Warn("shown", "msg_id", 2)
	flush()
	lines := bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n"))
	require.Len(t, lines, 1)
	var m map[string]any
	require.NoError(t, json.Unmarshal(lines[0], &m))
	require.Equal(t, "shown", m["msg"])
	require.EqualValues(t, 2, m["msg_id"])
}
