package api

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/msgx-aodb/msgx/internal/metrics"
	"github.com/msgx-aodb/msgx/internal/status"
)

// overviewPage is the console's front page: the queue, the chart of the
// last hour, the outbox and the open requests.
type overviewPage struct {
	Report        status.Report
	Role          string // the instance's role, "" when unknown
	Chart         chart
	Outcomes      []outcomeRow
	OutcomesSince time.Time
	DeadTotal     int64
}

type outcomeRow struct {
	Kind, Status string
	Count        int64
}

func (s *server) consoleOverview(w http.ResponseWriter, r *http.Request) {
	rep, err := s.statusReport(r.Context())
	if err != nil {
		s.consoleError(w, r, "status", err)
		return
	}
	now := s.Clock.Now()
	kept, current := s.Metrics.History(now)
	p := overviewPage{Report: rep, Chart: newChart(kept, now)}
	if rep.Role != nil {
		p.Role = *rep.Role
	}
	p.Outcomes, p.OutcomesSince = lastHourOutcomes(kept, current)
	for _, n := range rep.DeadLetters {
		p.DeadTotal += n
	}
	s.render(w, r, "overview", p)
}

// lastHourOutcomes are the outcomes since the oldest sample of the last hour
// (the process's start when it is younger), largest first.
func lastHourOutcomes(kept []metrics.Sample, current metrics.Sample) ([]outcomeRow, time.Time) {
	since := current.At
	base := map[metrics.Outcome]int64{}
	for _, smp := range kept {
		if !smp.At.Before(current.At.Add(-time.Hour)) {
			since, base = smp.At, smp.Outcomes
			break
		}
	}
	var rows []outcomeRow
	for o, n := range current.Outcomes {
		if d := n - base[o]; d > 0 {
			rows = append(rows, outcomeRow{Kind: o.Kind, Status: o.Status, Count: d})
		}
	}
	slices.SortFunc(rows, func(a, b outcomeRow) int {
		if a.Count != b.Count {
			return int(b.Count - a.Count)
		}
		return strings.Compare(a.Kind+a.Status, b.Kind+b.Status)
	})
	return rows, since
}
