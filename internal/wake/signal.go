// Package wake is the one way msgx's services wake each other, so that work
// handed from one to the next waits for no idle interval: a poll that
// enqueued wakes the pump (internal/pump), a send that inserted a mailbox row
// wakes the poller (internal/ingress), a commit that wrote outbox events
// wakes the Kafka relay (internal/relay). internal/app makes the signals and
// gives each to the service that rings it and the one that listens.
package wake

// Signal wakes one listener. Rings while the listener is busy coalesce into
// one (it reads all the work there is anyway); a ring nobody waits for is
// kept until the next wait. It outlives a lead term: the services of each
// term ring and hear the same signals.
type Signal struct{ c chan struct{} }

// New returns a signal nobody has rung.
func New() *Signal { return &Signal{c: make(chan struct{}, 1)} }

// Ring never blocks. A nil signal does nothing.
func (s *Signal) Ring() {
	if s == nil {
		return
	}
	select {
	case s.c <- struct{}{}:
	default:
	}
}

// C is the channel a waiting listener selects on; nil (blocks forever) for
// a nil signal, so a listener without one waits out its own interval.
func (s *Signal) C() <-chan struct{} {
	if s == nil {
		return nil
	}
	return s.c
}
