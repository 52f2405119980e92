package relay

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/kafka"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// hookedStore runs beforeClear when the aggregator clears delivered marks,
// after the records were acknowledged: what commits between the two.
type hookedStore struct {
	Store
	beforeClear func(ctx context.Context) error
}

func (h hookedStore) ClearSchdMarks(ctx context.Context, sent []store.SchdSent) (int, error) {
	if err := h.beforeClear(ctx); err != nil {
		return 0, err
	}
	return h.Store.ClearSchdMarks(ctx, sent)
}

// TestSchdChangeBetweenReadAndClearIsNotLost: flight 1001 changes while its
// previous state is produced (the pump commits between the relay's read and
// its clear). The clear leaves the newer mark, and the next flush sends it.
func TestSchdChangeBetweenReadAndClearIsNotLost(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.insert(t, event(vocab.TargetSchd, 1, 1001, 1, ""), event(vocab.TargetSchd, 2, 1002, 1, ""))
	once := false
	hooked := hookedStore{Store: e.st, beforeClear: func(context.Context) error {
		if !once {
			once = true
			e.insert(t, event(vocab.TargetSchd, 3, 1001, 2, ""))
		}
		return nil
	}}
	a := NewAggregator(hooked, e.cl, topicSchd, e.clk, e.log, e.obs, e.cfg)
	n, err := a.Step(t.Context())
	require.NoError(t, err)
	require.Equal(t, 2, n)
	left := e.marks(t)
	require.Len(t, left, 1, "flight 1002 cleared, flight 1001's newer change kept")
	require.Equal(t, int64(2), left[0].StateVersion)

	n, err = a.Step(t.Context())
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.Empty(t, e.marks(t))
	require.Equal(t, "2", header(lastOf(e.consume(t, topicSchd, 3), "1001"), kafka.HeaderStateVersion),
		"the change that arrived during the flush is delivered")
}

// TestSchdCrashBetweenPublishAndClearRepublishes: the broker acknowledged
// the records but the marks were not cleared (the process died, or the
// database call failed). The next aggregator (a new term) sends the same
// records again, same event-id and idempotency key: at least once, and a
// consumer deduplicates them (docs/events.md).
func TestSchdCrashBetweenPublishAndClearRepublishes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.insert(t, event(vocab.TargetSchd, 1, 1001, 1, ""), tombstone(vocab.TargetSchd, 2, 1002, 1))
	crashed := NewAggregator(hookedStore{Store: e.st, beforeClear: func(context.Context) error {
		return errors.New("connection lost")
	}}, e.cl, topicSchd, e.clk, e.log, e.obs, e.cfg)
	_, err := crashed.Step(t.Context())
	require.ErrorContains(t, err, "they will be sent again")
	require.Len(t, e.marks(t), 2, "nothing cleared")
	first := e.consume(t, topicSchd, 2)

	n, err := e.aggregator().Step(t.Context())
	require.NoError(t, err)
	require.Equal(t, 2, n)
	require.Empty(t, e.marks(t))
	all := e.consume(t, topicSchd, 4)
	for _, r := range first {
		again := lastOf(all, string(r.Key))
		for _, h := range []string{kafka.HeaderEventID, kafka.HeaderIdempotencyKey, kafka.HeaderStateVersion, kafka.HeaderEventType} {
			require.Equal(t, header(r, h), header(again, h), "flight %s, header %s", r.Key, h)
		}
		require.Equal(t, r.Value, again.Value)
	}
	_, dropped := dedupe(all)
	require.Equal(t, 2, dropped, "a consumer deduplicating by idempotency key sees each once")
}

// TestSchdMarkWithoutItsChangeIsDead: a mark whose change's KAFKA:msg event
// is gone (the mark does not read it when written; retention keeps it while
// a mark names it) is not produced as a null value, a delete: it is DEAD at
// once, the dead letter, and the flight waits for its next change.
func TestSchdMarkWithoutItsChangeIsDead(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.insert(t, event(vocab.TargetSchd, 1, 1001, 1, ""))
	require.NoError(t, e.st.MarkSchd(t.Context(), []vocab.SchdMark{
		{FLID: 1002, MsgID: 9, StateVersion: 4, EventType: vocab.EventUpsert, CreatedAt: start}}))
	n, err := e.aggregator().Step(t.Context())
	require.NoError(t, err)
	require.Equal(t, 1, n, "flight 1001 only")
	require.Empty(t, e.marks(t))
	dead, err := e.st.DeadEvents(t.Context(), store.DeadEventsParams{Target: vocab.TargetSchd, Limit: 10})
	require.NoError(t, err)
	require.Len(t, dead, 1)
	require.Equal(t, int64(1002), dead[0].FLID)
	require.Contains(t, dead[0].LastError, "is gone")
	require.Equal(t, 1, e.count(t, topicSchd), "nothing produced for flight 1002")
}
