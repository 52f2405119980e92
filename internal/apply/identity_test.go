package apply

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// stndAt is a FLOP/STND of flight 1 with a fixed SEQN: the AODB's SEQN may
// reset (the mailbox column is a mediumint), so two days can send the same.
func stndAt(seqn int, dttm, stnd string) string {
	return fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?>
<MSG>
 <META><SNDR>AODB</SNDR><SEQN>%d</SEQN><DTTM>%s</DTTM><TYPE>FLOP</TYPE><STYP>STND</STYP></META>
 <FLOP><FLID>1</FLID><STND>%s</STND></FLOP>
</MSG>`, seqn, dttm, stnd)
}

// A reused identity is never silent (rule 2): FLOP/STND SEQN 2002 on 12 Dec
// and again on 13 Dec with another STND is still SKIPPED (the seed's rule),
// but as duplicate-of:<id>:content-differs; an exact resend stays a plain
// duplicate-of:<id>. Alone and in a batch alike.
func TestReusedIdentityIsNeverSilent(t *testing.T) {
	t.Parallel()
	first := stndAt(2002, "20261212100000", "14")
	reused := stndAt(2002, "20261213100000", "15")
	for _, path := range []string{"alone", "batch"} {
		t.Run(path, func(t *testing.T) {
			a := New(Config{Prune: true, Location: shanghai})
			w := setupWorld(t, a)
			var outs []Outcome
			if path == "alone" {
				for _, m := range []string{first, reused, first} {
					out, err := w.one(a, m)
					require.NoError(t, err)
					outs = append(outs, out)
				}
			} else {
				outs = w.batch(a, first, reused, first)
			}
			holder := w.nextID - 2
			require.Equal(t, vocab.StatusSucceeded, outs[0].Status)
			require.Equal(t, vocab.StatusSkipped, outs[1].Status, "still SKIPPED")
			require.Equal(t, fmt.Sprintf("duplicate-of:%d:content-differs", holder), outs[1].Reason)
			require.True(t, outs[1].Conflict)
			require.Equal(t, holder, *outs[1].DuplicateOf)
			require.Equal(t, fmt.Sprintf("duplicate-of:%d", holder), outs[2].Reason, "an exact resend is a plain duplicate")
			require.False(t, outs[2].Conflict)
			require.Equal(t, "14", w.flights[1].Scalars["STND"].Raw, "the duplicate changes nothing")
			require.Equal(t, vocab.RawDigest([]byte(first)), w.holders["AODB|FLOP|STND|2002"].Digest, "the holder binds its digest")
			require.Equal(t, vocab.RawDigest([]byte(reused)), w.finishes[holder+1].Bind.Digest, "the duplicate binds its own")
		})
	}
}

// A holder bound before digests were kept (NULL) is unknown: its
// duplicates are plain duplicates, whatever they carry.
func TestDuplicateOfAHolderWithoutDigestIsPlain(t *testing.T) {
	t.Parallel()
	a := New(Config{Prune: true, Location: shanghai})
	w := setupWorld(t, a)
	w.holders["AODB|FLOP|STND|2002"] = vocab.Holder{MsgID: 99}
	out, err := w.one(a, stndAt(2002, "20261213100000", "15"))
	require.NoError(t, err)
	require.Equal(t, "duplicate-of:99", out.Reason)
	require.False(t, out.Conflict)
	outs := w.batch(a, stndAt(2002, "20261213110000", "16"))
	require.Equal(t, "duplicate-of:99", outs[0].Reason)
}

// Alone or batched, a message binds the same (rule 2): an applied message
// its identity, kind, META and digest; a duplicate, whether its holder was
// bound before or earlier in the batch, the identity it repeats and its own
// digest; a refusal its META only; a message that did not decode nothing.
func TestBindingIsTheSameAloneAndBatched(t *testing.T) {
	t.Parallel()
	msgs := []string{
		stndAt(2002, "20261212100000", "14"),
		stndAt(2002, "20261212100000", "14"), // an exact resend
		stndAt(2002, "20261213100000", "15"), // the identity reused
		"<MSG><META>",                        // malformed
		schd("UPD", fltr(3), `<FLTR><FLID>1</FLID><SODT>05DEC261030</SODT></FLTR>`), // refused: another day
		flop("STND", 1, "<STND>9</STND>"),
	}
	finishes := map[string]map[int64]vocab.Finish{}
	for _, path := range []string{"alone", "batch"} {
		a := New(Config{Prune: true, Location: shanghai})
		w := setupWorld(t, a)
		if path == "alone" {
			for _, m := range msgs {
				_, err := w.one(a, m)
				require.NoError(t, err)
			}
		} else {
			w.batch(a, msgs...)
		}
		finishes[path] = w.finishes
	}
	require.Equal(t, finishes["alone"], finishes["batch"])

	f := finishes["batch"]
	first := int64(3) // after the two messages of setupWorld
	applied := f[first].Bind
	require.Equal(t, "AODB|FLOP|STND|2002", applied.IdentityKey)
	require.Equal(t, string(sis.KindFlightOps), applied.Kind)
	require.Equal(t, vocab.RawDigest([]byte(msgs[0])), applied.Digest)
	for _, dup := range []int64{first + 1, first + 2} {
		require.Equal(t, first, *f[dup].DuplicateOf)
		require.Equal(t, applied.IdentityKey, f[dup].Bind.IdentityKey, "a duplicate binds the identity it repeats")
		require.Equal(t, vocab.RawDigest([]byte(msgs[dup-first])), f[dup].Bind.Digest, "with its own digest")
	}
	require.Nil(t, f[first+3].Bind, "nothing decoded, nothing bound")
	require.Equal(t, &vocab.Binding{Meta: f[first+4].Bind.Meta}, f[first+4].Bind, "a refusal binds its META only")
	require.Equal(t, "SCHD", f[first+4].Bind.Meta.Type)
	require.NotEmpty(t, f[first+5].Bind.IdentityKey)
}
