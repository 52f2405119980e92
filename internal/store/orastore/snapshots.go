package orastore

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

func (e executor) SnapshotGen(ctx context.Context, fday time.Time) (vocab.SnapshotGen, error) {
	var g vocab.SnapshotGen
	err := e.queryOne(ctx, "SchdGenGet", map[string]any{"fday": day(fday)}, func(r *sql.Rows) error {
		var digest, raw sql.NullString
		var dttm sql.NullTime
		if err := r.Scan(&g.FDay, &g.Version, &g.LastMessageID, &digest, &g.UpdatedAt, &raw, &dttm); err != nil {
			return err
		}
		g.FDay, g.ContentDigest, g.DttmRaw, g.Dttm = dayOf(g.FDay), digest.String, raw.String, timePtr(dttm)
		return nil
	})
	return g, err
}

// AdvanceSnapshotGen creates (expected 0) or advances a day's generation.
// A concurrent first insert fails the DO NOTHING MERGE with ORA-00001: that
// is 0 rows, the same conflict as in PostgreSQL.
func (e executor) AdvanceSnapshotGen(ctx context.Context, p vocab.AdvanceSnapshotGenParams) error {
	binds := map[string]any{
		"fday": day(p.FDay), "last_message_id": p.MessageID, "content_digest": text(p.ContentDigest),
		"now": instant(p.Now), "msg_dttm_raw": text(p.DttmRaw), "msg_dttm": instantPtr(p.Dttm),
	}
	name := "SchdGenCreate"
	if p.ExpectedVersion != 0 {
		name = "SchdGenAdvance"
		binds["expected_version"] = p.ExpectedVersion
	}
	r, err := e.ex.ExecContext(ctx, mustQuery(name).SQL, mustArgs(name, binds)...)
	var n int64
	if err == nil {
		n, err = r.RowsAffected()
	}
	if err != nil && !(name == "SchdGenCreate" && isDuplicate(err)) {
		return interpret(ctx, err)
	}
	if n == 0 {
		return fmt.Errorf("%w: snapshot generation of %s is no longer %d", store.ErrConflict, day(p.FDay), p.ExpectedVersion)
	}
	return nil
}

// ReplaceSnapshotMembers deletes the day's members and inserts the new ones
// with one array-bound INSERT (a slice per column).
func (e executor) ReplaceSnapshotMembers(ctx context.Context, fday time.Time, flids []int64) error {
	if _, err := e.exec(ctx, "SchdGenFlidReplace", map[string]any{"fday": day(fday)}); err != nil {
		return err
	}
	if len(flids) == 0 {
		return nil
	}
	days := make([]string, len(flids))
	for i := range days {
		days[i] = day(fday)
	}
	_, err := e.exec(ctx, "SchdGenFlidInsert", map[string]any{"fday": days, "flid": flids})
	return err
}

func (e executor) SnapshotMembers(ctx context.Context, fday time.Time) ([]int64, error) {
	var ids []int64
	err := e.query(ctx, "SchdGenFlidListByDay", map[string]any{"fday": day(fday)}, func(r *sql.Rows) error {
		var id int64
		err := r.Scan(&id)
		ids = append(ids, id)
		return err
	})
	return ids, err
}

func (e executor) LogSnapshot(ctx context.Context, l vocab.SnapshotLog) error {
	_, err := e.exec(ctx, "SchdSnapLogInsert", map[string]any{
		"msg_id": l.MsgID, "msg_subtype": l.Subtype, "fday": day(l.FDay), "gen_version": l.GenVersion,
		"scope_begin": instantPtr(l.ScopeBegin), "scope_end": instantPtr(l.ScopeEnd), "record_count": l.Records,
		"changed": l.Changed, "unchanged": l.Unchanged, "pruned": l.Pruned, "kept_newer": l.KeptNewer, "recv_at": instant(l.RecvAt),
		"outcome": l.Outcome, "msg_dttm": instantPtr(l.Dttm), "stale_of": int64Ptr(l.StaleOf),
	})
	return err
}

// mustArgs is Query.args for a statement run directly (to read its driver error).
func mustArgs(name string, binds map[string]any) []any {
	args, err := mustQuery(name).args(binds)
	if err != nil {
		panic(err) // a bind the adapter forgot: a defect the unit tests catch
	}
	return args
}

func (e executor) SnapshotLogs(ctx context.Context, msgID int64) ([]vocab.SnapshotLog, error) {
	var out []vocab.SnapshotLog
	err := e.query(ctx, "SchdSnapLogListByMessage", map[string]any{"msg_id": msgID}, func(r *sql.Rows) error {
		var (
			l                vocab.SnapshotLog
			snapID           int64
			begin, end, dttm sql.NullTime
			staleOf          sql.NullInt64
		)
		err := r.Scan(&snapID, &l.MsgID, &l.Subtype, &l.FDay, &l.GenVersion, &begin, &end,
			&l.Records, &l.Changed, &l.Unchanged, &l.Pruned, &l.RecvAt, &l.Outcome, &dttm, &staleOf, &l.KeptNewer)
		l.FDay, l.ScopeBegin, l.ScopeEnd, l.Dttm, l.StaleOf = dayOf(l.FDay), timePtr(begin), timePtr(end), timePtr(dttm), int64P(staleOf)
		out = append(out, l)
		return err
	})
	return out, err
}
