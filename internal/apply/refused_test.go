package apply

import (
	"fmt"
	"testing"

	"github.com/msgx-aodb/msgx/internal/vocab"
	"github.com/stretchr/testify/require"
)

// A message refused after it emitted writes (a later slice breaks a rule)
// tells the caller to discard them: Final is all it writes — its DEAD
// (PROTOCOL) status with its META but no identity, and its backfill. A
// message that applies keeps what it emitted.
func TestRefusedMessageWritesOnlyItsStatus(t *testing.T) {
	t.Parallel()
	a := New(Config{Prune: true, Location: shanghai})
	w := setupWorld(t, a)
	var recs []string
	for r := range 2 * SliceRecords {
		recs = append(recs, fmt.Sprintf("<FLTR><FLID>%d</FLID><STND>x%d</STND></FLTR>", r%2+1, r))
	}
	recs = append(recs, "<FLTR><FLID>99</FLID><STND>1</STND></FLTR>") // a new flight without SODT
	in := w.input(schd("UPD", recs...))
	var emitted []*Writes
	res, err := a.One(t.Context(), w, in, start, func(wr *Writes) error { emitted = append(emitted, wr); return nil })
	require.NoError(t, err)
	require.NotEmpty(t, emitted, "the earlier slices were emitted")
	require.True(t, res.Discard)
	require.Equal(t, vocab.StatusDead, res.Outcome.Status)
	require.Equal(t, vocab.ClassProtocol, res.Outcome.Class)
	require.Empty(t, res.Final.Flights)
	require.Empty(t, res.Final.Events)
	require.Len(t, res.Final.Finishes, 1)
	f := res.Final.Finishes[0]
	require.Equal(t, vocab.StatusDead, f.Status)
	require.NotNil(t, f.Bind)
	require.Empty(t, f.Bind.IdentityKey, "a refused message binds no identity")
	require.Equal(t, "SCHD", f.Bind.Meta.Type, "but keeps its META")
	require.Len(t, res.Final.Backfills, 1)

	res, err = a.One(t.Context(), w, w.input(schd("UPD", fltr(1, "<STND>5</STND>"))), start, func(*Writes) error { return nil })
	require.NoError(t, err)
	require.Equal(t, vocab.StatusSucceeded, res.Outcome.Status)
	require.False(t, res.Discard, "an applied message keeps what it emitted")
}
