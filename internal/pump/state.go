package pump

import (
	"time"

	"github.com/msgx-aodb/msgx/internal/apply"
)

// runState is what a step carries to the next, in one value: the step loop
// (Pump.step and what it calls) is its only user and hands it down as an
// argument, so which step changes what is visible in the signatures.
type runState struct {
	paused *pause      // the dependency outage the pump waits out (pause.go); nil while it runs
	cache  *stateCache // states the fast path committed this lead term (statecache.go)
	ahead  *readAhead  // the next run, read while the current one commits (read.go)
	kept   map[int64]prepared
	// staleFrom is the first id of the last batch found stale (errStale):
	// found so again, it is halved instead of read again.
	staleFrom int64
	// batchLimit is the longest batch the next step may commit: RunLength,
	// halved after a batch fails (to isolate the failing message) and
	// doubled back after each success.
	batchLimit int
	// inputs is applyBatch's list of the batch's inputs, kept from batch
	// to batch (a batch's is a few hundred KB) and cleared after each, so
	// that it keeps no message alive.
	inputs []apply.Input
}

func newRunState(runLength int) *runState {
	return &runState{cache: newStateCache(), batchLimit: runLength}
}

// keep holds messages read and decoded but not processed by this step, so
// the next step does not read them again (a cache by message id, like the
// read-ahead: the next step still reads the queue head itself).
func (st *runState) keep(rest []prepared) {
	if len(rest) == 0 {
		return
	}
	st.kept = make(map[int64]prepared, len(rest))
	for _, pr := range rest {
		st.kept[pr.Msg.ID] = pr
	}
}

// takeKept hands over what the last step kept.
func (st *runState) takeKept() map[int64]prepared {
	kept := st.kept
	st.kept = nil
	return kept
}

// takeAhead waits for the read-ahead in flight, if any, and hands over what
// it read, and its bytes; nil when there is none.
func (st *runState) takeAhead() (map[int64]prepared, int) {
	ra := st.ahead
	if ra == nil {
		return nil, 0
	}
	st.ahead = nil
	<-ra.done
	return ra.got, ra.read
}

// stepKind is how a step ended.
type stepKind int

const (
	committed  stepKind = iota // the run, or what of it the budget took, committed; go on at once
	overtaken                  // a smaller id entered the queue ahead of the run (rule 16): start again from the new head
	stale                      // a message of the run changed after it was read (a replay): start again from a fresh read
	halved                     // a batch failed and rolled back: the next step retries it in halves
	stopping                   // a shutdown began between two transactions: what committed stays, the rest waits
	failed                     // the head failed (recorded with its backoff), or the step did (its error)
	exhausted                  // a FAILED head was finished DEAD(EXHAUSTED)
	backingOff                 // a FAILED head is not due yet: wait its time
	idle                       // the queue is empty: wait Idle, or until Enqueued rings
	paused                     // a dependency is unreachable (rule 14): probe again after Probe
)

var stepKinds = [...]string{"committed", "overtaken", "stale", "halved", "stopping", "failed", "exhausted", "backing off", "idle", "paused"}

func (k stepKind) String() string { return stepKinds[k] }

// stepResult is a step's end and how long to wait before the next (0: at once).
type stepResult struct {
	kind stepKind
	wait time.Duration
}
