package metrics

import (
	"context"
	"log/slog"
	"maps"
	"sync"
	"time"

	"github.com/msgx-aodb/msgx/internal/clock"
	"github.com/msgx-aodb/msgx/internal/status"
)

// The console's chart of the last hour (throughput, head age) is drawn from
// a small ring of samples this process keeps: one every HistoryInterval, the
// last HistorySamples of them. Nothing is persisted: a restart starts empty.
const (
	HistoryInterval = 30 * time.Second
	HistorySamples  = 121 // an hour of intervals, both ends included
)

// Outcome is a (kind, status) pair of terminal outcomes.
type Outcome struct {
	Kind, Status string
}

// Sample is the state of the process at one instant.
type Sample struct {
	At time.Time
	// Finished counts the terminal outcomes since the process started;
	// Outcomes splits it by kind and status.
	Finished int64
	Outcomes map[Outcome]int64
	// HeadAge (seconds) and Backlog are the status report's; StatusOK is
	// false when it could not be read (both are then zero).
	HeadAge  float64
	Backlog  int64
	StatusOK bool
}

// history is the ring of samples and the running tally of outcomes.
type history struct {
	mu       sync.Mutex
	finished int64
	outcomes map[Outcome]int64
	ring     []Sample // oldest first, at most HistorySamples
}

func (h *history) count(kind, status string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.outcomes == nil {
		h.outcomes = map[Outcome]int64{}
	}
	h.finished++
	h.outcomes[Outcome{kind, status}]++
}

// Sample records the tallies at now with the status report r (nil: the
// report could not be read).
func (m *Metrics) Sample(now time.Time, r *status.Report) {
	if m == nil {
		return
	}
	h := &m.history
	h.mu.Lock()
	defer h.mu.Unlock()
	s := Sample{At: now, Finished: h.finished, Outcomes: maps.Clone(h.outcomes)}
	if r != nil {
		s.StatusOK, s.Backlog = true, r.Backlog
		if r.Head != nil {
			s.HeadAge = r.Head.AgeSeconds
		}
	}
	if len(h.ring) == HistorySamples {
		h.ring = append(h.ring[:0], h.ring[1:]...)
	}
	h.ring = append(h.ring, s)
}

// History returns the samples kept, oldest first, and the current tallies
// as a last sample at now (its status fields empty).
func (m *Metrics) History(now time.Time) (kept []Sample, current Sample) {
	if m == nil {
		return nil, Sample{At: now}
	}
	h := &m.history
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Sample(nil), h.ring...), Sample{At: now, Finished: h.finished, Outcomes: maps.Clone(h.outcomes)}
}

// Sampler is the service that records the console's history (Metrics.Sampler).
type Sampler struct {
	m   *Metrics
	src status.Source
	clk clock.Clock
	log *slog.Logger
}

// Sampler is the history's sampling service, reading the status report
// from src; m may be nil (metrics disabled: it samples nothing).
func (m *Metrics) Sampler(src status.Source, clk clock.Clock, log *slog.Logger) *Sampler {
	if log == nil {
		log = slog.Default()
	}
	return &Sampler{m: m, src: src, clk: clk, log: log}
}

// Name is the sampler's name as a service.
func (s *Sampler) Name() string { return "history" }

// Run samples every HistoryInterval until ctx ends, the first at once,
// reading the status report (bounded by DefaultStatusTimeout). It returns nil.
func (s *Sampler) Run(ctx context.Context) error {
	if s.m == nil {
		return nil
	}
	m, src, clk, log := s.m, s.src, s.clk, s.log
	for {
		rctx, cancel := context.WithTimeout(ctx, DefaultStatusTimeout)
		r, err := status.Collect(rctx, src, clk.Now())
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return nil //nolint:nilerr // a failure of the cancelled sample is the shutdown, not an error
			}
			log.Debug("metrics: history sample without the status report", "err", err)
			m.Sample(clk.Now(), nil)
		} else {
			m.Sample(clk.Now(), &r)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-clk.After(HistoryInterval):
		}
	}
}
