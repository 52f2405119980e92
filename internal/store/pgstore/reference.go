package pgstore

import (
	"context"

	"github.com/msgx-aodb/msgx/db/postgres"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

func (e executor) UpsertRef(ctx context.Context, r vocab.RefRecord) (bool, error) {
	n, err := e.q.RefUpsert(ctx, e.db, postgres.RefUpsertParams{
		Rtype: r.RType, Rkey: r.RKey, Record: r.Record, LastMessageID: r.LastMessageID, Now: r.Now,
	})
	return n > 0, interpret(err)
}

func (e executor) DeleteRef(ctx context.Context, rtype, rkey string) (bool, error) {
	n, err := e.q.RefDelete(ctx, e.db, postgres.RefDeleteParams{Rtype: rtype, Rkey: rkey})
	return n > 0, interpret(err)
}

func (e executor) Ref(ctx context.Context, rtype, rkey string) (vocab.RefRecord, error) {
	r, err := e.q.RefGet(ctx, e.db, postgres.RefGetParams{Rtype: rtype, Rkey: rkey})
	return vocab.RefRecord{
		RType: r.Rtype, RKey: r.Rkey, Record: r.Record, Version: r.Version,
		LastMessageID: r.LastMessageID, Now: r.UpdatedAt,
	}, interpret(err)
}

func (e executor) ReplaceRefList(ctx context.Context, rtype string, keep []string) (int, error) {
	if keep == nil {
		keep = []string{}
	}
	n, err := e.q.RefReplaceList(ctx, e.db, postgres.RefReplaceListParams{Rtype: rtype, Keep: keep})
	return int(n), interpret(err)
}
