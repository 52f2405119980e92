package readiness_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/leader"
	"github.com/msgx-aodb/msgx/internal/readiness"
)

func TestRunChecks(t *testing.T) {
	t.Parallel()
	stuck := make(chan struct{})
	t.Cleanup(func() { close(stuck) })
	started := time.Now()
	res := readiness.RunChecks(t.Context(), 200*time.Millisecond,
		readiness.Check{Name: "postgres", Run: func(context.Context) error { return nil }},
		readiness.Check{Name: "mailbox", Run: func(context.Context) error { return errors.New("dial tcp: refused") }},
		readiness.Check{Name: "kafka", Run: func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() }},
		readiness.Check{Name: "deaf", Run: func(context.Context) error { <-stuck; return nil }}, // ignores its context
		readiness.Check{Name: "panics", Run: func(context.Context) error { panic("boom") }},
		readiness.Check{Name: "missing"},
	)
	require.Less(t, time.Since(started), 5*time.Second, "bounded by the timeout, all checks concurrently")
	require.Len(t, res, 6)
	require.Equal(t, readiness.CheckResult{Name: "postgres", OK: true}, res[0])
	require.Equal(t, readiness.CheckResult{Name: "mailbox", Error: "dial tcp: refused"}, res[1])
	require.Equal(t, "kafka", res[2].Name)
	require.False(t, res[2].OK)
	require.Contains(t, res[2].Error, "timed out after 200ms")
	require.False(t, res[3].OK)
	require.Contains(t, res[3].Error, "timed out after 200ms")
	require.False(t, res[4].OK)
	require.Contains(t, res[4].Error, "boom")
	require.Equal(t, readiness.CheckResult{Name: "missing", Error: "no check configured"}, res[5])
}

func TestReadiness(t *testing.T) {
	t.Parallel()
	ok := readiness.Check{Name: "postgres", Run: func(context.Context) error { return nil }}
	bad := readiness.Check{Name: "kafka", Run: func(context.Context) error { return errors.New("no brokers") }}

	r := readiness.Prober(func() (string, bool) { return string(leader.Leader), false }, time.Second, ok)(t.Context())
	require.True(t, r.Ready())
	require.Equal(t, string(leader.Leader), r.Role)

	r = readiness.Prober(func() (string, bool) { return string(leader.Standby), true }, time.Second, ok)(t.Context())
	require.True(t, r.Ready(), "a healthy standby is ready")
	require.True(t, r.Shadow)

	r = readiness.Prober(func() (string, bool) { return string(leader.Leader), false }, time.Second, ok, bad)(t.Context())
	require.False(t, r.Ready(), "one failing check")
	require.Equal(t, "no brokers", r.Checks[1].Error)

	r = readiness.Prober(nil, time.Second, ok)(t.Context())
	require.Equal(t, string(leader.Starting), r.Role)
	require.False(t, r.Ready(), "starting is not ready")
}
