package store

import (
	"context"
	"time"

	"github.com/msgx-aodb/msgx/internal/flight"
)

// Maintenance is what the maintenance jobs (internal/maintenance,
// docs/design.md §8) need: bounded batches, every statement capped by its
// params' Max, oldest rows first.
type Maintenance interface {
	// PurgeCandidates returns, in full, up to Max flights the history sweep
	// moves, all with an operation day before DayBefore: DELETED before
	// DeletedBefore, or ACTIVE and unchanged since QuietBefore.
	PurgeCandidates(ctx context.Context, p PurgeParams) ([]*flight.State, error)
	// PreviewPurge counts what PurgeCandidates would return over up to Max
	// flights; Oldest/Newest are operation days.
	PreviewPurge(ctx context.Context, p PurgeParams) (Swept, error)
	// WriteFlightHistory appends the last states of flights to the history
	// store (FLIGHT_HST, details included in the state).
	WriteFlightHistory(ctx context.Context, rows []FlightHistory) error
	// DeleteFlights physically deletes up to Max of the given flights with
	// their details, payloads and memberships. Returns the flights deleted.
	DeleteFlights(ctx context.Context, p DeleteFlightsParams) (int, error)
	// LatestFlightHistory returns the last purged state of a flight;
	// ErrNotFound if it was never purged.
	LatestFlightHistory(ctx context.Context, flid int64) (FlightHistory, error)
	// ArchiveMessages moves up to Max terminal messages finished before
	// Before, with no backfill outstanding, to the archive (PROC_STATE_HST);
	// Oldest/Newest are finish times. DryRun only counts.
	ArchiveMessages(ctx context.Context, p ArchiveMessagesParams) (Swept, error)
	// PurgeSnapshotLogs deletes up to Max snapshot log rows received, and
	// whose scope ended, before Before; Oldest/Newest are receive times.
	PurgeSnapshotLogs(ctx context.Context, p RetentionParams) (Swept, error)
	// PurgeIngressGaps deletes up to Max INGRESS_GAP rows given up before
	// Before, oldest first (with the snapshot log's retention); Oldest/Newest
	// are give-up times.
	PurgeIngressGaps(ctx context.Context, p RetentionParams) (Swept, error)
	// PurgeEvents deletes up to Max delivered outbox events created before
	// Before: never DEAD rows, never a KAFKA:msg row whose KAFKA:schd twin is
	// not SENT (it reads its payload from it). Oldest/Newest: creation times.
	PurgeEvents(ctx context.Context, p RetentionParams) (Swept, error)
	// SaveJobRun records the last run of a job.
	SaveJobRun(ctx context.Context, r JobRun) error
	// JobRuns lists the last run of every job that ran, by name.
	JobRuns(ctx context.Context) ([]JobRun, error)
}

// PurgeParams selects the flights of one history sweep batch.
type PurgeParams struct {
	DayBefore     time.Time // flights with an operation day before this date…
	DeletedBefore time.Time // …DELETED before this…
	QuietBefore   time.Time // …or ACTIVE with no change since this
	Max           int
}

// DeleteFlightsParams names the flights to delete.
type DeleteFlightsParams struct {
	FLIDs []int64
	Max   int
}

// FlightHistory is one purged flight in the history store.
type FlightHistory struct {
	FLID          int64
	OperationDay  time.Time
	Lifecycle     string
	StateVersion  int64
	LastMessageID int64
	State         []byte // flight.EventPayload of the last state
	CreatedAt     time.Time
	PurgedAt      time.Time
}

// ArchiveMessagesParams is one queue archive batch.
type ArchiveMessagesParams struct {
	Before time.Time // finished before
	Max    int
	Now    time.Time // archive time
	DryRun bool
}

// RetentionParams is one retention batch: rows older than Before.
type RetentionParams struct {
	Before time.Time
	Max    int
	DryRun bool
}

// Swept is what one batch touched (or, dry, would touch).
type Swept struct {
	Rows           int
	Oldest, Newest *time.Time // by the job's age column; nil when Rows is 0
}

// Add accumulates a batch into a run's total.
func (s *Swept) Add(b Swept) {
	s.Rows += b.Rows
	if b.Oldest != nil && (s.Oldest == nil || b.Oldest.Before(*s.Oldest)) {
		s.Oldest = b.Oldest
	}
	if b.Newest != nil && (s.Newest == nil || b.Newest.After(*s.Newest)) {
		s.Newest = b.Newest
	}
}

// JobRun is the record of a job's last run.
type JobRun struct {
	Job       string
	StartedAt time.Time
	Duration  time.Duration
	Swept
	Error    string     // empty when it succeeded
	LastOKAt *time.Time // start of the last run that succeeded (read only)
}
