package replay

import (
	"context"
	"fmt"
	"time"

	"github.com/msgx-aodb/msgx/internal/store"
)

// Apply moves what f selects back to PENDING in batches of BatchSize (each
// batch one statement), reporting progress after each (done of total; total
// is counted first), and returns the ids moved in MSG_ID order. A message
// that changed meanwhile (processed, or replayed by someone else) is skipped.
// On an error the ids moved so far are returned with it.
func Apply(ctx context.Context, st Store, f Filter, now time.Time, progress func(done, total int)) ([]int64, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	if progress == nil {
		progress = func(int, int) {}
	}
	ids := f.ids()
	var todo []int64
	var after int64
	for {
		page, err := st.ReplayCandidates(ctx, store.ReplayCandidatesParams{IDs: ids, Class: f.Class, AfterID: after, Limit: BatchSize})
		if err != nil {
			return nil, fmt.Errorf("replay: list candidates: %w", err)
		}
		for _, m := range page {
			todo = append(todo, m.ID)
		}
		if len(page) < BatchSize {
			break
		}
		after = page[len(page)-1].ID
	}
	moved := []int64{}
	progress(0, len(todo))
	for from := 0; from < len(todo); from += BatchSize {
		batch := todo[from:min(from+BatchSize, len(todo))]
		got, err := st.ReplayIDs(ctx, batch, now)
		if err != nil {
			return moved, fmt.Errorf("replay: after %d of %d messages: %w", len(moved), len(todo), err)
		}
		moved = append(moved, got...)
		progress(from+len(batch), len(todo))
	}
	return moved, nil
}
