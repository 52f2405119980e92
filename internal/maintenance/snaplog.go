package maintenance

import (
	"context"
	"time"

	"github.com/msgx-aodb/msgx/internal/store"
)

// SnapLog is snapshot log retention: SCHD_SNAP_LOG rows received, and whose
// scope ended, more than Retention ago; daily, with the history sweep.
type SnapLog struct {
	Base
	At        DailyAt
	Retention time.Duration
}

// DefaultSnapLogRetention is snaplog.retention's default (90 days).
const DefaultSnapLogRetention = 90 * 24 * time.Hour

func (s *SnapLog) Name() string { return "snaplog" }

// Doc is the job's line in `msgx maintenance --help`.
func (s *SnapLog) Doc() string {
	return "SCHD_SNAP_LOG rows older than snaplog.retention (daily after history.at)"
}

func (s *SnapLog) Schedule() Schedule { return s.At }

func (s *SnapLog) Run(ctx context.Context, dry bool) (Result, error) {
	b := s.Base.withDefaults()
	swept, err := b.drain(ctx, dry, func(ctx context.Context, max int, dry bool) (store.Swept, error) {
		return s.Store.PurgeSnapshotLogs(ctx, store.RetentionParams{Before: b.Clock.Now().Add(-s.Retention), Max: max, DryRun: dry})
	})
	return Result{Swept: swept, What: "snapshot log rows by receive time"}, err
}
