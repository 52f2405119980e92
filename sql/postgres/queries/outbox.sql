-- name: EventInsert :copyfrom
-- Events of one business transaction. IDEMPOTENCY_KEY is UNIQUE: a second
-- insert of the same event fails instead of duplicating it.
INSERT INTO msg_event (
  target, partition_key, event_type, cminmsgs_id, flid, state_version,
  idempotency_key, payload, created_at)
VALUES (
  @target, @partition_key, @event_type, @cminmsgs_id, @flid, @state_version,
  @idempotency_key, @payload, @created_at);

-- name: EventListPending :many
-- The head of a target: the smallest PENDING EVENT_IDs, in order.
SELECT * FROM msg_event
WHERE target = @target AND status = 'PENDING'
ORDER BY event_id
LIMIT @max_rows;

-- name: EventListByMessage :many
SELECT * FROM msg_event WHERE cminmsgs_id = @cminmsgs_id ORDER BY event_id;

-- name: EventListByFlight :many
SELECT * FROM msg_event WHERE flid = @flid ORDER BY event_id;

-- name: EventListPendingAfter :many
-- The next PENDING events of a target after a cursor (the last event already
-- produced), in order: the relay reads on while the SENT mark of the previous
-- batch is still being written.
SELECT * FROM msg_event
WHERE target = @target AND status = 'PENDING' AND event_id > @after_event_id
ORDER BY event_id
LIMIT @max_rows;

-- name: EventMarkSent :execrows
-- Marks acknowledged events SENT (only the contiguous acknowledged prefix is
-- passed). Joined by primary key: a filter over the pending index would
-- visit the whole backlog.
UPDATE msg_event e SET status = 'SENT', sent_at = @now::timestamptz, last_error = NULL
FROM (SELECT unnest(@event_ids::bigint[]) AS event_id) d
WHERE e.event_id = d.event_id AND e.status = 'PENDING';

-- name: EventRecordFailure :one
-- A failed delivery: backoff, or DEAD (kept as the dead letter) at the limit.
UPDATE msg_event SET
  attempts = attempts + 1,
  status = CASE WHEN attempts + 1 >= @max_attempts::int THEN 'DEAD' ELSE 'PENDING' END,
  next_attempt_at = @next_attempt_at,
  last_error = @last_error
WHERE event_id = @event_id AND status = 'PENDING'
RETURNING status, attempts;

-- name: EventListSchdLatest :many
-- schd aggregation: per FLID the latest pending event of the target, oldest
-- flights first, skipping flights still backing off.
WITH latest AS (
  SELECT DISTINCT ON (e.partition_key) e.*
  FROM msg_event e
  WHERE e.target = @target AND e.status = 'PENDING'
  ORDER BY e.partition_key, e.state_version DESC, e.event_id DESC
)
SELECT * FROM latest
WHERE next_attempt_at IS NULL OR next_attempt_at <= @now::timestamptz
ORDER BY event_id
LIMIT @max_flights;

-- name: EventMarkSupersededSent :execrows
-- After the latest state of a flight was delivered, every pending event of that
-- flight up to it is represented by that delivery. One row per flight:
-- partition_keys[i] up to up_to_event_ids[i].
UPDATE msg_event e SET status = 'SENT', sent_at = @now::timestamptz, last_error = NULL
FROM (SELECT unnest(@partition_keys::text[]) AS partition_key,
             unnest(@up_to_event_ids::bigint[]) AS up_to) d
WHERE e.target = @target AND e.partition_key = d.partition_key
  AND e.status = 'PENDING' AND e.event_id <= d.up_to;

-- name: EventMarkSupersededDead :execrows
-- The latest event of a flight became DEAD: the older pending events it
-- superseded go with it, so an older state is never sent as the latest.
UPDATE msg_event SET status = 'DEAD', last_error = @last_error
WHERE target = @target AND partition_key = @partition_key
  AND status = 'PENDING' AND event_id < @below_event_id;

-- name: EventLag :many
-- Outbox lag per target for status and metrics.
SELECT target, count(*) AS pending, min(created_at)::timestamptz AS oldest
FROM msg_event
WHERE status = 'PENDING'
GROUP BY target
ORDER BY target;

-- name: EventListDead :many
SELECT * FROM msg_event
WHERE status = 'DEAD' AND target = @target AND event_id > @after_event_id
ORDER BY event_id
LIMIT @page_size;
