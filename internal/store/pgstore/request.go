package pgstore

import (
	"context"
	"time"

	"github.com/msgx-aodb/msgx/db/postgres"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Requests (store/request.go).

func (e executor) NextRequestSeqn(ctx context.Context) (int64, error) {
	n, err := e.q.ReqNextSeqn(ctx, e.db)
	return n, interpret(err)
}

func (e executor) InsertRequest(ctx context.Context, r store.NewRequest) (vocab.Request, error) {
	row, err := e.q.ReqInsert(ctx, e.db, postgres.ReqInsertParams{
		ReqType: r.Type, ReqKey: r.Key, ListCode: nilIfEmpty(r.List), RangeBegin: r.RangeBegin, RangeEnd: r.RangeEnd,
		Sender: r.Sender, Seqn: r.Seqn, Now: r.Now, ExpiresAt: r.ExpiresAt, Origin: vocab.RequestOrigin(r.Origin),
	})
	return request(row), interpret(err)
}

func (e executor) Request(ctx context.Context, id int64) (vocab.Request, error) {
	row, err := e.q.ReqGet(ctx, e.db, id)
	return request(row), interpret(err)
}

func (e executor) OpenRequestForUpdate(ctx context.Context, key string) (vocab.Request, error) {
	row, err := e.q.ReqOpenForUpdate(ctx, e.db, key)
	return request(row), interpret(err)
}

func (e executor) LastAnsweredRequest(ctx context.Context, key string) (vocab.Request, error) {
	row, err := e.q.ReqLastDone(ctx, e.db, key)
	return request(row), interpret(err)
}

func (e executor) OpenRequests(ctx context.Context) ([]vocab.Request, error) {
	rows, err := e.q.ReqListOpen(ctx, e.db)
	return requests(rows), interpret(err)
}

func (e executor) Requests(ctx context.Context, beforeID int64, limit int) ([]vocab.Request, error) {
	rows, err := e.q.ReqList(ctx, e.db, postgres.ReqListParams{BeforeID: beforeID, PageSize: int32(max(limit, 0))})
	return requests(rows), interpret(err)
}

func (e executor) MarkRequestSent(ctx context.Context, p store.MarkRequestSentParams) error {
	id := p.OutboundID
	n, err := e.q.ReqMarkSent(ctx, e.db, postgres.ReqMarkSentParams{OutboundID: &id, SentAt: p.SentAt, ExpiresAt: p.ExpiresAt, ReqID: p.ID})
	return affected(n, err)
}

func (e executor) MarkRequestDone(ctx context.Context, p vocab.MarkRequestDoneParams) error {
	n, err := e.q.ReqMarkDone(ctx, e.db, postgres.ReqMarkDoneParams{ResponseMsgID: &p.MsgID, Now: p.Now, MatchRule: nilIfEmpty(p.MatchRule), ReqID: p.ID})
	return affected(n, err)
}

func (e executor) ExpireRequestKey(ctx context.Context, p store.ExpireRequestKeyParams) ([]int64, error) {
	ids, err := e.q.ReqExpireKey(ctx, e.db, postgres.ReqExpireKeyParams{Now: p.Now, Note: nilIfEmpty(p.Note), ReqKey: p.Key})
	return ids, interpret(err)
}

func (e executor) ExpireDueRequests(ctx context.Context, now time.Time, max int) ([]int64, error) {
	ids, err := e.q.ReqExpireDue(ctx, e.db, postgres.ReqExpireDueParams{Now: now, MaxRows: int32(max)})
	return ids, interpret(err)
}

func (e executor) DueRequests(ctx context.Context, now time.Time) (store.Swept, error) {
	r, err := e.q.ReqCountDue(ctx, e.db, now)
	if err != nil {
		return store.Swept{}, interpret(err)
	}
	sw := store.Swept{Rows: int(r.Due)}
	if sw.Rows > 0 {
		sw.Oldest, sw.Newest = &r.Oldest, &r.Newest
	}
	return sw, nil
}

// affected maps "no row updated" to ErrNotFound.
func affected(n int64, err error) error {
	if err != nil {
		return interpret(err)
	}
	if n == 0 {
		return store.ErrNotFound
	}
	return nil
}

func request(r postgres.ReqTrack) vocab.Request {
	return vocab.Request{
		ID: r.ReqID, Type: r.ReqType, Key: r.ReqKey, List: deref(r.ListCode), RangeBegin: r.RangeBegin, RangeEnd: r.RangeEnd,
		Sender: r.Sender, Seqn: r.Seqn, OutboundID: r.OutboundID, Status: r.Status, RegisteredAt: r.RegisteredAt,
		SentAt: r.SentAt, ExpiresAt: r.ExpiresAt, DoneAt: r.DoneAt, ResponseMsgID: r.ResponseMsgID,
		MatchRule: deref(r.MatchRule), Note: deref(r.Note), Origin: r.Origin,
	}
}

func requests(rows []postgres.ReqTrack) []vocab.Request {
	out := make([]vocab.Request, len(rows))
	for i, r := range rows {
		out[i] = request(r)
	}
	return out
}
