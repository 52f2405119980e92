package maintenance

import (
	"context"
	"time"

	"github.com/msgx-aodb/msgx/internal/store"
)

// SnapLog is snapshot log retention: SCHD_SNAP_LOG rows received, and whose
// scope ended, more than Retention ago, and the INGRESS_GAP rows given up
// more than Retention ago (spec §8); daily, with the history sweep.
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
	return "SCHD_SNAP_LOG and INGRESS_GAP rows older than snaplog.retention (daily after history.at)"
}

func (s *SnapLog) Schedule() Schedule { return s.At }

func (s *SnapLog) Run(ctx context.Context, dry bool) (Result, error) {
	b := s.Base.withDefaults()
	before := b.Clock.Now().Add(-s.Retention)
	swept, err := b.drain(ctx, dry, func(ctx context.Context, max int, dry bool) (store.Swept, error) {
		return s.Store.PurgeSnapshotLogs(ctx, store.RetentionParams{Before: before, Max: max, DryRun: dry})
	})
	res := Result{Swept: swept, What: "snapshot log rows by receive time"}
	if err != nil {
		return res, err
	}
	gaps, err := b.drain(ctx, dry, func(ctx context.Context, max int, dry bool) (store.Swept, error) {
		return s.Store.PurgeIngressGaps(ctx, store.RetentionParams{Before: before, Max: max, DryRun: dry})
	})
	res.Also = []Part{{Swept: gaps, What: "ingress gaps by give-up time"}}
	return res, err
}
