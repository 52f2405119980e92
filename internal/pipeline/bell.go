package pipeline

// Bell tells an idle pump that messages were queued, so a message waits for
// no idle interval: the poller and the HTTP send ring it after an enqueue.
// Rings while the pump is busy coalesce into one (the pump reads the whole
// queue head anyway); a ring nobody waits for is kept until the next wait.
// It outlives a lead term: the pump of each term listens to the same bell.
type Bell struct{ c chan struct{} }

// NewBell returns a bell nobody has rung.
func NewBell() *Bell { return &Bell{c: make(chan struct{}, 1)} }

// Ring never blocks. A nil bell does nothing.
func (b *Bell) Ring() {
	if b == nil {
		return
	}
	select {
	case b.c <- struct{}{}:
	default:
	}
}

// rung is the channel a waiting pump selects on; nil (blocks forever) for a
// nil bell.
func (b *Bell) rung() <-chan struct{} {
	if b == nil {
		return nil
	}
	return b.c
}
