package pgstore

import (
	"context"
	"fmt"
	"unsafe"

	"github.com/msgx-aodb/msgx/db/postgres"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

func (e executor) InsertEvents(ctx context.Context, events []vocab.NewEvent) error {
	rows := make([]postgres.EventInsertParams, len(events))
	for i, ev := range events {
		var payload *string
		if ev.Payload != nil {
			// The bytes as a string without a copy (a payload is a few KB,
			// one per changed flight): the string lives only in this call,
			// which has COPY read the bytes before it returns.
			p := unsafe.String(unsafe.SliceData(ev.Payload), len(ev.Payload))
			payload = &p
		}
		rows[i] = postgres.EventInsertParams{
			Target: ev.Target, PartitionKey: vocab.PartitionKey(ev.FLID), EventType: ev.EventType,
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
	if target == vocab.TargetMsg {
		return nil
	}
	pending := vocab.EventPending
	return &pending
}

func (e executor) PendingEvents(ctx context.Context, target string, max int) ([]store.Event, error) {
	return e.PendingEventsAfter(ctx, store.PendingEventsAfterParams{Target: target, Max: max})
}

func (e executor) PendingEventsAfter(ctx context.Context, p store.PendingEventsAfterParams) ([]store.Event, error) {
	if p.Target == vocab.TargetMsg {
		rows, err := e.q.EventListMsgPendingAfter(ctx, e.db, postgres.EventListMsgPendingAfterParams{AfterEventID: p.AfterID, MaxRows: int32(p.Max)})
		return events(rows), interpret(err)
	}
	rows, err := e.q.EventListPendingAfter(ctx, e.db, postgres.EventListPendingAfterParams{Target: p.Target, AfterEventID: p.AfterID, MaxRows: int32(p.Max)})
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

func (e executor) DeadEvents(ctx context.Context, p store.DeadEventsParams) ([]store.Event, error) {
	rows, err := e.q.EventListDead(ctx, e.db, postgres.EventListDeadParams{Target: p.Target, AfterEventID: p.AfterID, PageSize: int32(p.Limit)})
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

func (e executor) MarkSent(ctx context.Context, p store.MarkSentParams) error {
	if len(p.IDs) == 0 {
		return nil
	}
	if p.Target != vocab.TargetMsg {
		_, err := e.q.EventMarkSent(ctx, e.db, postgres.EventMarkSentParams{Now: p.Now, EventIds: p.IDs, Target: p.Target})
		return interpret(err)
	}
	r, err := e.q.EventAdvanceMsgCursor(ctx, e.db, postgres.EventAdvanceMsgCursorParams{EventIds: p.IDs, Now: p.Now})
	if err != nil {
		return interpret(err)
	}
	if r.Acked != r.PendingThrough {
		return fmt.Errorf("%w: %d of the %d pending %s events up to the last acknowledged one were not acknowledged; the watermark stays",
			store.ErrConflict, r.PendingThrough-r.Acked, r.PendingThrough, p.Target)
	}
	return nil
}

func (e executor) RecordDeliveryFailure(ctx context.Context, p store.RecordDeliveryFailureParams) (string, error) {
	r, err := e.q.EventRecordFailure(ctx, e.db, postgres.EventRecordFailureParams{
		MaxAttempts: int32(p.MaxAttempts), NextAttemptAt: &p.NextAttemptAt,
		LastError: nilIfEmpty(p.Reason), EventID: p.EventID,
	})
	return r.Status, interpret(err)
}

func (e executor) LatestPendingPerFlight(ctx context.Context, p store.LatestPendingPerFlightParams) ([]store.Event, error) {
	rows, err := e.q.EventListSchdLatest(ctx, e.db, postgres.EventListSchdLatestParams{Target: p.Target, Now: p.Now, MaxFlights: int32(p.Max)})
	msgs := make([]postgres.MsgEvent, len(rows))
	for i, r := range rows {
		msgs[i] = postgres.MsgEvent(r)
	}
	return events(msgs), interpret(err)
}

func (e executor) MarkSentUpTo(ctx context.Context, p store.MarkSentUpToParams) (int, error) {
	keys := make([]string, len(p.Delivered))
	ids := make([]int64, len(p.Delivered))
	for i, d := range p.Delivered {
		keys[i], ids[i] = d.PartitionKey, d.EventID
	}
	n, err := e.q.EventMarkSupersededSent(ctx, e.db, postgres.EventMarkSupersededSentParams{
		Now: p.Now, Target: p.Target, PartitionKeys: keys, UpToEventIds: ids,
	})
	return int(n), interpret(err)
}

func (e executor) MarkDeadBelow(ctx context.Context, p store.MarkDeadBelowParams) (int, error) {
	n, err := e.q.EventMarkSupersededDead(ctx, e.db, postgres.EventMarkSupersededDeadParams{
		LastError: nilIfEmpty(p.Reason), Target: p.Target, PartitionKey: p.Below.PartitionKey, BelowEventID: p.Below.EventID,
	})
	return int(n), interpret(err)
}

// effectiveStatus of a row read as pending or with its effective status: a
// NULL status (KAFKA:msg above the watermark) is PENDING.
func effectiveStatus(s *string) string {
	if s == nil {
		return vocab.EventPending
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
			NewEvent: vocab.NewEvent{
				Target: r.Target, EventType: r.EventType, MsgID: r.CminmsgsID, FLID: r.Flid,
				StateVersion: r.StateVersion, IdempotencyKey: r.IdempotencyKey, Payload: payload, CreatedAt: r.CreatedAt,
			},
			ID: r.EventID, PartitionKey: r.PartitionKey, Status: effectiveStatus(r.Status), Attempts: int(r.Attempts),
			NextAttemptAt: r.NextAttemptAt, LastError: deref(r.LastError), SentAt: r.SentAt,
		}
	}
	return out
}
