package pump

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// genRace is a store whose transactions run before once, just before their
// first snapshot compare-and-set: another writer's moment between the
// snapshot's read of SCHD_GEN and its write.
type genRace struct {
	store.Store
	before *func(vocab.AdvanceSnapshotGenParams)
}

func (s genRace) Begin(ctx context.Context) (store.Tx, error) {
	tx, err := s.Store.Begin(ctx)
	return genRaceTx{tx, s.before}, err
}

type genRaceTx struct {
	store.Tx
	before *func(vocab.AdvanceSnapshotGenParams)
}

func (t genRaceTx) Begin(ctx context.Context) (store.Tx, error) {
	sp, err := t.Tx.Begin(ctx)
	return genRaceTx{sp, t.before}, err
}

func (t genRaceTx) AdvanceSnapshotGen(ctx context.Context, p vocab.AdvanceSnapshotGenParams) error {
	if f := *t.before; f != nil {
		*t.before = nil
		f(p)
	}
	return t.Tx.AdvanceSnapshotGen(ctx, p)
}

// A snapshot whose day's generation another writer advanced between the
// read and the write (rule 4's compare-and-set) fails that attempt with
// nothing written, is retried, and then applies exactly once: one version
// advance of its flight, one set of events, one generation step of its own.
func TestSnapshotGenerationConflictRetriesAndAppliesOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	first := e.Send(t, schdAt("20261202080000", "DNLD", fltr(1, "<STND>201</STND>")))
	e.StepUntilWait(t)
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, first).Status)
	g := e.gen(t, dec2)
	require.Equal(t, int64(1), g.Version)

	var raced int
	hook := func(p vocab.AdvanceSnapshotGenParams) {
		raced++
		// Another writer: the same day one generation on, as of the older DTTM.
		require.NoError(t, e.Store.AdvanceSnapshotGen(t.Context(), vocab.AdvanceSnapshotGenParams{
			FDay: p.FDay, ExpectedVersion: p.ExpectedVersion, MessageID: first, ContentDigest: g.ContentDigest,
			Dttm: g.Dttm, DttmRaw: g.DttmRaw, Now: e.Clock.Now(),
		}))
	}
	before := hook
	e.pump = New(genRace{e.Store, &before}, envReader{e}, nil, e.Clock, e.pump.log, e.pump.cfg)
	e.Env.Pump = e.pump

	id := e.Send(t, schdAt("20261202090000", "DNLD", fltr(1, "<STND>7</STND>")))
	e.StepUntilWait(t)
	require.Equal(t, 1, raced)
	m := e.msg(t, id)
	require.Equal(t, vocab.StatusFailed, m.Status, "the conflict fails the attempt")
	require.Contains(t, m.Reason, "snapshot generation of 2026-12-02 is no longer 1")
	require.Equal(t, "201", e.flight(t, 1).Scalars["STND"].Raw, "nothing of the attempt stays")
	require.Empty(t, e.events(t, id))

	e.DrainPastBackoff(t)
	m = e.msg(t, id)
	require.Equal(t, vocab.StatusSucceeded, m.Status, m.Reason)
	require.Equal(t, 1, raced, "the retry meets no other writer")
	f := e.flight(t, 1)
	require.Equal(t, "7", f.Scalars["STND"].Raw)
	require.Equal(t, int64(2), f.StateVersion, "one version advance")
	require.Len(t, e.events(t, id), 2, "one set of events: KAFKA:msg and KAFKA:schd")
	g = e.gen(t, dec2)
	require.Equal(t, int64(3), g.Version, "the other writer's step, then this message's one")
	require.Equal(t, id, g.LastMessageID)
}
