package apply

import (
	"context"
	"time"

	"github.com/msgx-aodb/msgx/internal/respmatch"
	"github.com/msgx-aodb/msgx/internal/sis"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// reference upserts or deletes reference records by (RTYPE, RKEY). A RESP
// applies only when it answers a request, and then it is the whole list:
// keys it lacks are deleted (guard off: upserted only, as before).
func (a *Applier) reference(ctx context.Context, r Reader, msgID int64, msg *sis.Message, now time.Time, emit func(*Writes) error) (Outcome, error) {
	ref := msg.Ref
	resp, out, ok, err := a.guard(ctx, r, msg, nil)
	if !ok || err != nil {
		return out, err
	}
	var w Writes
	for _, rec := range ref.Records {
		if ref.Subtype == "DEL" {
			w.RefDeletes = append(w.RefDeletes, RefKey{RType: ref.Type, RKey: rec.Key})
		} else {
			w.RefUpserts = append(w.RefUpserts, vocab.RefRecord{RType: ref.Type, RKey: rec.Key, Record: rec.XML, LastMessageID: msgID, Now: now})
		}
	}
	if resp != nil && resp.Rule != respmatch.RuleOff {
		keys := make([]string, len(ref.Records))
		for i, rec := range ref.Records {
			keys[i] = rec.Key
		}
		w.RefList = &RefList{RType: ref.Type, Keep: keys}
	}
	out = answered(&w, resp, msgID, succeeded(""), now)
	return out, emit(&w)
}
