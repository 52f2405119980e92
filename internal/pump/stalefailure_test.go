package pump

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// replayBeforeFailureStore runs beforeRecord once, right before the pump
// records a head's failure: a replay there commits between the step's read
// of the head and its RecordFailure.
type replayBeforeFailureStore struct {
	store.Store
	beforeRecord func(ctx context.Context, p vocab.RecordFailureParams)
}

func (s *replayBeforeFailureStore) RecordFailure(ctx context.Context, p vocab.RecordFailureParams) (int, error) {
	if hook := s.beforeRecord; hook != nil {
		s.beforeRecord = nil
		hook(ctx, p)
	}
	return s.Store.RecordFailure(ctx, p)
}

// A FAILED head fails again (an INFRA failure of its flight write) and is
// replayed after the step read it, before the failure is recorded: the
// operator's fresh start stands (PENDING, attempts 0, replay 1), the step
// ends stale without an error, and the next steps process the message.
func TestReplayBeforeRecordFailureIsNotOverwritten(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	head, all := failedHead(t, e, 1) // on flight 1
	rs := &replayBeforeFailureStore{Store: &failingFLIDStore{Store: e.Store, flid: 1}}
	rs.beforeRecord = func(ctx context.Context, p vocab.RecordFailureParams) {
		require.Equal(t, head, p.MsgID)
		require.Zero(t, p.ReplayCount, "the attempt read the head before its replay")
		moved, err := e.Store.ReplayIDs(ctx, []int64{head}, e.Clock.Now())
		require.NoError(t, err)
		require.Equal(t, []int64{head}, moved)
	}
	e.pump.store = rs
	// The batch fails and is halved; the head then fails alone.
	var last stepKind
	for i := 0; rs.beforeRecord != nil; i++ {
		require.Less(t, i, 10, "the head's failure was never recorded")
		last = e.step(t)
	}
	require.Equal(t, stale, last, "the replayed head's old failure is not recorded")

	m := e.msg(t, head)
	require.Equal(t, vocab.StatusPending, m.Status, m.Reason)
	require.Zero(t, m.Attempts)
	require.Equal(t, 1, m.ReplayCount)
	require.Nil(t, m.NextAttemptAt)

	e.pump.store = e.Store
	e.StepUntilWait(t)
	for _, id := range all {
		require.Equal(t, vocab.StatusSucceeded, e.msg(t, id).Status, e.msg(t, id).Reason)
	}
	require.Equal(t, 1, e.msg(t, head).ReplayCount)
}
