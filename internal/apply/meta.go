package apply

import (
	"strings"
	"time"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/vocab"
	"github.com/msgx-aodb/msgx/internal/widths"
)

// FailureBinding is what a failing message binds: its kind and META, not
// its identity (nil when it did not decode), so it is kept for audit and
// backfilled when the message is exhausted.
func FailureBinding(m *sis.Message) *vocab.Binding {
	if m == nil {
		return nil
	}
	return &vocab.Binding{Kind: string(m.Kind), Meta: metaOf(m)}
}

// binding is what a message binds with its outcome, alone or batched: a
// decoded message that applied, or was skipped as a duplicate (it binds the
// identity it repeated, so operators see what it repeated), binds its
// identity, kind, META and raw digest. A refusal, or a message refused at
// decode, binds none of that (finish keeps a DEAD message's META).
func binding(in *Input, meta vocab.Meta, out Outcome) *vocab.Binding {
	if in.Decoded == nil || in.Missing || in.Err != nil || out.Refused() {
		return nil
	}
	return &vocab.Binding{IdentityKey: in.Decoded.Identity, Kind: string(in.Decoded.Kind), Meta: meta, Digest: in.Digest}
}

func metaOf(m *sis.Message) vocab.Meta {
	if m == nil || m.Meta.Type == "" {
		return vocab.Meta{}
	}
	// Copies: the META outlives the message in backfill todos, and a
	// substring would keep the message's whole XML alive. The four texts
	// share one copy, SEQN and DTTM one allocation (a message's META was six).
	meta := vocab.Meta{Sndr: m.Meta.Sender, DttmRaw: m.Meta.SentRaw, Type: m.Meta.Type, Styp: m.Meta.Subtype}
	cloneInto(&meta.Sndr, &meta.DttmRaw, &meta.Type, &meta.Styp)
	meta = fitMeta(meta)
	known := &struct {
		seq  int64
		sent time.Time
	}{m.Meta.Seq, m.Meta.Sent}
	if m.Identity != "" { // SNDR, STYP and SEQN were valid
		meta.Seqn = &known.seq
	}
	if !m.Meta.Sent.IsZero() {
		meta.Dttm = &known.sent
	}
	return meta
}

// cloneInto replaces each string by a copy, all the copies in one
// allocation.
func cloneInto(ss ...*string) {
	n := 0
	for _, s := range ss {
		n += len(*s)
	}
	var b strings.Builder
	b.Grow(n)
	for _, s := range ss {
		b.WriteString(*s)
	}
	all := b.String()
	for _, s := range ss {
		*s, all = all[:len(*s)], all[len(*s):]
	}
}

// fitMeta drops the META values that do not fit their columns: a refused
// message still binds the rest of its META for audit. A value too long is
// NULL, never cut (a cut value would look valid), as the mailbox backfill
// does.
func fitMeta(meta vocab.Meta) vocab.Meta {
	for _, v := range [...]struct {
		t widths.Target
		s *string
	}{{widths.Sender, &meta.Sndr}, {widths.Type, &meta.Type}, {widths.Subtype, &meta.Styp}, {widths.SentRaw, &meta.DttmRaw}} {
		if !v.t.Fits(*v.s) {
			*v.s = ""
		}
	}
	return meta
}

// metaKnown: the message's META was readable (some of it may have been
// dropped by fitMeta).
func metaKnown(meta vocab.Meta) bool { return meta != vocab.Meta{} }

// sentBy is the message as the stamps see it (rule 19): its META DTTM, and
// whether it is a snapshot, whose values yield to newer stamps.
func sentBy(msg *sis.Message) flight.Sent {
	return flight.Sent{DTTM: msg.Meta.Sent, Snapshot: msg.Kind == sis.KindSchedule && msg.Schedule.Snapshot()}
}
