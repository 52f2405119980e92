package maintenance

import (
	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/config"
	"github.com/msgx-aodb/msgx/internal/store"
)

// Standard is the registry of msgx's jobs as the configuration sets them
// (docs/config.md, section Maintenance). The request expiry (Requests) is
// added by app.MaintenanceJobs, which has the request service that runs it.
func Standard(cfg config.Config, st store.Store, clk clock.Clock) *Registry {
	m := cfg.Maintenance
	base := Base{Store: st, Clock: clk, Batch: m.Batch, StatementTimeout: m.StatementTimeout, Pause: m.Pause}
	daily := DailyAt{Hour: m.HistoryHour, Minute: m.HistoryMinute, Location: cfg.Location}
	hb := base
	hb.Batch = m.HistoryBatch
	hb.Yield = HistoryYield
	return NewRegistry(
		&History{Base: hb, At: daily, Retention: m.HistoryRetention, QueueWait: DefaultHistoryQueueWait,
			Enabled: m.HistoryEnabled, Shadow: cfg.Shadow},
		&SnapLog{Base: base, At: daily, Retention: m.SnapLogRetention},
		&Archive{Base: base, Every: m.ArchiveEvery, After: m.ArchiveAfter},
		&Outbox{Base: base, Every: m.OutboxEvery, Retention: m.OutboxRetention},
	)
}
