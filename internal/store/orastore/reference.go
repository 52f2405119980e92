package orastore

import (
	"context"
	"database/sql"

	"github.com/msgx-aodb/msgx/internal/vocab"
)

// UpsertRef stores a record (a CLOB); the MERGE's conditional update counts
// no row when the record is unchanged (DBMS_LOB.COMPARE).
func (e executor) UpsertRef(ctx context.Context, r vocab.RefRecord) (bool, error) {
	n, err := e.execRows(ctx, "RefUpsert", map[string]any{
		"rtype": r.RType, "rkey": r.RKey, "record": e.bind.Clob(r.Record),
		"last_message_id": r.LastMessageID, "now": instant(r.Now),
	})
	return n > 0, err
}

func (e executor) DeleteRef(ctx context.Context, rtype, rkey string) (bool, error) {
	n, err := e.execRows(ctx, "RefDelete", map[string]any{"rtype": rtype, "rkey": rkey})
	return n > 0, err
}

func (e executor) Ref(ctx context.Context, rtype, rkey string) (vocab.RefRecord, error) {
	var r vocab.RefRecord
	err := e.queryOne(ctx, "RefGet", map[string]any{"rtype": rtype, "rkey": rkey}, func(rows *sql.Rows) error {
		var created sql.NullTime
		return rows.Scan(&r.RType, &r.RKey, &r.Record, &r.Version, &r.LastMessageID, &created, &r.Now)
	})
	return r, err
}

// ReplaceRefList deletes every key of the list that keep lacks; an empty
// keep is an empty collection and deletes the whole list, as in PostgreSQL.
func (e executor) replaceRefListOn(ctx context.Context, rtype string, keep []string) (int, error) {
	list, err := e.strs(ctx, keep)
	if err != nil {
		return 0, err
	}
	n, err := e.execRows(ctx, "RefReplaceList", map[string]any{"rtype": rtype, "keep": list})
	return int(n), err
}
