package maintenance

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// A duplicate of a message the archive job moved is still SKIPPED (rule 2).
func TestArchiveJobThenDuplicate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	msg := adft(1)
	first := e.Send(t, msg)
	e.Drain(t)
	require.NoError(t, e.Store.PassBackfillMark(t.Context(), first, e.Clock.Now())) // the mailbox was backfilled
	a := &Archive{Base: e.base(), Every: time.Hour, After: DefaultArchiveAfter}

	e.Clock.Advance(DefaultArchiveAfter - time.Minute)
	res, err := a.Run(t.Context(), false)
	require.NoError(t, err)
	require.Zero(t, res.Rows, "not yet old enough")
	e.Clock.Advance(2 * time.Minute)
	dry, err := a.Run(t.Context(), true)
	require.NoError(t, err)
	require.Equal(t, 1, dry.Rows)
	res, err = a.Run(t.Context(), false)
	require.NoError(t, err)
	require.Equal(t, 1, res.Rows)
	m, err := e.Store.Message(t.Context(), first)
	require.NoError(t, err)
	require.True(t, m.Archived)

	again := e.Send(t, msg)
	e.Drain(t)
	m, err = e.Store.Message(t.Context(), again)
	require.NoError(t, err)
	require.Equal(t, vocab.StatusSkipped, m.Status, "an archived identity still deduplicates")
	require.Equal(t, first, *m.DuplicateOf)
}

// The outbox job keeps a delivered KAFKA:msg row while the flight's
// KAFKA:schd mark names it, and deletes it once the mark is delivered.
func TestOutboxJobTwinRule(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id := e.Send(t, adft(1))
	e.Drain(t)
	evs, err := e.Store.EventsOfMessage(t.Context(), id)
	require.NoError(t, err)
	require.Len(t, evs, 1, "one outbox row per change")
	msgEv := evs[0]
	require.Equal(t, vocab.TargetMsg, msgEv.Target)
	require.NoError(t, e.Store.MarkSent(t.Context(), store.MarkSentParams{Target: vocab.TargetMsg, IDs: []int64{msgEv.ID}, Now: e.Clock.Now()}))

	o := &Outbox{Base: e.base(), Every: time.Hour, Retention: DefaultOutboxRetention}
	e.Clock.Advance(DefaultOutboxRetention + time.Minute)
	res, err := o.Run(t.Context(), false)
	require.NoError(t, err)
	require.Zero(t, res.Rows, "the msg row stays: the flight's schd mark still needs the payload")
	marks, err := e.Store.DueSchdMarks(t.Context(), store.DueSchdMarksParams{Now: e.Clock.Now(), Max: 10})
	require.NoError(t, err)
	require.Len(t, marks, 1)
	require.NotEmpty(t, marks[0].Payload)

	n, err := e.Store.ClearSchdMarks(t.Context(), []store.SchdSent{store.SentAs(marks[0])})
	require.NoError(t, err)
	require.Equal(t, 1, n)
	res, err = o.Run(t.Context(), false)
	require.NoError(t, err)
	require.Equal(t, 1, res.Rows)
	require.Equal(t, 0, e.count(t, "SELECT count(*) FROM msg_event"))
}

// The runner waits through the clock: 03:29 nothing, 03:30 one run, then it
// waits for the next day's 03:30 (a day computed from the calendar).
func TestRunnerDailyThroughTheClock(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	clk := &recClock{Fake: e.Clock}
	clk.Set(time.Date(2026, 12, 3, 3, 29, 0, 0, shanghai))
	job := &countingJob{name: "daily", schedule: DailyAt{Hour: 3, Minute: 30, Location: shanghai}}
	r := &Runner{Registry: NewRegistry(job), Store: e.Store, Clock: clk, Log: quiet()}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { _ = r.Run(ctx); close(done) }()

	require.Eventually(t, func() bool { return clk.lastWait() == time.Minute }, 5*time.Second, time.Millisecond, "03:29: waits a minute")
	require.Zero(t, job.runs.Load())
	clk.Advance(time.Minute)
	require.Eventually(t, func() bool { return clk.lastWait() == 24*time.Hour }, 5*time.Second, time.Millisecond, "after the run: the next day")
	require.Equal(t, int32(1), job.runs.Load())
	runs, err := e.Store.JobRuns(t.Context())
	require.NoError(t, err)
	require.Len(t, runs, 1)
	require.Equal(t, "daily", runs[0].Job)
	require.True(t, clk.Now().Equal(*runs[0].LastOKAt))

	clk.Advance(24 * time.Hour)
	require.Eventually(t, func() bool { return job.runs.Load() == 2 }, 5*time.Second, time.Millisecond, "next day 03:30")
	cancel()
	<-done
}

// The pump never waits for a job: while a job is stuck in its run (a long
// statement), messages flow; losing the lead stops the job.
func TestPumpNeverWaitsOnASlowJob(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	slow := &countingJob{name: "slow", schedule: Every(time.Hour), block: make(chan struct{})}
	r := &Runner{Registry: NewRegistry(slow, e.history()), Store: e.Store, Clock: e.Clock, Log: quiet()}
	lead, lose := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { _ = r.Run(lead); close(done) }()
	require.Eventually(t, func() bool { return slow.runs.Load() == 1 }, 5*time.Second, time.Millisecond)

	for i := range 20 {
		e.Send(t, adft(int64(i+1)))
	}
	e.Drain(t) // would hang (test timeout) if the pump waited for the job
	require.Equal(t, 20, e.count(t, "SELECT count(*) FROM flight_schd"))
	require.Equal(t, int32(1), slow.runs.Load(), "still in its run")

	lose()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the jobs did not stop with the lead")
	}
	runs, err := e.Store.JobRuns(t.Context())
	require.NoError(t, err)
	for _, run := range runs {
		require.NotEqual(t, "slow", run.Job, "a run cut by the end of the lead term is not recorded")
	}
}
