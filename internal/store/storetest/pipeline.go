package storetest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// testPipeline covers the Pipeline section (store/pipeline.go): the ingress
// watermark and the pause the pump publishes for operators.
func testPipeline(t *testing.T, newStore Factory) {
	t.Run("IngressMarkOnlyMovesForward", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		mark, err := s.IngressMark(ctx(t), "cminmsgs")
		require.NoError(t, err)
		require.Zero(t, mark)
		require.NoError(t, s.AdvanceIngressMark(ctx(t), store.AdvanceIngressMarkParams{Source: "cminmsgs", LastID: 100, Now: t0}))
		require.NoError(t, s.AdvanceIngressMark(ctx(t), store.AdvanceIngressMarkParams{Source: "cminmsgs", LastID: 40, Now: t0}))
		mark, err = s.IngressMark(ctx(t), "cminmsgs")
		require.NoError(t, err)
		require.Equal(t, int64(100), mark)
	})
	t.Run("PauseIsPublishedAndCleared", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		p, err := s.PumpPause(ctx(t))
		require.NoError(t, err)
		require.Nil(t, p, "nothing published yet: the pump runs")

		require.NoError(t, s.PublishPause(ctx(t), store.Pause{Dependency: vocab.DependencyMailbox, Reason: "connection refused", Since: t0, Now: t0}))
		later := t0.Add(5 * time.Second)
		require.NoError(t, s.PublishPause(ctx(t), store.Pause{Dependency: vocab.DependencyMailbox, Reason: "i/o timeout", Since: later, Now: later}))
		p, err = s.PumpPause(ctx(t))
		require.NoError(t, err)
		require.NotNil(t, p)
		require.Equal(t, vocab.DependencyMailbox, p.Dependency)
		require.Equal(t, "i/o timeout", p.Reason, "the latest reason")
		require.True(t, p.Since.Equal(t0), "a pause published again keeps its start")
		require.True(t, p.Now.Equal(later))

		require.NoError(t, s.PublishResume(ctx(t), later.Add(time.Second)))
		p, err = s.PumpPause(ctx(t))
		require.NoError(t, err)
		require.Nil(t, p)

		require.NoError(t, s.PublishPause(ctx(t), store.Pause{Dependency: vocab.DependencyDatabase, Since: later.Add(time.Minute), Now: later.Add(time.Minute)}))
		p, err = s.PumpPause(ctx(t))
		require.NoError(t, err)
		require.True(t, p.Since.Equal(later.Add(time.Minute)), "a new pause after a resume starts anew")
		require.Equal(t, vocab.DependencyDatabase, p.Dependency)
	})

	t.Run("ShiftDeadlinesMovesFailuresBeforeThePause", func(t *testing.T) {
		t.Parallel() // its own database (newStore)
		s := newStore(t)
		_, err := s.Enqueue(ctx(t), []int64{1, 2, 3}, t0)
		require.NoError(t, err)
		fail := func(id int64, at time.Time) {
			_, err := s.RecordFailure(ctx(t), vocab.RecordFailureParams{MsgID: id, ErrorClass: "INFRA", Reason: "x", NextAttemptAt: at, Now: at})
			require.NoError(t, err)
		}
		fail(1, t0)                     // failing before the pause
		fail(2, t0.Add(10*time.Minute)) // began during it: not moved
		pausedSince, resumedAt := t0.Add(time.Minute), t0.Add(21*time.Minute)
		n, err := s.ShiftDeadlines(ctx(t), pausedSince, resumedAt)
		require.NoError(t, err)
		require.Equal(t, 1, n)
		m, err := s.Message(ctx(t), 1)
		require.NoError(t, err)
		require.True(t, m.FailingSince.Equal(t0.Add(20*time.Minute)), "moved by the pause: %v", m.FailingSince)
		m, err = s.Message(ctx(t), 2)
		require.NoError(t, err)
		require.True(t, m.FailingSince.Equal(t0.Add(10*time.Minute)))
		m, err = s.Message(ctx(t), 3)
		require.NoError(t, err)
		require.Nil(t, m.FailingSince, "PENDING: nothing to move")
	})
}
