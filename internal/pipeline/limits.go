package pipeline

import (
	"github.com/msgx-aodb/msgx/internal/limits"
	"github.com/msgx-aodb/msgx/internal/store"
)

// fitMeta drops the META values that do not fit their columns: a refused
// message still binds the rest of its META for audit. A value too long is
// NULL, never cut (a cut value would look valid), as the mailbox backfill
// does.
func fitMeta(meta store.Meta) store.Meta {
	for _, v := range [...]struct {
		t limits.Target
		s *string
	}{{limits.Sender, &meta.Sndr}, {limits.Type, &meta.Type}, {limits.Subtype, &meta.Styp}, {limits.SentRaw, &meta.DttmRaw}} {
		if !v.t.Fits(*v.s) {
			*v.s = ""
		}
	}
	return meta
}

// metaKnown: the message's META was readable (some of it may have been
// dropped by fitMeta).
func metaKnown(meta store.Meta) bool { return meta != store.Meta{} }
