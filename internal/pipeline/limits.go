package pipeline

import (
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/widths"
)

// fitMeta drops the META values that do not fit their columns: a refused
// message still binds the rest of its META for audit. A value too long is
// NULL, never cut (a cut value would look valid), as the mailbox backfill
// does.
func fitMeta(meta store.Meta) store.Meta {
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
func metaKnown(meta store.Meta) bool { return meta != store.Meta{} }
