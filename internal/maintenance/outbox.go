package maintenance

import (
	"context"
	"time"

	"github.com/msgx-aodb/msgx/internal/store"
)

// Outbox is outbox retention: delivered MSG_EVENT rows created more than
// Retention ago. Never DEAD rows (the dead letters), never a KAFKA:msg row
// a KAFKA:schd mark names or whose KAFKA:schd twin row is not SENT (they
// read their payload from it, docs/events.md). Hourly.
type Outbox struct {
	Base
	Every     time.Duration
	Retention time.Duration
}

// Defaults of outbox retention (outbox.retention-every, outbox.retention).
const (
	DefaultOutboxEvery     = time.Hour
	DefaultOutboxRetention = 7 * 24 * time.Hour
)

func (o *Outbox) Name() string { return "outbox" }

// Doc is the job's line in `msgx maintenance --help`.
func (o *Outbox) Doc() string {
	return "delivered MSG_EVENT rows older than outbox.retention (every outbox.retention-every)"
}

func (o *Outbox) Schedule() Schedule { return Every(o.Every) }

func (o *Outbox) Run(ctx context.Context, dry bool) (Result, error) {
	b := o.Base.withDefaults()
	swept, err := b.drain(ctx, dry, func(ctx context.Context, max int, dry bool) (store.Swept, error) {
		return o.Store.PurgeEvents(ctx, store.RetentionParams{Before: b.Clock.Now().Add(-o.Retention), Max: max, DryRun: dry})
	})
	return Result{Swept: swept, What: "events by creation time"}, err
}
