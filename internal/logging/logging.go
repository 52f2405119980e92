// Package logging builds msgx's logger: log/slog JSON lines through a writer
// that never blocks the caller. Processing must not stall because stderr is
// a full pipe or a stuck log shipper, so lines go through a bounded buffer
// drained by one goroutine; when the buffer is full a line is dropped and
// counted, and the count is reported in the next line that gets through.
package logging

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
)

// Buffer is how many lines may wait for a slow output.
const Buffer = 4096

// New returns a JSON logger at level ("debug", "info", "warn", "error") over
// a non-blocking writer, and a flush function that waits (bounded by the
// buffer) for queued lines to be written; call it before exiting.
func New(w io.Writer, level string) (*slog.Logger, func()) {
	aw := NewAsyncWriter(w, Buffer)
	h := slog.NewJSONHandler(aw, &slog.HandlerOptions{Level: ParseLevel(level)})
	return slog.New(h), aw.Close
}

// ParseLevel maps a configured level to slog's (info when unknown).
func ParseLevel(level string) slog.Level {
	switch strings.ToLower(level) {
	case "debug":
		return slog.LevelDebug
	case "warn":
		return slog.LevelWarn
	case "error":
		return slog.LevelError
	default:
		return slog.LevelInfo
	}
}

// AsyncWriter hands each Write to a goroutine and never blocks: a full
// buffer drops the line. Write errors of the output are ignored (there is
// nowhere to report them) and counted in Dropped.
type AsyncWriter struct {
	out     io.Writer
	lines   chan []byte
	dropped atomic.Int64
	closed  atomic.Bool
	done    chan struct{}
	once    sync.Once
}

// NewAsyncWriter starts the writer goroutine.
func NewAsyncWriter(out io.Writer, buffer int) *AsyncWriter {
	a := &AsyncWriter{out: out, lines: make(chan []byte, buffer), done: make(chan struct{})}
	go a.run()
	return a
}

// Write queues a copy of p (slog reuses its buffer) and always succeeds.
func (a *AsyncWriter) Write(p []byte) (int, error) {
	if a.closed.Load() {
		a.dropped.Add(1)
		return len(p), nil
	}
	line := append([]byte(nil), p...)
	select {
	case a.lines <- line:
	default:
		a.dropped.Add(1)
	}
	return len(p), nil
}

// Dropped is how many lines were lost to a full buffer or a failing output.
func (a *AsyncWriter) Dropped() int64 { return a.dropped.Load() }

func (a *AsyncWriter) run() {
	defer close(a.done)
	var reported int64
	for line := range a.lines {
		if d := a.dropped.Load(); d > reported {
			_, _ = fmt.Fprintf(a.out, `{"level":"WARN","msg":"log lines dropped: output too slow or failing","dropped":%d}`+"\n", d-reported)
			reported = d
		}
		if _, err := a.out.Write(line); err != nil {
			a.dropped.Add(1)
		}
	}
}

// Close stops taking lines and waits until the queued ones are written.
func (a *AsyncWriter) Close() {
	a.once.Do(func() {
		a.closed.Store(true)
		close(a.lines)
	})
	<-a.done
}
