package orastore

import (
	"context"
	"database/sql"
	"time"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/widths"
)

// Maintenance (sql/oracle11g/queries/maintenance.sql and the purges of
// proc_state.sql and snapshot.sql): the purges are PL/SQL blocks that return
// the batch's count and oldest/newest through OUT binds.

// purgeCandidatesOn reads the flights with their details (collections: pinned).
func (e executor) purgeCandidatesOn(ctx context.Context, p store.PurgeParams) ([]*flight.State, error) {
	rows, err := e.rowMaps(ctx, "FlightListPurgeCandidates", purgeBinds(p))
	if err != nil {
		return nil, err
	}
	_, ordered, err := e.withDetails(ctx, rows)
	return ordered, err
}

// PreviewPurge: Oldest/Newest are operation days (DATE), read back as UTC
// midnights as pgx reads a date.
func (e executor) PreviewPurge(ctx context.Context, p store.PurgeParams) (store.Swept, error) {
	var sw store.Swept
	err := e.queryOne(ctx, "FlightPurgePreview", purgeBinds(p), func(r *sql.Rows) error {
		var n int64
		var oldest, newest sql.NullTime
		err := r.Scan(&n, &oldest, &newest)
		sw = store.Swept{Rows: int(n), Oldest: dayPtr(oldest), Newest: dayPtr(newest)}
		return err
	})
	return sw, err
}

func purgeBinds(p store.PurgeParams) map[string]any {
	return map[string]any{
		"deleted_before": instant(p.DeletedBefore), "day_before": day(p.DayBefore),
		"quiet_before": instant(p.QuietBefore), "max_rows": p.Max,
	}
}

// WriteFlightHistory inserts one row per execution: the state is a CLOB
// (as InsertEvents, no CLOB array DML until a real 11g proved it).
func (e executor) WriteFlightHistory(ctx context.Context, rows []store.FlightHistory) error {
	for _, h := range rows {
		if _, err := e.exec(ctx, "FlightHstInsert", map[string]any{
			"flid": h.FLID, "operation_day": day(h.OperationDay), "lifecycle": h.Lifecycle,
			"state_version": h.StateVersion, "last_message_id": h.LastMessageID, "state": e.bind.Clob(string(h.State)),
			"flight_created_at": instant(h.CreatedAt), "purged_at": instant(h.PurgedAt),
		}); err != nil {
			return err
		}
	}
	return nil
}

func (e executor) deleteFlightsOn(ctx context.Context, p store.DeleteFlightsParams) (int, error) {
	if len(p.FLIDs) == 0 {
		return 0, nil
	}
	list, err := e.numbers(ctx, p.FLIDs)
	if err != nil {
		return 0, err
	}
	var deleted int64
	_, err = e.exec(ctx, "FlightDeleteMany", map[string]any{"flids": list, "max_rows": p.Max, "deleted": sql.Out{Dest: &deleted}})
	return int(deleted), err
}

func (e executor) LatestFlightHistory(ctx context.Context, flid int64) (store.FlightHistory, error) {
	var h store.FlightHistory
	err := e.queryOne(ctx, "FlightHstLatest", map[string]any{"flid": flid}, func(r *sql.Rows) error {
		var hstID int64
		var state string
		var opDay time.Time
		err := r.Scan(&hstID, &h.FLID, &opDay, &h.Lifecycle, &h.StateVersion, &h.LastMessageID, &state, &h.CreatedAt, &h.PurgedAt)
		h.OperationDay, h.State = dayOf(opDay), []byte(state)
		return err
	})
	return h, err
}

func (e executor) ArchiveMessages(ctx context.Context, p store.ArchiveMessagesParams) (store.Swept, error) {
	return e.sweep(ctx, "ProcStateArchive", map[string]any{
		"finished_before": instant(p.Before), "max_rows": p.Max, "now": instant(p.Now), "dry_run": flag(p.DryRun),
	})
}

func (e executor) PurgeSnapshotLogs(ctx context.Context, p store.RetentionParams) (store.Swept, error) {
	return e.sweep(ctx, "SchdSnapLogPurge", map[string]any{"before": instant(p.Before), "max_rows": p.Max, "dry_run": flag(p.DryRun)})
}

func (e executor) PurgeIngressGaps(ctx context.Context, p store.RetentionParams) (store.Swept, error) {
	return e.sweep(ctx, "IngressGapPurge", map[string]any{"before": instant(p.Before), "max_rows": p.Max, "dry_run": flag(p.DryRun)})
}

func (e executor) PurgeEvents(ctx context.Context, p store.RetentionParams) (store.Swept, error) {
	return e.sweep(ctx, "EventPurgeDelivered", map[string]any{"created_before": instant(p.Before), "max_rows": p.Max, "dry_run": flag(p.DryRun)})
}

// sweep runs a purge block and reads its :affected, :oldest, :newest.
func (e executor) sweep(ctx context.Context, name string, binds map[string]any) (store.Swept, error) {
	var n int64
	var oldest, newest sql.NullTime
	binds["affected"], binds["oldest"], binds["newest"] = sql.Out{Dest: &n}, sql.Out{Dest: &oldest}, sql.Out{Dest: &newest}
	if _, err := e.exec(ctx, name, binds); err != nil {
		return store.Swept{}, err
	}
	return store.Swept{Rows: int(n), Oldest: timePtr(oldest), Newest: timePtr(newest)}, nil
}

// SaveJobRun: an empty Error is NULL (a success, which moves LAST_OK_AT);
// a longer one is cut to the column's width (widths.LastError).
func (e executor) SaveJobRun(ctx context.Context, r store.JobRun) error {
	_, err := e.exec(ctx, "MaintenanceRunSave", map[string]any{
		"job": r.Job, "started_at": instant(r.StartedAt), "duration_ms": r.Duration.Milliseconds(), "affected": int64(r.Rows),
		"oldest": instantPtr(r.Oldest), "newest": instantPtr(r.Newest), "last_error": text(widths.LastError.Cut(r.Error)),
	})
	return err
}

func (e executor) JobRuns(ctx context.Context) ([]store.JobRun, error) {
	var out []store.JobRun
	err := e.query(ctx, "MaintenanceRunList", nil, func(r *sql.Rows) error {
		var (
			j                      store.JobRun
			ms, affected           int64
			oldest, newest, lastOK sql.NullTime
			lastErr                sql.NullString
		)
		err := r.Scan(&j.Job, &j.StartedAt, &ms, &affected, &oldest, &newest, &lastErr, &lastOK)
		j.Duration = time.Duration(ms) * time.Millisecond
		j.Swept = store.Swept{Rows: int(affected), Oldest: timePtr(oldest), Newest: timePtr(newest)}
		j.Error, j.LastOKAt = lastErr.String, timePtr(lastOK)
		out = append(out, j)
		return err
	})
	return out, err
}

// flag binds a boolean as the NUMBER 0/1 PL/SQL compares (no BOOLEAN in 11g SQL).
func flag(b bool) int {
	if b {
		return 1
	}
	return 0
}

func dayPtr(t sql.NullTime) *time.Time {
	if !t.Valid {
		return nil
	}
	d := dayOf(t.Time)
	return &d
}
