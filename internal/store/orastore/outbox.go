package orastore

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Outbox (MSG_EVENT). The caller holds PIPELINE_LOCK in the business
// transaction before InsertEvents takes MSG_EVENT_SEQ.NEXTVAL: event ids then
// commit in order, which the KAFKA:msg watermark relies on.

// InsertEvents inserts one event per execution: the payload is a CLOB
// (states exceed 4000 bytes), and CLOBs in array DML are left unproven
// until a real 11g tried them (docs/oracle.md).
func (e executor) InsertEvents(ctx context.Context, events []vocab.NewEvent) error {
	for _, ev := range events {
		var payload any = sql.NullString{}
		if ev.Payload != nil {
			payload = e.bind.Clob(string(ev.Payload))
		}
		if _, err := e.exec(ctx, "EventInsert", map[string]any{
			"target": ev.Target, "partition_key": vocab.PartitionKey(ev.FLID), "event_type": ev.EventType,
			"cminmsgs_id": ev.MsgID, "flid": ev.FLID, "state_version": ev.StateVersion,
			"idempotency_key": ev.IdempotencyKey, "payload": payload,
			"created_at": instant(ev.CreatedAt),
		}); err != nil {
			return err
		}
	}
	return nil
}

func (e executor) PendingEvents(ctx context.Context, target string, max int) ([]store.Event, error) {
	return e.PendingEventsAfter(ctx, store.PendingEventsAfterParams{Target: target, Max: max})
}

func (e executor) PendingEventsAfter(ctx context.Context, p store.PendingEventsAfterParams) ([]store.Event, error) {
	if err := store.OnlyMsg(p.Target); err != nil {
		return nil, err
	}
	return e.events(ctx, "EventListMsgPendingAfter", map[string]any{"after_event_id": p.AfterID, "max_rows": p.Max})
}

func (e executor) EventsOfMessage(ctx context.Context, msgID int64) ([]store.Event, error) {
	return e.events(ctx, "EventListByMessage", map[string]any{"cminmsgs_id": msgID})
}

// EventsOfFlight: a flight's events in EVENT_ID order with their effective
// status (MSG_EVENT_FLID_IX).
func (e executor) EventsOfFlight(ctx context.Context, flid int64) ([]store.Event, error) {
	return e.events(ctx, "EventListByFlight", map[string]any{"flid": flid})
}

func (e executor) DeadEvents(ctx context.Context, p store.DeadEventsParams) ([]store.Event, error) {
	return e.events(ctx, "EventListDead", map[string]any{"target": p.Target, "after_event_id": p.AfterID, "page_size": p.Limit})
}

// MarkSent moves the KAFKA:msg watermark in one PL/SQL block (tally, then
// the MERGE only when nothing below is missing).
func (e executor) markSentOn(ctx context.Context, p store.MarkSentParams) error {
	if err := store.OnlyMsg(p.Target); err != nil || len(p.IDs) == 0 {
		return err
	}
	list, err := e.numbers(ctx, p.IDs)
	if err != nil {
		return err
	}
	var acked, through, moved int64
	if _, err := e.exec(ctx, "EventAdvanceMsgCursor", map[string]any{
		"event_ids": list, "now": instant(p.Now),
		"acked": sql.Out{Dest: &acked}, "pending_through": sql.Out{Dest: &through}, "moved": sql.Out{Dest: &moved},
	}); err != nil {
		return err
	}
	if acked != through {
		return fmt.Errorf("%w: %d of the %d pending %s events up to the last acknowledged one were not acknowledged; the watermark stays",
			store.ErrConflict, through-acked, through, p.Target)
	}
	return nil
}

// RecordDeliveryFailure returns the effective status: a NULL STATUS is a
// KAFKA:msg event still pending.
func (e executor) RecordDeliveryFailure(ctx context.Context, p store.RecordDeliveryFailureParams) (string, error) {
	var status sql.NullString
	var attempts int64
	n, err := e.execRows(ctx, "EventRecordFailure", map[string]any{
		"max_attempts": p.MaxAttempts, "next_attempt_at": instant(p.NextAttemptAt), "last_error": text(p.Reason),
		"event_id": p.EventID, "status_out": sql.Out{Dest: &status}, "attempts_out": sql.Out{Dest: &attempts},
	})
	if err == nil && n == 0 {
		err = fmt.Errorf("%w: event %d is not pending", store.ErrNotFound, p.EventID)
	}
	if err != nil {
		return "", err
	}
	if !status.Valid {
		return vocab.EventPending, nil
	}
	return status.String, nil
}

// MarkSchd runs the MERGE array-bound, one element per flight.
func (e executor) MarkSchd(ctx context.Context, marks []vocab.SchdMark) error {
	if len(marks) == 0 {
		return nil
	}
	rows := make([]map[string]any, len(marks))
	for i, m := range marks {
		rows[i] = map[string]any{
			"flid": m.FLID, "cminmsgs_id": m.MsgID, "state_version": m.StateVersion,
			"event_type": m.EventType, "created_at": instant(m.CreatedAt),
		}
	}
	_, err := e.exec(ctx, "SchdMarkUpsert", columns(rows))
	return err
}

func (e executor) DueSchdMarks(ctx context.Context, p store.DueSchdMarksParams) ([]store.Event, error) {
	var out []store.Event
	err := e.query(ctx, "SchdMarkListDue", map[string]any{"now": instant(p.Now), "max_flights": p.Max}, func(r *sql.Rows) error {
		var (
			m                vocab.SchdMark
			id               int64
			attempts         int
			payload, lastErr sql.NullString
			next             sql.NullTime
		)
		err := r.Scan(&m.FLID, &id, &m.MsgID, &m.StateVersion, &m.EventType, &payload, &attempts, &next, &lastErr, &m.CreatedAt)
		var body []byte
		if payload.Valid {
			body = []byte(payload.String)
		}
		ev := store.SchdEvent(m, id, body)
		ev.Attempts, ev.NextAttemptAt, ev.LastError = attempts, timePtr(next), lastErr.String
		out = append(out, ev)
		return err
	})
	return out, err
}

// ClearSchdMarks runs the DELETE array-bound, one element per flight; the
// row count is the sum.
func (e executor) ClearSchdMarks(ctx context.Context, sent []store.SchdSent) (int, error) {
	if len(sent) == 0 {
		return 0, nil
	}
	rows := make([]map[string]any, len(sent))
	for i, d := range sent {
		rows[i] = map[string]any{"flid": d.FLID, "cminmsgs_id": d.MsgID, "state_version": d.StateVersion}
	}
	n, err := e.execRows(ctx, "SchdMarkClear", columns(rows))
	return int(n), err
}

// RecordSchdFailure: a NULL out status (Oracle's empty string) is a mark a
// newer change replaced.
func (e executor) RecordSchdFailure(ctx context.Context, p store.RecordSchdFailureParams) (string, error) {
	var status sql.NullString
	_, err := e.exec(ctx, "SchdMarkRecordFailure", map[string]any{
		"flid": p.FLID, "cminmsgs_id": p.MsgID, "state_version": p.StateVersion, "max_attempts": p.MaxAttempts,
		"next_attempt_at": instant(p.NextAttemptAt), "last_error": text(p.Reason),
		"status": sql.Out{Dest: &status},
	})
	return status.String, err
}

func (e executor) AdoptSchdRows(ctx context.Context) (int, error) {
	var adopted int64
	_, err := e.exec(ctx, "SchdMarkAdopt", map[string]any{"adopted": sql.Out{Dest: &adopted}})
	return int(adopted), err
}

func (e executor) events(ctx context.Context, name string, binds map[string]any) ([]store.Event, error) {
	var out []store.Event
	err := e.query(ctx, name, binds, func(r *sql.Rows) error {
		var (
			ev                       store.Event
			payload, status, lastErr sql.NullString
			next, sent               sql.NullTime
		)
		err := r.Scan(&ev.ID, &ev.Target, &ev.PartitionKey, &ev.EventType, &ev.MsgID, &ev.FLID, &ev.StateVersion,
			&ev.IdempotencyKey, &payload, &status, &ev.Attempts, &next, &lastErr, &ev.CreatedAt, &sent)
		if payload.Valid {
			ev.Payload = []byte(payload.String)
		}
		ev.Status = vocab.EventPending // NULL: KAFKA:msg above the watermark
		if status.Valid {
			ev.Status = status.String
		}
		ev.NextAttemptAt, ev.LastError, ev.SentAt = timePtr(next), lastErr.String, timePtr(sent)
		out = append(out, ev)
		return err
	})
	return out, err
}
