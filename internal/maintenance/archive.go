package maintenance

import (
	"context"
	"time"

	"github.com/msgx-aodb/msgx/internal/store"
)

// Archive is the queue archive: terminal PROC_STATE rows (SUCCEEDED,
// SKIPPED, DEAD) finished more than After ago, whose mailbox backfill is
// done, move to PROC_STATE_HST; never PENDING or FAILED. Archived identity
// keys still deduplicate (rule 2). Hourly.
type Archive struct {
	Base
	Every time.Duration
	After time.Duration
}

// Defaults of the queue archive (archive.every, archive.after).
const (
	DefaultArchiveEvery = time.Hour
	DefaultArchiveAfter = 7 * 24 * time.Hour
)

func (a *Archive) Name() string { return "archive" }

// Doc is the job's line in `msgx maintenance --help`.
func (a *Archive) Doc() string {
	return "terminal PROC_STATE rows older than archive.after → PROC_STATE_HST (every archive.every)"
}

func (a *Archive) Schedule() Schedule { return Every(a.Every) }

func (a *Archive) Run(ctx context.Context, dry bool) (Result, error) {
	b := a.Base.withDefaults()
	swept, err := b.drain(ctx, dry, func(ctx context.Context, max int, dry bool) (store.Swept, error) {
		now := b.Clock.Now()
		return a.Store.ArchiveMessages(ctx, store.ArchiveMessagesParams{Before: now.Add(-a.After), Max: max, Now: now, DryRun: dry})
	})
	return Result{Swept: swept, What: "messages by finish time"}, err
}
