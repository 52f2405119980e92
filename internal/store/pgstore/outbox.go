package pgstore

import (
	"context"
	"fmt"
	"time"

	"github.com/msgx-aodb/msgx/db/postgres"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

func (e executor) InsertEvents(ctx context.Context, events []vocab.NewEvent) error {
	_, err := e.q.EventInsert(ctx, copyWith{conn: e.db, src: newEventSource(events)}, nil)
	return interpret(err)
}

func (e executor) PendingEvents(ctx context.Context, target string, max int) ([]store.Event, error) {
	return e.PendingEventsAfter(ctx, store.PendingEventsAfterParams{Target: target, Max: max})
}

func (e executor) PendingEventsAfter(ctx context.Context, p store.PendingEventsAfterParams) ([]store.Event, error) {
	if err := store.OnlyMsg(p.Target); err != nil {
		return nil, err
	}
	rows, err := e.q.EventListMsgPendingAfter(ctx, e.db, postgres.EventListMsgPendingAfterParams{AfterEventID: p.AfterID, MaxRows: int32(p.Max)})
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
	if err := store.OnlyMsg(p.Target); err != nil || len(p.IDs) == 0 {
		return err
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

func (e executor) MarkSchd(ctx context.Context, marks []vocab.SchdMark) error {
	if len(marks) == 0 {
		return nil
	}
	p := postgres.SchdMarkUpsertParams{
		Flids: make([]int64, len(marks)), CminmsgsIds: make([]int64, len(marks)), StateVersions: make([]int64, len(marks)),
		EventTypes: make([]string, len(marks)), CreatedAts: make([]time.Time, len(marks)),
	}
	for i, m := range marks {
		p.Flids[i], p.CminmsgsIds[i], p.StateVersions[i], p.EventTypes[i], p.CreatedAts[i] = m.FLID, m.MsgID, m.StateVersion, m.EventType, m.CreatedAt
	}
	return interpret(e.q.SchdMarkUpsert(ctx, e.db, p))
}

func (e executor) DueSchdMarks(ctx context.Context, p store.DueSchdMarksParams) ([]store.Event, error) {
	rows, err := e.q.SchdMarkListDue(ctx, e.db, postgres.SchdMarkListDueParams{Now: p.Now, MaxFlights: int32(p.Max)})
	out := make([]store.Event, len(rows))
	for i, r := range rows {
		var payload []byte
		if r.Payload != nil {
			payload = []byte(*r.Payload)
		}
		out[i] = store.SchdEvent(vocab.SchdMark{FLID: r.Flid, MsgID: r.CminmsgsID, StateVersion: r.StateVersion, EventType: r.EventType, CreatedAt: r.CreatedAt},
			r.EventID, payload)
		out[i].Attempts, out[i].NextAttemptAt, out[i].LastError = int(r.Attempts), r.NextAttemptAt, deref(r.LastError)
	}
	return out, interpret(err)
}

func (e executor) ClearSchdMarks(ctx context.Context, sent []store.SchdSent) (int, error) {
	if len(sent) == 0 {
		return 0, nil
	}
	p := postgres.SchdMarkClearParams{Flids: make([]int64, len(sent)), CminmsgsIds: make([]int64, len(sent)), StateVersions: make([]int64, len(sent))}
	for i, s := range sent {
		p.Flids[i], p.CminmsgsIds[i], p.StateVersions[i] = s.FLID, s.MsgID, s.StateVersion
	}
	n, err := e.q.SchdMarkClear(ctx, e.db, p)
	return int(n), interpret(err)
}

func (e executor) RecordSchdFailure(ctx context.Context, p store.RecordSchdFailureParams) (string, error) {
	status, err := e.q.SchdMarkRecordFailure(ctx, e.db, postgres.SchdMarkRecordFailureParams{
		Flid: p.FLID, CminmsgsID: p.MsgID, StateVersion: p.StateVersion, MaxAttempts: int32(p.MaxAttempts), NextAttemptAt: p.NextAttemptAt,
		LastError: nilIfEmpty(p.Reason),
	})
	return status, interpret(err)
}

func (e executor) AdoptSchdRows(ctx context.Context) (int, error) {
	n, err := e.q.SchdMarkAdopt(ctx, e.db)
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
