package pgstore

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/msgx-aodb/msgx/db/postgres"
	"github.com/msgx-aodb/msgx/internal/store"
)

// Snapshots.

func (e executor) SnapshotGen(ctx context.Context, fday time.Time) (store.SnapshotGen, error) {
	g, err := e.q.SchdGenGet(ctx, e.db, fday)
	return store.SnapshotGen{
		FDay: g.Fday, Version: g.Version, LastMessageID: g.LastMessageID,
		ContentDigest: deref(g.ContentDigest), UpdatedAt: g.UpdatedAt,
		Dttm: g.MsgDttm, DttmRaw: deref(g.MsgDttmRaw),
	}, interpret(err)
}

func (e executor) AdvanceSnapshotGen(ctx context.Context, p store.AdvanceGen) error {
	var n int64
	var err error
	if p.ExpectedVersion == 0 {
		n, err = e.q.SchdGenCreate(ctx, e.db, postgres.SchdGenCreateParams{
			Fday: p.FDay, LastMessageID: p.MessageID, ContentDigest: nilIfEmpty(p.ContentDigest), Now: p.Now,
			MsgDttm: p.Dttm, MsgDttmRaw: nilIfEmpty(p.DttmRaw),
		})
	} else {
		n, err = e.q.SchdGenAdvance(ctx, e.db, postgres.SchdGenAdvanceParams{
			LastMessageID: p.MessageID, ContentDigest: nilIfEmpty(p.ContentDigest), Now: p.Now,
			MsgDttm: p.Dttm, MsgDttmRaw: nilIfEmpty(p.DttmRaw),
			Fday: p.FDay, ExpectedVersion: p.ExpectedVersion,
		})
	}
	if err != nil {
		return interpret(err)
	}
	if n == 0 {
		return fmt.Errorf("%w: snapshot generation of %s is no longer %d", store.ErrConflict, p.FDay.Format(time.DateOnly), p.ExpectedVersion)
	}
	return nil
}

func (e executor) ReplaceSnapshotMembers(ctx context.Context, fday time.Time, flids []int64) error {
	if _, err := e.q.SchdGenFlidDeleteByDay(ctx, e.db, fday); err != nil {
		return interpret(err)
	}
	rows := make([]postgres.SchdGenFlidInsertParams, len(flids))
	for i, f := range flids {
		rows[i] = postgres.SchdGenFlidInsertParams{Fday: fday, Flid: f}
	}
	_, err := e.q.SchdGenFlidInsert(ctx, e.db, rows)
	return interpret(err)
}

func (e executor) SnapshotMembers(ctx context.Context, fday time.Time) ([]int64, error) {
	ids, err := e.q.SchdGenFlidListByDay(ctx, e.db, fday)
	return ids, interpret(err)
}

func (e executor) LogSnapshot(ctx context.Context, l store.SnapshotLog) error {
	return interpret(e.q.SchdSnapLogInsert(ctx, e.db, postgres.SchdSnapLogInsertParams{
		MsgID: l.MsgID, MsgSubtype: l.Subtype, Fday: l.FDay, GenVersion: l.GenVersion,
		ScopeBegin: l.ScopeBegin, ScopeEnd: l.ScopeEnd, RecordCount: int32(l.Records),
		Changed: int32(l.Changed), Unchanged: int32(l.Unchanged), Pruned: int32(l.Pruned), RecvAt: l.RecvAt,
		Outcome: l.Outcome, MsgDttm: l.Dttm, StaleOf: l.StaleOf,
	}))
}

func (e executor) SnapshotLogs(ctx context.Context, msgID int64) ([]store.SnapshotLog, error) {
	rows, err := e.q.SchdSnapLogListByMessage(ctx, e.db, msgID)
	if err != nil {
		return nil, interpret(err)
	}
	logs := make([]store.SnapshotLog, len(rows))
	for i, r := range rows {
		logs[i] = store.SnapshotLog{
			MsgID: r.MsgID, Subtype: r.MsgSubtype, FDay: r.Fday, Outcome: r.Outcome,
			GenVersion: r.GenVersion, StaleOf: r.StaleOf, Dttm: r.MsgDttm,
			ScopeBegin: r.ScopeBegin, ScopeEnd: r.ScopeEnd, Records: int(r.RecordCount),
			Changed: int(r.Changed), Unchanged: int(r.Unchanged), Pruned: int(r.Pruned), RecvAt: r.RecvAt,
		}
	}
	return logs, nil
}

// Outbox.

func (e executor) InsertEvents(ctx context.Context, events []store.NewEvent) error {
	rows := make([]postgres.EventInsertParams, len(events))
	for i, ev := range events {
		var payload *string
		if ev.Payload != nil {
			p := string(ev.Payload)
			payload = &p
		}
		rows[i] = postgres.EventInsertParams{
			Target: ev.Target, PartitionKey: store.PartitionKey(ev.FLID), EventType: ev.EventType,
			CminmsgsID: ev.MsgID, Flid: ev.FLID, StateVersion: ev.StateVersion,
			IdempotencyKey: ev.IdempotencyKey, Payload: payload, Status: initialStatus(ev.Target), CreatedAt: ev.CreatedAt,
		}
	}
	_, err := e.q.EventInsert(ctx, e.db, rows)
	return interpret(err)
}

// The delivery state of KAFKA:msg is a watermark (msg_event_cursor), not a
// per-row STATUS: its rows start with a NULL status (040_outbox.sql).
func initialStatus(target string) *string {
	if target == store.TargetMsg {
		return nil
	}
	pending := store.EventPending
	return &pending
}

func (e executor) PendingEvents(ctx context.Context, target string, max int) ([]store.Event, error) {
	return e.PendingEventsAfter(ctx, target, 0, max)
}

func (e executor) PendingEventsAfter(ctx context.Context, target string, afterID int64, max int) ([]store.Event, error) {
	if target == store.TargetMsg {
		rows, err := e.q.EventListMsgPendingAfter(ctx, e.db, postgres.EventListMsgPendingAfterParams{AfterEventID: afterID, MaxRows: int32(max)})
		return events(rows), interpret(err)
	}
	rows, err := e.q.EventListPendingAfter(ctx, e.db, postgres.EventListPendingAfterParams{Target: target, AfterEventID: afterID, MaxRows: int32(max)})
	return events(rows), interpret(err)
}

func (e executor) EventsOfMessage(ctx context.Context, msgID int64) ([]store.Event, error) {
	rows, err := e.q.EventListByMessage(ctx, e.db, msgID)
	msgs := make([]postgres.MsgEvent, len(rows))
	for i, r := range rows {
		msgs[i] = msgEvent(postgres.EventListByFlightRow(r))
	}
	return events(msgs), interpret(err)
}

func (e executor) EventsOfFlight(ctx context.Context, flid int64) ([]store.Event, error) {
	rows, err := e.q.EventListByFlight(ctx, e.db, flid)
	msgs := make([]postgres.MsgEvent, len(rows))
	for i, r := range rows {
		msgs[i] = msgEvent(r)
	}
	return events(msgs), interpret(err)
}

func (e executor) DeadEvents(ctx context.Context, target string, afterID int64, limit int) ([]store.Event, error) {
	rows, err := e.q.EventListDead(ctx, e.db, postgres.EventListDeadParams{Target: target, AfterEventID: afterID, PageSize: int32(limit)})
	return events(rows), interpret(err)
}

// msgEvent is a row with its effective status as a MsgEvent.
func msgEvent(r postgres.EventListByFlightRow) postgres.MsgEvent {
	return postgres.MsgEvent{
		EventID: r.EventID, Target: r.Target, PartitionKey: r.PartitionKey, EventType: r.EventType,
		CminmsgsID: r.CminmsgsID, Flid: r.Flid, StateVersion: r.StateVersion, IdempotencyKey: r.IdempotencyKey,
		Payload: r.Payload, Status: &r.Status, Attempts: r.Attempts, NextAttemptAt: r.NextAttemptAt,
		LastError: r.LastError, CreatedAt: r.CreatedAt, SentAt: r.SentAt,
	}
}

func (e executor) MarkSent(ctx context.Context, target string, ids []int64, now time.Time) error {
	if len(ids) == 0 {
		return nil
	}
	if target != store.TargetMsg {
		_, err := e.q.EventMarkSent(ctx, e.db, postgres.EventMarkSentParams{Now: now, EventIds: ids, Target: target})
		return interpret(err)
	}
	r, err := e.q.EventAdvanceMsgCursor(ctx, e.db, postgres.EventAdvanceMsgCursorParams{EventIds: ids, Now: now})
	if err != nil {
		return interpret(err)
	}
	if r.Acked != r.PendingThrough {
		return fmt.Errorf("%w: %d of the %d pending %s events up to the last acknowledged one were not acknowledged; the watermark stays",
			store.ErrConflict, r.PendingThrough-r.Acked, r.PendingThrough, target)
	}
	return nil
}

func (e executor) RecordDeliveryFailure(ctx context.Context, p store.DeliveryFailure) (string, error) {
	r, err := e.q.EventRecordFailure(ctx, e.db, postgres.EventRecordFailureParams{
		MaxAttempts: int32(p.MaxAttempts), NextAttemptAt: &p.NextAttemptAt,
		LastError: nilIfEmpty(p.Reason), EventID: p.EventID,
	})
	return r.Status, interpret(err)
}

func (e executor) LatestPendingPerFlight(ctx context.Context, target string, now time.Time, max int) ([]store.Event, error) {
	rows, err := e.q.EventListSchdLatest(ctx, e.db, postgres.EventListSchdLatestParams{Target: target, Now: now, MaxFlights: int32(max)})
	msgs := make([]postgres.MsgEvent, len(rows))
	for i, r := range rows {
		msgs[i] = postgres.MsgEvent(r)
	}
	return events(msgs), interpret(err)
}

func (e executor) MarkSentUpTo(ctx context.Context, target string, delivered []store.UpTo, now time.Time) (int, error) {
	keys := make([]string, len(delivered))
	ids := make([]int64, len(delivered))
	for i, d := range delivered {
		keys[i], ids[i] = d.PartitionKey, d.EventID
	}
	n, err := e.q.EventMarkSupersededSent(ctx, e.db, postgres.EventMarkSupersededSentParams{
		Now: now, Target: target, PartitionKeys: keys, UpToEventIds: ids,
	})
	return int(n), interpret(err)
}

func (e executor) MarkDeadBelow(ctx context.Context, target string, below store.UpTo, reason string) (int, error) {
	n, err := e.q.EventMarkSupersededDead(ctx, e.db, postgres.EventMarkSupersededDeadParams{
		LastError: nilIfEmpty(reason), Target: target, PartitionKey: below.PartitionKey, BelowEventID: below.EventID,
	})
	return int(n), interpret(err)
}

// effectiveStatus of a row read as pending or with its effective status: a
// NULL status (KAFKA:msg above the watermark) is PENDING.
func effectiveStatus(s *string) string {
	if s == nil {
		return store.EventPending
	}
	return *s
}

func events(rows []postgres.MsgEvent) []store.Event {
	out := make([]store.Event, len(rows))
	for i, r := range rows {
		var payload []byte
		if r.Payload != nil {
			payload = []byte(*r.Payload)
		}
		out[i] = store.Event{
			NewEvent: store.NewEvent{
				Target: r.Target, EventType: r.EventType, MsgID: r.CminmsgsID, FLID: r.Flid,
				StateVersion: r.StateVersion, IdempotencyKey: r.IdempotencyKey, Payload: payload, CreatedAt: r.CreatedAt,
			},
			ID: r.EventID, PartitionKey: r.PartitionKey, Status: effectiveStatus(r.Status), Attempts: int(r.Attempts),
			NextAttemptAt: r.NextAttemptAt, LastError: deref(r.LastError), SentAt: r.SentAt,
		}
	}
	return out
}

// Backfills.

// AddBackfills registers every todo in one statement (see BindIdentities).
func (e executor) AddBackfills(ctx context.Context, todos []store.Backfill) error {
	type row struct {
		MsgID         int64      `json:"msg_id"`
		MailboxStatus string     `json:"mailbox_status"`
		ProcessedAt   time.Time  `json:"processed_at"`
		MetaSndr      *string    `json:"meta_sndr"`
		MetaSeqn      *int64     `json:"meta_seqn"`
		MetaDttm      *time.Time `json:"meta_dttm"`
		MetaType      *string    `json:"meta_type"`
		MetaStyp      *string    `json:"meta_styp"`
	}
	if len(todos) == 0 {
		return nil
	}
	rows := make([]row, len(todos))
	for i, b := range todos {
		rows[i] = row{
			MsgID: b.MsgID, MailboxStatus: b.MailboxStatus, ProcessedAt: b.ProcessedAt,
			MetaSndr: nilIfEmpty(b.Meta.Sndr), MetaSeqn: b.Meta.Seqn, MetaDttm: b.Meta.Dttm,
			MetaType: nilIfEmpty(b.Meta.Type), MetaStyp: nilIfEmpty(b.Meta.Styp),
		}
	}
	js, err := json.Marshal(rows)
	if err != nil {
		return err
	}
	return interpret(e.q.BackfillTodoAdd(ctx, e.db, js))
}

func (e executor) DueBackfills(ctx context.Context, now time.Time, max int) ([]store.Backfill, error) {
	rows, err := e.q.BackfillTodoListDue(ctx, e.db, postgres.BackfillTodoListDueParams{Now: now, MaxRows: int32(max)})
	out := make([]store.Backfill, len(rows))
	for i, r := range rows {
		out[i] = store.Backfill{
			MsgID: r.MsgID, MailboxStatus: r.MailboxStatus, ProcessedAt: r.ProcessedAt,
			Meta:     store.Meta{Sndr: deref(r.MetaSndr), Seqn: r.MetaSeqn, Dttm: r.MetaDttm, Type: deref(r.MetaType), Styp: deref(r.MetaStyp)},
			Attempts: int(r.Attempts), NextAttemptAt: r.NextAttemptAt, LastError: deref(r.LastError),
		}
	}
	return out, interpret(err)
}

func (e executor) DeleteBackfills(ctx context.Context, msgIDs []int64) error {
	_, err := e.q.BackfillTodoDelete(ctx, e.db, msgIDs)
	return interpret(err)
}

func (e executor) RecordBackfillFailure(ctx context.Context, msgID int64, next time.Time, reason string) error {
	return interpret(e.q.BackfillTodoRecordFailure(ctx, e.db, postgres.BackfillTodoRecordFailureParams{
		NextAttemptAt: next, LastError: nilIfEmpty(reason), MsgID: msgID,
	}))
}

// Reference data.

func (e executor) UpsertRef(ctx context.Context, r store.RefRecord) (bool, error) {
	n, err := e.q.RefUpsert(ctx, e.db, postgres.RefUpsertParams{
		Rtype: r.RType, Rkey: r.RKey, Record: r.Record, LastMessageID: r.LastMessageID, Now: r.Now,
	})
	return n > 0, interpret(err)
}

func (e executor) DeleteRef(ctx context.Context, rtype, rkey string) (bool, error) {
	n, err := e.q.RefDelete(ctx, e.db, postgres.RefDeleteParams{Rtype: rtype, Rkey: rkey})
	return n > 0, interpret(err)
}

func (e executor) Ref(ctx context.Context, rtype, rkey string) (store.RefRecord, error) {
	r, err := e.q.RefGet(ctx, e.db, postgres.RefGetParams{Rtype: rtype, Rkey: rkey})
	return store.RefRecord{
		RType: r.Rtype, RKey: r.Rkey, Record: r.Record, Version: r.Version,
		LastMessageID: r.LastMessageID, Now: r.UpdatedAt,
	}, interpret(err)
}
