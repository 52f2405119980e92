-- name: EventInsert :copyfrom
-- Events of one business transaction. IDEMPOTENCY_KEY is UNIQUE: a second
-- insert of the same event fails instead of duplicating it.
-- STATUS: NULL for KAFKA:msg (its state is the watermark), PENDING for KAFKA:schd.
INSERT INTO msg_event (
  target, partition_key, event_type, cminmsgs_id, flid, state_version,
  idempotency_key, payload, status, created_at)
VALUES (
  @target, @partition_key, @event_type, @cminmsgs_id, @flid, @state_version,
  @idempotency_key, @payload, @status, @created_at);

-- name: EventListPendingAfter :many
-- The next PENDING events of a per-row target (KAFKA:schd) after a cursor (0:
-- the head), in order. A KAFKA:schd row's payload is its KAFKA:msg twin's
-- (the twin join, here and below: 040_outbox.sql).
SELECT e.event_id, e.target, e.partition_key, e.event_type, e.cminmsgs_id, e.flid,
  e.state_version, e.idempotency_key, COALESCE(e.payload, t.payload) AS payload,
  e.status, e.attempts, e.next_attempt_at, e.last_error, e.created_at, e.sent_at
FROM msg_event e
LEFT JOIN msg_event t ON e.target = 'KAFKA:schd'
  AND t.idempotency_key = e.cminmsgs_id || ':' || e.flid || ':' || e.state_version || ':KAFKA:msg'
WHERE e.target = @target AND e.status = 'PENDING' AND e.event_id > @after_event_id
ORDER BY e.event_id
LIMIT @max_rows;

-- name: EventListMsgPendingAfter :many
-- The head of KAFKA:msg after a cursor (0: the head itself): the events above
-- both the cursor and the delivery watermark that are not DEAD, in order. A
-- primary-key range scan: the relay reads on while the watermark of the
-- previous batch is still being written. Their effective status is PENDING.
SELECT * FROM msg_event
WHERE target = 'KAFKA:msg' AND status IS NULL
  AND event_id > GREATEST(@after_event_id::bigint,
    COALESCE((SELECT c.sent_through FROM msg_event_cursor c WHERE c.target = 'KAFKA:msg'), 0))
ORDER BY event_id
LIMIT @max_rows;

-- name: EventListByMessage :many
-- Events of a message with their effective status (KAFKA:msg: by the watermark).
SELECT e.event_id, e.target, e.partition_key, e.event_type, e.cminmsgs_id, e.flid,
  e.state_version, e.idempotency_key, COALESCE(e.payload, t.payload) AS payload,
  COALESCE(e.status, CASE WHEN e.event_id <= c.sent_through THEN 'SENT' ELSE 'PENDING' END)::varchar AS status,
  e.attempts, e.next_attempt_at, e.last_error, e.created_at, e.sent_at
FROM msg_event e LEFT JOIN msg_event_cursor c ON c.target = e.target
LEFT JOIN msg_event t ON e.target = 'KAFKA:schd'
  AND t.idempotency_key = e.cminmsgs_id || ':' || e.flid || ':' || e.state_version || ':KAFKA:msg'
WHERE e.cminmsgs_id = @cminmsgs_id
ORDER BY e.event_id;

-- name: EventListByFlight :many
-- Events of a flight with their effective status (KAFKA:msg: by the watermark).
SELECT e.event_id, e.target, e.partition_key, e.event_type, e.cminmsgs_id, e.flid,
  e.state_version, e.idempotency_key, COALESCE(e.payload, t.payload) AS payload,
  COALESCE(e.status, CASE WHEN e.event_id <= c.sent_through THEN 'SENT' ELSE 'PENDING' END)::varchar AS status,
  e.attempts, e.next_attempt_at, e.last_error, e.created_at, e.sent_at
FROM msg_event e LEFT JOIN msg_event_cursor c ON c.target = e.target
LEFT JOIN msg_event t ON e.target = 'KAFKA:schd'
  AND t.idempotency_key = e.cminmsgs_id || ':' || e.flid || ':' || e.state_version || ':KAFKA:msg'
WHERE e.flid = @flid
ORDER BY e.event_id;

-- name: EventMarkSent :execrows
-- Marks acknowledged events of a per-row target (KAFKA:schd) SENT. Joined by
-- primary key: a filter over the pending index would visit the whole backlog.
UPDATE msg_event e SET status = 'SENT', sent_at = @now::timestamptz, last_error = NULL
FROM (SELECT unnest(@event_ids::bigint[]) AS event_id) d
WHERE e.event_id = d.event_id AND e.target = @target AND e.status = 'PENDING';

-- name: EventAdvanceMsgCursor :one
-- KAFKA:msg: the acknowledged contiguous prefix of the pending head
-- (event_ids) is delivered: the watermark moves to its last event, one row
-- written instead of one per event. Guarded: the pending events above the
-- watermark up to the highest id given are read by the head index, and the
-- watermark moves to the last acknowledged one only when no pending event
-- below it is missing from event_ids (ACKED = PENDING_THROUGH); ids at or
-- below the watermark, unknown or DEAD are ignored. MOVED: whether it moved.
WITH cur AS (
  SELECT COALESCE((SELECT c.sent_through FROM msg_event_cursor c WHERE c.target = 'KAFKA:msg'), 0) AS through
), ids AS (
  SELECT DISTINCT i.id AS event_id FROM unnest(@event_ids::bigint[]) AS i(id)
), span AS (
  SELECT e.event_id, i.event_id IS NOT NULL AS acked
  FROM msg_event e CROSS JOIN cur LEFT JOIN ids i ON i.event_id = e.event_id
  WHERE e.target = 'KAFKA:msg' AND e.status IS NULL AND e.event_id > cur.through
    AND e.event_id <= (SELECT max(m.event_id) FROM ids m)
), tally AS (
  SELECT p.up_to,
    count(*) FILTER (WHERE s.acked AND s.event_id <= p.up_to) AS acked,
    count(*) FILTER (WHERE s.event_id <= p.up_to) AS pending_through
  FROM (SELECT max(a.event_id) FILTER (WHERE a.acked) AS up_to FROM span a) p CROSS JOIN span s
  GROUP BY p.up_to
), moved AS (
  INSERT INTO msg_event_cursor AS c (target, sent_through, sent_at)
  SELECT 'KAFKA:msg', t.up_to, @now::timestamptz FROM tally t
  WHERE t.up_to IS NOT NULL AND t.acked = t.pending_through
  ON CONFLICT (target) DO UPDATE
    SET sent_through = GREATEST(c.sent_through, EXCLUDED.sent_through), sent_at = EXCLUDED.sent_at
  RETURNING c.sent_through
)
SELECT COALESCE(max(t.acked), 0)::bigint AS acked,
  COALESCE(max(t.pending_through), 0)::bigint AS pending_through,
  (SELECT count(*) FROM moved)::bigint AS moved
FROM tally t;

-- name: EventRecordFailure :one
-- A failed delivery: backoff, or DEAD (kept as the dead letter) at the limit.
-- A KAFKA:msg event is pending while its STATUS is NULL and it lies above the
-- watermark. Returns the effective status.
UPDATE msg_event SET
  attempts = attempts + 1,
  status = CASE WHEN attempts + 1 >= @max_attempts::int THEN 'DEAD' ELSE status END,
  next_attempt_at = @next_attempt_at,
  last_error = @last_error
WHERE event_id = @event_id
  AND (status = 'PENDING'
    OR (status IS NULL AND target = 'KAFKA:msg' AND event_id >
      COALESCE((SELECT c.sent_through FROM msg_event_cursor c WHERE c.target = 'KAFKA:msg'), 0)))
RETURNING COALESCE(status, 'PENDING')::varchar AS status, attempts;

-- name: EventListSchdLatest :many
-- schd aggregation: per FLID the latest pending event of the target, oldest
-- flights first, skipping flights still backing off.
WITH latest AS (
  SELECT DISTINCT ON (e.partition_key) e.*
  FROM msg_event e
  WHERE e.target = @target AND e.status = 'PENDING'
  ORDER BY e.partition_key, e.state_version DESC, e.event_id DESC
)
SELECT e.event_id, e.target, e.partition_key, e.event_type, e.cminmsgs_id, e.flid,
  e.state_version, e.idempotency_key, COALESCE(e.payload, t.payload) AS payload,
  e.status, e.attempts, e.next_attempt_at, e.last_error, e.created_at, e.sent_at
FROM latest e
LEFT JOIN msg_event t ON e.target = 'KAFKA:schd'
  AND t.idempotency_key = e.cminmsgs_id || ':' || e.flid || ':' || e.state_version || ':KAFKA:msg'
WHERE e.next_attempt_at IS NULL OR e.next_attempt_at <= @now::timestamptz
ORDER BY e.event_id
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
-- Outbox lag per target for status and metrics: the pending events, per row
-- (KAFKA:schd) or above the watermark (KAFKA:msg, a primary-key range scan).
SELECT p.target::varchar AS target, count(*) AS pending, min(p.created_at)::timestamptz AS oldest
FROM (
  SELECT e.target, e.created_at FROM msg_event e WHERE e.status = 'PENDING'
  UNION ALL
  SELECT e.target, e.created_at FROM msg_event e
  WHERE e.target = 'KAFKA:msg' AND e.status IS NULL
    AND e.event_id > COALESCE((SELECT c.sent_through FROM msg_event_cursor c WHERE c.target = 'KAFKA:msg'), 0)
) p
GROUP BY p.target
ORDER BY p.target;

-- name: EventListDead :many
SELECT e.event_id, e.target, e.partition_key, e.event_type, e.cminmsgs_id, e.flid,
  e.state_version, e.idempotency_key, COALESCE(e.payload, t.payload) AS payload,
  e.status, e.attempts, e.next_attempt_at, e.last_error, e.created_at, e.sent_at
FROM msg_event e
LEFT JOIN msg_event t ON e.target = 'KAFKA:schd'
  AND t.idempotency_key = e.cminmsgs_id || ':' || e.flid || ':' || e.state_version || ':KAFKA:msg'
WHERE e.status = 'DEAD' AND e.target = @target AND e.event_id > @after_event_id
ORDER BY e.event_id
LIMIT @page_size;
