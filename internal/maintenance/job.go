package maintenance

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/msgx-aodb/msgx/internal/store"
)

// Job is one maintenance job.
type Job interface {
	// Name is how `msgx maintenance run` and MAINTENANCE_RUN spell it.
	Name() string
	// Schedule says when the runner starts it.
	Schedule() Schedule
	// Run does one run now: batches until a short one. Dry counts what it
	// would do and changes nothing.
	Run(ctx context.Context, dry bool) (Result, error)
}

// Describer is a job that says in one line what it does and when: `msgx
// help` and `msgx maintenance --help` list the registry's jobs with it.
type Describer interface {
	Doc() string
}

// Doc is j's line (Describer), "" when it has none.
func Doc(j Job) string {
	if d, ok := j.(Describer); ok {
		return d.Doc()
	}
	return ""
}

// Result is what one run did (or, dry, would do).
type Result struct {
	store.Swept
	// What names the rows (flights, messages, events, log rows) and their
	// age column, for operators.
	What string
	// Note says why a run did nothing on purpose (e.g. history disabled).
	Note string
	// Also is what the job swept besides its rows (the snaplog job's
	// ingress gaps), each named like What.
	Also []Part
}

// Part is one more kind of rows a job swept.
type Part struct {
	store.Swept
	What string
}

// AllRows counts every row a run swept, Also included.
func (r Result) AllRows() int {
	n := r.Rows
	for _, p := range r.Also {
		n += p.Rows
	}
	return n
}

// Registry holds the jobs by name.
type Registry struct {
	jobs map[string]Job
}

// NewRegistry returns a registry of jobs.
func NewRegistry(jobs ...Job) *Registry {
	r := &Registry{jobs: map[string]Job{}}
	for _, j := range jobs {
		r.Register(j)
	}
	return r
}

// Register adds a job; a second job of the same name replaces the first.
func (r *Registry) Register(j Job) { r.jobs[j.Name()] = j }

// Job returns a job by name.
func (r *Registry) Job(name string) (Job, error) {
	j, ok := r.jobs[name]
	if !ok {
		return nil, fmt.Errorf("unknown maintenance job %q (available: %s)", name, strings.Join(r.Names(), ", "))
	}
	return j, nil
}

// Names lists the registered jobs in name order.
func (r *Registry) Names() []string {
	names := make([]string, 0, len(r.jobs))
	for n := range r.jobs {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Jobs lists the registered jobs in name order.
func (r *Registry) Jobs() []Job {
	out := make([]Job, 0, len(r.jobs))
	for _, n := range r.Names() {
		out = append(out, r.jobs[n])
	}
	return out
}
