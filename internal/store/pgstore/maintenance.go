package pgstore

import (
	"context"
	"time"

	"github.com/msgx-aodb/msgx/db/postgres"
	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store"
)

func (e executor) PurgeCandidates(ctx context.Context, p store.PurgeParams) ([]*flight.State, error) {
	rows, err := e.q.FlightListPurgeCandidates(ctx, e.db, postgres.FlightListPurgeCandidatesParams{
		DeletedBefore: p.DeletedBefore, DayBefore: p.DayBefore, QuietBefore: p.QuietBefore, MaxRows: int32(p.Max),
	})
	if err != nil {
		return nil, interpret(err)
	}
	return e.orderedWithDetails(ctx, rows)
}

func (e executor) PreviewPurge(ctx context.Context, p store.PurgeParams) (store.Swept, error) {
	r, err := e.q.FlightPurgePreview(ctx, e.db, postgres.FlightPurgePreviewParams{
		DeletedBefore: p.DeletedBefore, DayBefore: p.DayBefore, QuietBefore: p.QuietBefore, MaxRows: int32(p.Max),
	})
	return swept(r.Affected, r.Oldest, r.Newest), interpret(err)
}

func (e executor) WriteFlightHistory(ctx context.Context, rows []store.FlightHistory) error {
	if len(rows) == 0 {
		return nil
	}
	params := make([]postgres.FlightHstInsertParams, len(rows))
	for i, h := range rows {
		params[i] = postgres.FlightHstInsertParams{
			Flid: h.FLID, OperationDay: h.OperationDay, Lifecycle: h.Lifecycle, StateVersion: h.StateVersion,
			LastMessageID: h.LastMessageID, State: string(h.State), FlightCreatedAt: h.CreatedAt, PurgedAt: h.PurgedAt,
		}
	}
	_, err := e.q.FlightHstInsert(ctx, e.db, params)
	return interpret(err)
}

func (e executor) DeleteFlights(ctx context.Context, p store.DeleteFlightsParams) (int, error) {
	if len(p.FLIDs) == 0 {
		return 0, nil
	}
	n, err := e.q.FlightDeleteMany(ctx, e.db, postgres.FlightDeleteManyParams{Flids: p.FLIDs, MaxRows: int32(p.Max)})
	return int(n), interpret(err)
}

func (e executor) LatestFlightHistory(ctx context.Context, flid int64) (store.FlightHistory, error) {
	h, err := e.q.FlightHstLatest(ctx, e.db, flid)
	if err != nil {
		return store.FlightHistory{}, interpret(err)
	}
	return store.FlightHistory{
		FLID: h.Flid, OperationDay: h.OperationDay, Lifecycle: h.Lifecycle, StateVersion: h.StateVersion,
		LastMessageID: h.LastMessageID, State: []byte(h.State), CreatedAt: h.FlightCreatedAt, PurgedAt: h.PurgedAt,
	}, nil
}

func (e executor) ArchiveMessages(ctx context.Context, p store.ArchiveMessagesParams) (store.Swept, error) {
	r, err := e.q.ProcStateArchive(ctx, e.db, postgres.ProcStateArchiveParams{
		FinishedBefore: p.Before, MaxRows: int32(p.Max), DryRun: p.DryRun, Now: p.Now,
	})
	return swept(r.Affected, r.Oldest, r.Newest), interpret(err)
}

func (e executor) PurgeSnapshotLogs(ctx context.Context, p store.RetentionParams) (store.Swept, error) {
	r, err := e.q.SchdSnapLogPurge(ctx, e.db, postgres.SchdSnapLogPurgeParams{
		Before: p.Before, MaxRows: int32(p.Max), DryRun: p.DryRun,
	})
	return swept(r.Affected, r.Oldest, r.Newest), interpret(err)
}

func (e executor) PurgeIngressGaps(ctx context.Context, p store.RetentionParams) (store.Swept, error) {
	r, err := e.q.IngressGapPurge(ctx, e.db, postgres.IngressGapPurgeParams{
		Before: p.Before, MaxRows: int32(p.Max), DryRun: p.DryRun,
	})
	return swept(r.Affected, r.Oldest, r.Newest), interpret(err)
}

func (e executor) PurgeEvents(ctx context.Context, p store.RetentionParams) (store.Swept, error) {
	r, err := e.q.EventPurgeDelivered(ctx, e.db, postgres.EventPurgeDeliveredParams{
		CreatedBefore: p.Before, MaxRows: int32(p.Max), DryRun: p.DryRun,
	})
	return swept(r.Affected, r.Oldest, r.Newest), interpret(err)
}

func (e executor) SaveJobRun(ctx context.Context, r store.JobRun) error {
	return interpret(e.q.MaintenanceRunSave(ctx, e.db, postgres.MaintenanceRunSaveParams{
		Job: r.Job, StartedAt: r.StartedAt, DurationMs: r.Duration.Milliseconds(), Affected: int64(r.Rows),
		Oldest: r.Oldest, Newest: r.Newest, LastError: nilIfEmpty(truncateRunes(r.Error, 1000)),
	}))
}

func (e executor) JobRuns(ctx context.Context) ([]store.JobRun, error) {
	rows, err := e.q.MaintenanceRunList(ctx, e.db)
	if err != nil {
		return nil, interpret(err)
	}
	out := make([]store.JobRun, len(rows))
	for i, r := range rows {
		out[i] = store.JobRun{
			Job: r.Job, StartedAt: r.StartedAt, Duration: time.Duration(r.DurationMs) * time.Millisecond,
			Swept: store.Swept{Rows: int(r.Affected), Oldest: r.Oldest, Newest: r.Newest},
			Error: deref(r.LastError), LastOKAt: r.LastOkAt,
		}
	}
	return out, nil
}

// swept converts a batch's count and its min/max (NULL when no row; sqlc
// types aggregates as interface{}) to a store.Swept.
func swept(n int64, oldest, newest any) store.Swept {
	return store.Swept{Rows: int(n), Oldest: optTime(oldest), Newest: optTime(newest)}
}

func optTime(v any) *time.Time {
	if t, ok := v.(time.Time); ok {
		return &t
	}
	return nil
}

// truncateRunes keeps at most n characters (a VARCHAR(n) column).
func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}
