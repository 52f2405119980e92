package service_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/service"
)

// syncBuffer is a log sink safe for the group's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// blocker runs until ctx ends, recording that it started and stopped.
func blocker(name string, started chan<- string, stopped *sync.Map) service.Service {
	return service.Func(name, func(ctx context.Context) error {
		started <- name
		<-ctx.Done()
		stopped.Store(name, true)
		return nil
	})
}

func TestGroupFailureStopsTheOthers(t *testing.T) {
	var out syncBuffer
	log := slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelDebug}))
	started := make(chan string, 2)
	var stopped sync.Map
	boom := errors.New("boom")
	release := make(chan struct{})
	failing := service.Func("failing", func(ctx context.Context) error {
		<-release
		return boom
	})
	g := service.NewGroup("term", log, blocker("a", started, &stopped), nil, failing, blocker("b", started, &stopped))
	require.Len(t, g.Services(), 3)
	done := make(chan error, 1)
	go func() { done <- g.Run(context.Background()) }()
	<-started
	<-started
	close(release)
	select {
	case err := <-done:
		require.ErrorIs(t, err, boom)
		require.EqualError(t, err, "failing: boom")
	case <-time.After(10 * time.Second):
		t.Fatal("the group did not stop after a failure")
	}
	for _, n := range []string{"a", "b"} {
		_, ok := stopped.Load(n)
		require.True(t, ok, "%s stopped", n)
	}
	require.Contains(t, out.String(), "service=failing")
	require.Contains(t, out.String(), "service failed, stopping its group")
	require.Contains(t, out.String(), "service=a")
}

func TestGroupStopsOnContextEnd(t *testing.T) {
	started := make(chan string, 3)
	var stopped sync.Map
	early := service.Func("early", func(context.Context) error { started <- "early"; return nil }) // nothing to do: the others go on
	g := service.NewGroup("term", slog.New(slog.DiscardHandler), blocker("a", started, &stopped), early, blocker("b", started, &stopped))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- g.Run(ctx) }()
	for range 3 {
		<-started
	}
	select {
	case err := <-done:
		t.Fatalf("an early nil return stopped the group (%v)", err)
	default:
	}
	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("the group did not stop on ctx's end")
	}
	for _, n := range []string{"a", "b"} {
		_, ok := stopped.Load(n)
		require.True(t, ok, "%s stopped", n)
	}
}
