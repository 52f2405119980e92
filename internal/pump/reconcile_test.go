package pump

import (
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/ingress"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// insertAt writes a row with an explicit id received at a given time, as an
// AODB writer whose transaction stayed open long before it committed.
func (e *env) insertAt(t testing.TB, id int64, xml string, received time.Time) {
	t.Helper()
	_, err := e.MailboxDB.ExecContext(t.Context(),
		"INSERT INTO cminmsgs (CMINMSGS_ID, CMINMSGS_CLOB_MSG, CMINMSGS_DATE_RECEIVED, CMINMSGS_STATUS) VALUES (?, ?, ?, 'VALID')",
		id, xml, received.In(shanghai).Format(time.DateTime))
	require.NoError(t, err)
}

// Nothing is missed at any age (rule 17): a row received long before it
// committed, behind a gap given up and past the rescan's age, is found by
// the reconciliation pass and processed as a late row — counted, logged
// with both ids, marked on its message.
func TestReconcileFindsARowAtAnyAgeAsALateRow(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var obs ingressCount
	var logged strings.Builder
	p := ingress.NewPoller(e.Store, e.Mailbox, e.Clock, slog.New(slog.NewTextHandler(&logged, nil)), ingress.Config{Observer: &obs})
	e.insertAt(t, 10, schd("UPD", fltr(1, "<STND>A</STND>")), e.Clock.Now())
	e.insertAt(t, 12, schd("UPD", fltr(1, "<STND>C</STND>")), e.Clock.Now())
	require.Equal(t, 1, pollN(t, p), "11 is a hole")
	e.Clock.Advance(ingress.DefaultGapWait)
	require.Equal(t, 1, pollN(t, p), "given up")
	e.StepUntilWait(t)

	e.insertAt(t, 11, schd("UPD", fltr(1, "<STND>B</STND>")), e.Clock.Now().Add(-48*time.Hour)) // received two days ago
	require.Zero(t, pollN(t, p), "past the rescan's age")

	dry, err := p.Reconcile(t.Context(), true)
	require.NoError(t, err)
	require.Equal(t, 1, dry.Enqueued, "the dry pass counts the row the queue lacks")
	_, err = e.Store.Message(t.Context(), 11)
	require.ErrorIs(t, err, store.ErrNotFound, "a dry pass enqueues nothing")

	got, err := p.Reconcile(t.Context(), false)
	require.NoError(t, err)
	require.Equal(t, ingress.Reconciled{Scanned: 3, Enqueued: 1, Late: 1}, got, "10 and 12 are not backfilled in this env: queued, ignored")
	require.Equal(t, int32(1), obs.late.Load())
	require.Contains(t, logged.String(), "late row")
	require.Contains(t, logged.String(), "msg_id=11 largest_finished_id=12")
	require.NotNil(t, e.msg(t, 11).LateAfter)
	require.Equal(t, "late:12", vocab.LateMark(*e.msg(t, 11).LateAfter))

	e.StepUntilWait(t)
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, 11).Status, "a late row is processed")
	require.Equal(t, "B", e.stand(t, 1), "its effect lands after the larger id's")
	again, err := p.Reconcile(t.Context(), false)
	require.NoError(t, err)
	require.Zero(t, again.Enqueued, "the queue holds it now")

	irr, err := e.Store.IngressIrregular(t.Context(), start, 10)
	require.NoError(t, err)
	require.Equal(t, int64(1), irr.Gaps)
	require.Equal(t, int64(1), irr.LateRows)
}

// In shadow mode another system processes the mailbox: the pass does
// nothing and says so (the rescan window is the limit).
func TestReconcileInShadowModeDoesNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.insertAt(t, 5, schd("UPD", fltr(1)), e.Clock.Now().Add(-48*time.Hour))
	p := ingress.NewPoller(e.Store, e.Mailbox, e.Clock, slog.New(slog.NewTextHandler(io.Discard, nil)), ingress.Config{Shadow: true})
	require.NoError(t, e.Store.AdvanceIngressMark(t.Context(), store.AdvanceIngressMarkParams{Source: "cminmsgs", LastID: 10, Now: e.Clock.Now()}))
	got, err := p.Reconcile(t.Context(), false)
	require.NoError(t, err)
	require.Zero(t, got.Enqueued)
	require.Contains(t, got.Note, "shadow mode")
	_, err = e.Store.Message(t.Context(), 5)
	require.ErrorIs(t, err, store.ErrNotFound)
}
