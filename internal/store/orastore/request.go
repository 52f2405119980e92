package orastore

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Requests (store/request.go).

// NextRequestSeqn: the MERGE and the read back in one PL/SQL block.
func (e executor) NextRequestSeqn(ctx context.Context) (int64, error) {
	var seqn int64
	_, err := e.exec(ctx, "ReqNextSeqn", map[string]any{"seqn": sql.Out{Dest: &seqn}})
	return seqn, err
}

// InsertRequest takes REQ_ID from REQ_TRACK_SEQ through RETURNING INTO; the
// other columns are the values inserted.
func (e executor) InsertRequest(ctx context.Context, r store.NewRequest) (vocab.Request, error) {
	var id int64
	_, err := e.exec(ctx, "ReqInsert", map[string]any{
		"req_type": r.Type, "req_key": r.Key, "list_code": text(r.List),
		"range_begin": instantPtr(r.RangeBegin), "range_end": instantPtr(r.RangeEnd),
		"sender": r.Sender, "seqn": r.Seqn, "now": instant(r.Now), "expires_at": instant(r.ExpiresAt),
		"origin": vocab.RequestOrigin(r.Origin), "req_id": sql.Out{Dest: &id},
	})
	if err != nil {
		return vocab.Request{}, err
	}
	return vocab.Request{
		ID: id, Type: r.Type, Key: r.Key, List: r.List, RangeBegin: timeOf(r.RangeBegin), RangeEnd: timeOf(r.RangeEnd),
		Sender: r.Sender, Seqn: r.Seqn, Status: vocab.RequestRegistered,
		RegisteredAt: instant(r.Now), ExpiresAt: instant(r.ExpiresAt), Origin: vocab.RequestOrigin(r.Origin),
	}, nil
}

func timeOf(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	v := instant(*t)
	return &v
}

func (e executor) Request(ctx context.Context, id int64) (vocab.Request, error) {
	return e.request(ctx, "ReqGet", map[string]any{"req_id": id})
}

func (e executor) OpenRequestForUpdate(ctx context.Context, key string) (vocab.Request, error) {
	return e.request(ctx, "ReqOpenForUpdate", map[string]any{"req_key": key})
}

func (e executor) LastAnsweredRequest(ctx context.Context, key string) (vocab.Request, error) {
	return e.request(ctx, "ReqLastDone", map[string]any{"req_key": key})
}

func (e executor) OpenRequests(ctx context.Context) ([]vocab.Request, error) {
	return e.requests(ctx, "ReqListOpen", nil)
}

func (e executor) Requests(ctx context.Context, beforeID int64, limit int) ([]vocab.Request, error) {
	return e.requests(ctx, "ReqList", map[string]any{"before_id": beforeID, "page_size": max(limit, 0)})
}

func (e executor) MarkRequestSent(ctx context.Context, p store.MarkRequestSentParams) error {
	n, err := e.execRows(ctx, "ReqMarkSent", map[string]any{
		"outbound_id": p.OutboundID, "sent_at": instant(p.SentAt), "expires_at": instant(p.ExpiresAt), "req_id": p.ID,
	})
	return affected(n, err)
}

func (e executor) MarkRequestDone(ctx context.Context, p vocab.MarkRequestDoneParams) error {
	n, err := e.execRows(ctx, "ReqMarkDone", map[string]any{
		"response_msg_id": p.MsgID, "now": instant(p.Now), "match_rule": text(p.MatchRule), "req_id": p.ID,
	})
	return affected(n, err)
}

// ExpireRequestKey locks the open request of the key, then expires it.
func (e executor) expireRequestKeyOn(ctx context.Context, p store.ExpireRequestKeyParams) ([]int64, error) {
	ids, err := e.ids(ctx, "ReqExpireKey", map[string]any{"req_key": p.Key}, 0)
	if err != nil || len(ids) == 0 {
		return ids, err
	}
	return ids, e.expire(ctx, ids, text(p.Note), p.Now)
}

// ExpireDueRequests locks the first max due requests it can (SKIP LOCKED,
// fetching stops at max so no more are locked), then expires them.
func (e executor) expireDueRequestsOn(ctx context.Context, now time.Time, max int) ([]int64, error) {
	ids, err := e.ids(ctx, "ReqExpireDue", map[string]any{"now": instant(now)}, max)
	if err != nil || len(ids) == 0 {
		return ids, err
	}
	return ids, e.expire(ctx, ids, sql.NullString{}, now)
}

// DueRequests counts what ExpireDueRequests would expire now; the bounds
// are :now when none is due, and then left nil.
func (e executor) DueRequests(ctx context.Context, now time.Time) (store.Swept, error) {
	var sw store.Swept
	err := e.queryOne(ctx, "ReqCountDue", map[string]any{"now": instant(now)}, func(r *sql.Rows) error {
		var n int64
		var oldest, newest time.Time
		err := r.Scan(&n, &oldest, &newest)
		if sw.Rows = int(n); n > 0 {
			sw.Oldest, sw.Newest = &oldest, &newest
		}
		return err
	})
	return sw, err
}

func (e executor) expire(ctx context.Context, ids []int64, note sql.NullString, now time.Time) error {
	list, err := e.numbers(ctx, ids)
	if err != nil {
		return err
	}
	_, err = e.exec(ctx, "ReqExpireIDs", map[string]any{"now": instant(now), "note": note, "req_ids": list})
	return err
}

// ids reads a column of ids, at most limit (0: all), in ascending order.
func (e executor) ids(ctx context.Context, name string, binds map[string]any, limit int) ([]int64, error) {
	out := []int64{}
	err := e.query(ctx, name, binds, func(r *sql.Rows) error {
		if limit > 0 && len(out) == limit {
			return errStop
		}
		var id int64
		err := r.Scan(&id)
		out = append(out, id)
		return err
	})
	slices.Sort(out)
	return out, err
}

// affected maps "no row updated" to ErrNotFound.
func affected(n int64, err error) error {
	if err != nil {
		return err
	}
	if n == 0 {
		return store.ErrNotFound
	}
	return nil
}

func (e executor) request(ctx context.Context, name string, binds map[string]any) (vocab.Request, error) {
	var out vocab.Request
	err := e.queryOne(ctx, name, binds, func(r *sql.Rows) error {
		var err error
		out, err = scanRequest(r)
		return err
	})
	return out, err
}

func (e executor) requests(ctx context.Context, name string, binds map[string]any) ([]vocab.Request, error) {
	var out []vocab.Request
	err := e.query(ctx, name, binds, func(r *sql.Rows) error {
		q, err := scanRequest(r)
		out = append(out, q)
		return err
	})
	return out, err
}

// scanRequest reads a REQ_TRACK row (SELECT *, table order).
func scanRequest(r *sql.Rows) (vocab.Request, error) {
	var (
		q                      vocab.Request
		list, note, rule       sql.NullString
		begin, end, sent, done sql.NullTime
		outbound, response     sql.NullInt64
	)
	err := r.Scan(&q.ID, &q.Type, &q.Key, &list, &begin, &end, &q.Sender, &q.Seqn, &outbound, &q.Status,
		&q.RegisteredAt, &sent, &q.ExpiresAt, &done, &response, &note, &rule, &q.Origin)
	if err != nil {
		return q, fmt.Errorf("REQ_TRACK row: %w", err)
	}
	q.List, q.Note, q.MatchRule = list.String, note.String, rule.String
	q.RangeBegin, q.RangeEnd, q.SentAt, q.DoneAt = timePtr(begin), timePtr(end), timePtr(sent), timePtr(done)
	q.OutboundID, q.ResponseMsgID = int64P(outbound), int64P(response)
	return q, nil
}
