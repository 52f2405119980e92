package pipeline

import (
	"context"
	"time"
)

// readAheadTimeout bounds a read-ahead (a slow database must not keep a
// connection for longer; the step then reads itself).
const readAheadTimeout = 30 * time.Second

// readAhead reads and decodes the next run's messages while the current run
// commits: the raw XML comes from the mailbox database and decoding is CPU,
// so neither has to wait for the commit. It is only a cache: the next step
// still reads the queue head itself and takes an entry only for the same
// message id (a mailbox row's raw XML never changes, nor does a row
// come back once gone). A failed read-ahead is simply empty; the step then
// reads as it always does.
type readAhead struct {
	done chan struct{}      // closed once got is final
	got  map[int64]prepared // decoded messages (or their decode errors) by id
	read int                // raw bytes read
}

// startReadAhead reads ahead the PENDING messages after the given id, up
// to one run by count and by bytes (nothing when the first alone is over
// the budget: the step reads it), in the background.
func (p *Pump) startReadAhead(ctx context.Context, after int64) {
	ra := &readAhead{done: make(chan struct{})}
	p.ahead = ra
	// Not the step's context: the step ends before the next one takes the
	// result. The pump's: at shutdown nobody waits for it.
	parent := p.life
	if parent == nil {
		parent = context.WithoutCancel(ctx)
	}
	go func() {
		defer close(ra.done)
		ctx, cancel := context.WithTimeout(parent, readAheadTimeout)
		defer cancel()
		ids, err := p.store.PendingAfter(ctx, after, p.cfg.RunLength)
		if err != nil || len(ids) == 0 {
			return
		}
		_, got, read, err := p.readBudgeted(ctx, ids, nil, false)
		if err == nil { // on error nothing: the step reads itself
			ra.got, ra.read = got, read
		}
	}()
}

// takeAhead waits for the read-ahead in flight, if any, and hands over what
// it read, and its bytes; nil when there is none.
func (p *Pump) takeAhead() (map[int64]prepared, int) {
	ra := p.ahead
	if ra == nil {
		return nil, 0
	}
	p.ahead = nil
	<-ra.done
	return ra.got, ra.read
}
