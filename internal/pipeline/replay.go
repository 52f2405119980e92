package pipeline

import (
	"context"
	"fmt"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/store"
)

// Replayable classes: what an operator may send back to PENDING. MALFORMED
// and PROTOCOL are final: the same bytes would be refused again.
var Replayable = []string{"CODEC_ERROR", "UNSUPPORTED", "INFRA", "EXHAUSTED"}

// Replayer moves FAILED/DEAD messages of the replayable classes back to
// PENDING, by id or by class: attempts reset, identity kept, the old error
// kept as audit. A replayed message runs again in MSG_ID order only among
// what is still unfinished: replay does not restore history's order, which is
// why an operator previews first (DryRun).
type Replayer struct {
	store store.Store
	clock clock.Clock
}

// NewReplayer wires a replayer.
func NewReplayer(s store.Store, c clock.Clock) *Replayer { return &Replayer{store: s, clock: c} }

// DryRun lists what Replay would move, without changing anything.
func (r *Replayer) DryRun(ctx context.Context, f store.ReplayFilter, max int) ([]store.Message, error) {
	if err := validFilter(f); err != nil {
		return nil, err
	}
	return r.store.Replayable(ctx, f, max)
}

// Replay moves the selected messages back to PENDING and returns their ids.
func (r *Replayer) Replay(ctx context.Context, f store.ReplayFilter) ([]int64, error) {
	if err := validFilter(f); err != nil {
		return nil, err
	}
	return r.store.Replay(ctx, f, r.clock.Now())
}

func validFilter(f store.ReplayFilter) error {
	if f.Class == "" {
		return nil
	}
	for _, c := range Replayable {
		if c == f.Class {
			return nil
		}
	}
	return fmt.Errorf("class %q is not replayable (replayable: %v)", f.Class, Replayable)
}
