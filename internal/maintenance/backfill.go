package maintenance

import (
	"context"
	"fmt"
	"time"

	"github.com/msgx-aodb/msgx/internal/plural"
	"github.com/msgx-aodb/msgx/internal/store"
)

// Backfill is the backfill sweep as a job (docs/design.md §8): the
// terminal messages above the backfill mark and the BACKFILL_TODO rows that
// are due are written to the mailbox, in batches until a short one; a todo that fails waits for its backoff (30 s doubling
// to 15 min). Sweep is the backfiller's (internal/backfill). In the leader
// the backfiller starts it itself, every Every, between the todos the pump
// hands it, so the two never write the same todo at once: the runner
// leaves it alone (Driven) and only records its runs. By hand it runs like
// any other job.
type Backfill struct {
	Base
	Every time.Duration
	Sweep func(ctx context.Context) (done, failed int, err error)
}

// dryBackfillMax bounds what a dry run reads: it lists the due todos.
const dryBackfillMax = 10000

func (b *Backfill) Name() string { return "backfill" }

// Doc is the job's line in `msgx maintenance --help`.
func (b *Backfill) Doc() string {
	return "terminal messages above the backfill mark and due BACKFILL_TODO rows → the mailbox (DATE_PROCESSED, STATUS, META); a failed one waits for its backoff (every 30 s)"
}

func (b *Backfill) Schedule() Schedule { return Every(b.Every) }

// Driven: the backfiller's own loop starts the runs, not the runner.
func (b *Backfill) Driven() bool { return true }

func (b *Backfill) Run(ctx context.Context, dry bool) (Result, error) {
	res := Result{What: "mailbox rows by processing time"}
	if dry {
		base := b.Base.withDefaults()
		due, err := b.Store.DueBackfills(ctx, base.Clock.Now(), dryBackfillMax)
		if err != nil {
			return res, fmt.Errorf("backfill: due todos: %w", err)
		}
		mark, err := b.Store.BackfillMark(ctx)
		if err != nil {
			return res, fmt.Errorf("backfill: the mark: %w", err)
		}
		above, err := b.Store.UnmarkedBackfills(ctx, mark, dryBackfillMax)
		if err != nil {
			return res, fmt.Errorf("backfill: messages above the mark: %w", err)
		}
		for _, u := range above {
			if !u.Replay { // a replay's backfill is its todo
				due = append(due, u.Backfill)
			}
		}
		for _, t := range due {
			at := t.ProcessedAt
			res.Add(store.Swept{Rows: 1, Oldest: &at, Newest: &at})
		}
		if len(due) >= dryBackfillMax {
			res.Note = fmt.Sprintf("at least: the first %d due todos and messages above the backfill mark", dryBackfillMax)
		}
		return res, nil
	}
	done, failed, err := b.Sweep(ctx)
	res.Rows = done
	if failed > 0 {
		res.Note = plural.Count(failed, "todo") + " failed, retried after their backoff"
	}
	return res, err
}
