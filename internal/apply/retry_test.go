package apply

import (
	"strings"
	"testing"
	"time"

	"github.com/msgx-aodb/msgx/internal/vocab"
	"github.com/stretchr/testify/require"
)

var retries = Retries{MaxAttempts: 5, BackoffBase: time.Second, BackoffCap: time.Minute, HeadDeadline: 10 * time.Minute}

// failedHead is a FAILED head after attempts failures, the first one
// failingFor before start, due again at next.
func failedHead(attempts int, failingFor time.Duration, next time.Time) vocab.QueueEntry {
	since := start.Add(-failingFor)
	return vocab.QueueEntry{ID: 7, Status: vocab.StatusFailed, Kind: "FLOP", Meta: vocab.Meta{Sndr: "AODB", Type: "FLOP"},
		Attempts: attempts, FailingSince: &since, NextAttemptAt: &next, ErrorClass: "INFRA", Reason: "boom"}
}

// A FAILED head is exhausted at MaxAttempts attempts, paused or not, and
// then written DEAD(EXHAUSTED) with the META its failures bound and its
// backfill; before that it is due at its next attempt.
func TestRetryExhaustsByAttempts(t *testing.T) {
	t.Parallel()
	a := New(Config{Location: shanghai, Retries: retries})
	next := start.Add(8 * time.Second)

	r := a.Retry(failedHead(4, time.Minute, next), false, start)
	require.Nil(t, r.Exhausted, "4 of 5 attempts")
	require.Equal(t, next, r.Due)

	for _, paused := range []bool{false, true} {
		r = a.Retry(failedHead(5, time.Minute, next), paused, start)
		require.NotNil(t, r.Exhausted, "paused %v", paused)
		require.Equal(t, Outcome{Status: vocab.StatusDead, Class: vocab.ClassExhausted, Reason: "5 attempts; last INFRA: boom"}, r.Outcome)
		require.Len(t, r.Exhausted.Finishes, 1)
		f := r.Exhausted.Finishes[0]
		require.Equal(t, int64(7), f.MsgID)
		require.Equal(t, vocab.StatusDead, f.Status)
		require.Equal(t, "EXHAUSTED", f.ErrorClass)
		require.Equal(t, &vocab.Binding{Meta: vocab.Meta{Sndr: "AODB", Type: "FLOP"}}, f.Bind, "the META its failures bound, no identity")
		require.Len(t, r.Exhausted.Backfills, 1)
		require.Equal(t, vocab.StatusDead, r.Exhausted.Backfills[0].MailboxStatus)
		require.Empty(t, r.Exhausted.Flights)
		require.Empty(t, r.Exhausted.Events)
	}
}

// A head failing for HeadDeadline since its first counted failure is
// exhausted, however few its attempts — unless the pump is paused on an
// outage (rule 14: the deadline does not run); a head with no counted
// failure runs none.
func TestRetryExhaustsByDeadline(t *testing.T) {
	t.Parallel()
	a := New(Config{Location: shanghai, Retries: retries})
	next := start.Add(time.Second)

	r := a.Retry(failedHead(1, 10*time.Minute-time.Second, next), false, start)
	require.Nil(t, r.Exhausted, "a second before the deadline")
	require.Equal(t, next, r.Due)

	r = a.Retry(failedHead(1, 10*time.Minute, next), false, start)
	require.NotNil(t, r.Exhausted)
	require.Equal(t, vocab.ClassExhausted, r.Outcome.Class)
	require.Equal(t, "failing for 10m0s (deadline 10m0s); last INFRA: boom", r.Outcome.Reason)

	r = a.Retry(failedHead(1, time.Hour, next), true, start)
	require.Nil(t, r.Exhausted, "paused: no deadline")
	require.Equal(t, next, r.Due)

	m := failedHead(1, 0, next)
	m.FailingSince, m.NextAttemptAt = nil, nil
	r = a.Retry(m, false, start)
	require.Nil(t, r.Exhausted, "nothing counted yet")
	require.False(t, r.Due.After(start), "due at once")
}

// A failed attempt records FAILED with its class and reason (cut to the
// column) and its next attempt one doubling backoff after now: the delay
// of the attempt it counts, capped.
func TestFailedBacksOff(t *testing.T) {
	t.Parallel()
	a := New(Config{Location: shanghai, Retries: retries})
	bind := &vocab.Binding{Kind: "FLOP"}
	for attempts, delay := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second, 32 * time.Second, time.Minute, time.Minute} {
		f := a.Failed(vocab.QueueEntry{ID: 7, Attempts: attempts}, &Failure{Class: vocab.ClassInfra, Reason: "boom"}, bind, start)
		require.Equal(t, vocab.RecordFailureParams{MsgID: 7, ErrorClass: "INFRA", Reason: "boom", NextAttemptAt: start.Add(delay), Now: start, Bind: bind}, f,
			"after %d attempts", attempts)
	}
	long := strings.Repeat("x", 2000)
	f := a.Failed(vocab.QueueEntry{ID: 7}, &Failure{Class: vocab.ClassInfra, Reason: long}, nil, start)
	require.Len(t, f.Reason, 1000, "cut to its column")
	require.True(t, strings.HasSuffix(f.Reason, "..."))
}
