package widths

import (
	"fmt"
	"unicode/utf8"

	"github.com/msgx-aodb/msgx/internal/sis"
)

// Target is where one value is written: the narrowest of its columns.
type Target struct {
	Column Column
	Width  int
}

func target(cols ...Column) Target {
	var t Target
	for _, c := range cols {
		n, ok := Width(c)
		if !ok {
			panic("widths: no width for " + c.String())
		}
		if t.Width == 0 || n < t.Width {
			t.Column, t.Width = c, n
		}
	}
	return t
}

// Fits reports whether s fits the target (PostgreSQL counts characters).
func (t Target) Fits(s string) bool {
	return len(s) <= t.Width || utf8.RuneCountInString(s) <= t.Width
}

// Cut is s kept within the target's width: an error text msgx writes (a
// reason, a last error) keeps its start, and "..." says it was cut.
func (t Target) Cut(s string) string {
	if t.Fits(s) {
		return s
	}
	return string([]rune(s)[:t.Width-3]) + "..."
}

// refuse is the error for s, which does not fit; path names the field.
func (t Target) refuse(path, s string) *sis.Error {
	return &sis.Error{Class: sis.ClassProtocol, Path: path,
		Reason: fmt.Sprintf("%d characters, the column %s holds %d", utf8.RuneCountInString(s), t.Column, t.Width)}
}

// metaTarget: a META value is kept in proc_state, its archive and the
// mailbox backfill todo.
func metaTarget(col, todoCol string) Target {
	return target(Column{"proc_state", col}, Column{"proc_state_hst", col}, Column{"backfill_todo", todoCol})
}

// What META, the identity and reasons are written to.
var (
	Sender   = metaTarget("meta_sndr", "meta_sndr")
	Type     = metaTarget("msg_type", "meta_type")
	Subtype  = metaTarget("msg_subtype", "meta_styp")
	SentRaw  = target(Column{"proc_state", "meta_dttm_raw"}, Column{"proc_state_hst", "meta_dttm_raw"}, Column{"schd_gen", "msg_dttm_raw"})
	Identity = target(Column{"proc_state", "identity_key"}, Column{"proc_state_hst", "identity_key"})
	// Reason is what an error or skip reason is cut to.
	Reason = target(Column{"proc_state", "reason"}, Column{"proc_state", "prev_reason"},
		Column{"proc_state_hst", "reason"}, Column{"proc_state_hst", "prev_reason"})
	// LastError: the error texts of retried deliveries and backfills.
	LastError = target(Column{"msg_event", "last_error"}, Column{"schd_mark", "last_error"}, Column{"backfill_todo", "last_error"}, Column{"maintenance_run", "last_error"})
)
