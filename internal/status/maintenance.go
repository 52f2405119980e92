package status

import (
	"fmt"
	"strings"
	"time"

	"github.com/msgx-aodb/msgx/internal/oneline"
	"github.com/msgx-aodb/msgx/internal/store"
)

// Job is the last run of a maintenance job (MAINTENANCE_RUN), whichever
// instance ran it.
type Job struct {
	Job             string     `json:"job"`
	LastRunAt       time.Time  `json:"last_run_at"`
	DurationSeconds float64    `json:"duration_seconds"`
	Rows            int        `json:"rows"`
	Oldest          *time.Time `json:"oldest"`
	Newest          *time.Time `json:"newest"`
	Error           *string    `json:"error"`
	LastSuccessAt   *time.Time `json:"last_success_at"`
}

func jobs(runs []store.JobRun) []Job {
	out := make([]Job, len(runs))
	for i, r := range runs {
		out[i] = Job{Job: r.Job, LastRunAt: r.StartedAt, DurationSeconds: r.Duration.Seconds(), Rows: r.Rows,
			Oldest: r.Oldest, Newest: r.Newest, Error: opt(r.Error), LastSuccessAt: r.LastOKAt}
	}
	return out
}

// writeJobs renders one line per job: when it last ran, how long, rows, error.
func writeJobs(b *strings.Builder, kv func(key, format string, a ...any), js []Job, loc *time.Location) {
	b.WriteString("maintenance\n")
	if len(js) == 0 {
		kv("jobs", "none run yet")
	}
	for _, j := range js {
		line := fmt.Sprintf("last run %s, took %s, %d rows", Stamp(j.LastRunAt, loc),
			time.Duration(j.DurationSeconds*float64(time.Second)).Round(time.Millisecond), j.Rows)
		if j.Error != nil {
			line += ", FAILED: " + oneline.Text(*j.Error, 200)
		}
		kv(j.Job, "%s", line)
	}
}
