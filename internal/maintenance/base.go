package maintenance

import (
	"cmp"
	"context"
	"math"
	"math/rand/v2"
	"time"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/store"
)

// Base is what every job shares: batch size, a bound per statement, a pause
// between batches and a cap on the batches of one run.
type Base struct {
	Store store.Store
	Clock clock.Clock
	// Batch is the rows (flights, messages, events, log rows) per batch.
	Batch int
	// MaxBatches caps one run; what is left waits for the next run.
	MaxBatches int
	// StatementTimeout bounds each batch's statements.
	StatementTimeout time.Duration
	// Pause is the most a job waits between two batches (a random wait in
	// [Pause/2, Pause]), so the pump and the relay get the database between
	// them.
	Pause time.Duration
	// Yield, when positive, makes the wait after a batch at least Yield
	// times the batch's duration: a job whose batches hold the pipeline
	// lock (history) leaves the pump at least 1/(1+Yield) of the time.
	Yield float64
}

// Defaults of Base.
const (
	DefaultBatch            = 1000
	DefaultMaxBatches       = 10000
	DefaultStatementTimeout = time.Minute
	DefaultPause            = 100 * time.Millisecond
)

func (b Base) withDefaults() Base {
	b.Batch = cmp.Or(b.Batch, DefaultBatch)
	b.MaxBatches = cmp.Or(b.MaxBatches, DefaultMaxBatches)
	b.StatementTimeout = cmp.Or(b.StatementTimeout, DefaultStatementTimeout)
	b.Pause = max(b.Pause, 0)
	if b.Clock == nil {
		b.Clock = clock.Real{}
	}
	return b
}

// batchFunc runs one batch of at most max rows (dry: counts only).
type batchFunc func(ctx context.Context, max int, dry bool) (store.Swept, error)

// drain runs batches until one is short (nothing more to do now), the run's
// cap is reached or ctx ends. A dry run is one statement over the run's cap:
// nothing moves, so batches would see the same rows again.
func (b Base) drain(ctx context.Context, dry bool, batch batchFunc) (store.Swept, error) {
	var total store.Swept
	if dry {
		bctx, cancel := context.WithTimeout(ctx, b.StatementTimeout)
		defer cancel()
		return batch(bctx, min(b.Batch*b.MaxBatches, math.MaxInt32), true)
	}
	for i := 0; i < b.MaxBatches; i++ {
		bctx, cancel := context.WithTimeout(ctx, b.StatementTimeout)
		began := time.Now() // the batch's own duration, on the wall clock
		got, err := batch(bctx, b.Batch, false)
		took := time.Since(began)
		cancel()
		total.Add(got)
		if err != nil || got.Rows < b.Batch {
			return total, err
		}
		if err := b.pause(ctx, time.Duration(b.Yield*float64(took))); err != nil {
			return total, err
		}
	}
	return total, nil
}

// pause waits a random time in [Pause/2, Pause], and at least atLeast, on
// the clock.
func (b Base) pause(ctx context.Context, atLeast time.Duration) error {
	var d time.Duration
	if b.Pause > 0 {
		d = b.Pause/2 + rand.N(b.Pause/2+1)
	}
	d = max(d, atLeast)
	if d <= 0 {
		return ctx.Err()
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-b.Clock.After(d):
		return nil
	}
}
