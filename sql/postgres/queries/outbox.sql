-- name: EventInsert :copyfrom
-- Events of one business transaction. IDEMPOTENCY_KEY is UNIQUE: a second
-- insert of the same event fails instead of duplicating it.
-- KAFKA:msg only, STATUS NULL (its state is the watermark); KAFKA:schd is a
-- mark (SchdMarkUpsert), its rows here only dead letters (SchdMarkRecordFailure).
INSERT INTO msg_event (
  target, partition_key, event_type, cminmsgs_id, flid, state_version,
  idempotency_key, payload, created_at)
VALUES (
  @target, @partition_key, @event_type, @cminmsgs_id, @flid, @state_version,
  @idempotency_key, @payload, @created_at);

-- name: EventListMsgPendingAfter :many
-- The head of KAFKA:msg after a cursor (0: the head itself): the events above
-- both the cursor and the delivery watermark that are not DEAD, in order. A
-- primary-key range scan: the relay reads on while the watermark of the
-- previous batch is still being written. Their effective status is PENDING.
-- The row test is a CASE, which the planner estimates at one half whatever
-- the statistics (nearly every row above the watermark passes it): written
-- as a plain AND, a table never analyzed estimates it at one row and reads
-- the whole outbox by a seq scan and a sort (040_outbox.sql, the head).
SELECT * FROM msg_event
WHERE event_id > GREATEST(@after_event_id::bigint,
    COALESCE((SELECT c.sent_through FROM msg_event_cursor c WHERE c.target = 'KAFKA:msg'), 0))
  AND CASE WHEN target = 'KAFKA:msg' AND status IS NULL THEN true END
ORDER BY event_id
LIMIT @max_rows;

-- name: EventListByMessage :many
-- Events of a message with their effective status (KAFKA:msg: by the
-- watermark). A KAFKA:schd row's payload is its KAFKA:msg twin's (the twin
-- join, here and below: 040_outbox.sql).
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

-- name: EventAdvanceMsgCursor :one
-- KAFKA:msg: the acknowledged contiguous prefix of the pending head
-- (event_ids) is delivered: the watermark moves to its last event, one row
-- written instead of one per event. Guarded: the pending events above the
-- watermark up to the highest id given are read by the primary key (the
-- row test a CASE, as in EventListMsgPendingAfter), and the
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
  WHERE e.event_id > cur.through AND e.event_id <= (SELECT max(m.event_id) FROM ids m)
    AND CASE WHEN e.target = 'KAFKA:msg' AND e.status IS NULL THEN true END
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

-- name: EventLag :many
-- Outbox lag per target for status and metrics: the pending flights
-- (KAFKA:schd marks, each as old as its oldest undelivered change) and the
-- events above the watermark (KAFKA:msg, a primary-key range scan; the row
-- test a CASE, as in EventListMsgPendingAfter).
SELECT p.target::varchar AS target, count(*) AS pending, min(p.created_at)::timestamptz AS oldest
FROM (
  SELECT 'KAFKA:schd'::varchar AS target, m.pending_since AS created_at FROM schd_mark m
  UNION ALL
  SELECT e.target, e.created_at FROM msg_event e
  WHERE e.event_id > COALESCE((SELECT c.sent_through FROM msg_event_cursor c WHERE c.target = 'KAFKA:msg'), 0)
    AND CASE WHEN e.target = 'KAFKA:msg' AND e.status IS NULL THEN true END
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

-- name: SchdMarkUpsert :exec
-- Marks flights for KAFKA:schd in the business transaction, after the
-- change's KAFKA:msg event (its twin) was written, one mark per flight (FLIDs
-- unique within a call): a newer change replaces the one a mark names
-- (CMINMSGS_ID, STATE_VERSION) and starts its attempts again; PENDING_SINCE
-- keeps the oldest undelivered change. The twin is not read here (the relay
-- reads it once per delivered flight, not at every change).
INSERT INTO schd_mark AS m (flid, cminmsgs_id, state_version, event_type, created_at, pending_since)
SELECT d.flid, d.cminmsgs_id, d.state_version, d.event_type, d.created_at, d.created_at
FROM (SELECT unnest(@flids::bigint[]) AS flid, unnest(@cminmsgs_ids::bigint[]) AS cminmsgs_id,
             unnest(@state_versions::bigint[]) AS state_version, unnest(@event_types::text[]) AS event_type,
             unnest(@created_ats::timestamptz[]) AS created_at) d
ON CONFLICT (flid) DO UPDATE SET
  event_id = NULL, cminmsgs_id = EXCLUDED.cminmsgs_id, state_version = EXCLUDED.state_version,
  event_type = EXCLUDED.event_type, created_at = EXCLUDED.created_at,
  attempts = 0, next_attempt_at = NULL, last_error = NULL;

-- name: SchdMarkListDue :many
-- The marks due at @now (not backing off), oldest pending first, each with
-- the EVENT_ID and payload of the change it names (its KAFKA:msg twin's,
-- which outbox retention keeps while the mark names it; 0 and no payload
-- would be a twin gone). A seq scan of a table that holds only the flights
-- changed since the last flush.
SELECT m.flid, COALESCE(t.event_id, 0)::bigint AS event_id, m.cminmsgs_id, m.state_version, m.event_type, t.payload,
  m.attempts, m.next_attempt_at, m.last_error, m.created_at
FROM schd_mark m
LEFT JOIN msg_event t
  ON t.idempotency_key = m.cminmsgs_id || ':' || m.flid || ':' || m.state_version || ':KAFKA:msg'
WHERE m.next_attempt_at IS NULL OR m.next_attempt_at <= @now::timestamptz
ORDER BY m.pending_since, m.flid
LIMIT @max_flights;

-- name: SchdMarkClear :execrows
-- Deletes the delivered marks, each only while it still names the change
-- that was sent (flids[i] at cminmsgs_ids[i], state_versions[i]): a mark a
-- newer change replaced meanwhile stays, and that change is sent next.
DELETE FROM schd_mark m
USING (SELECT unnest(@flids::bigint[]) AS flid, unnest(@cminmsgs_ids::bigint[]) AS cminmsgs_id,
              unnest(@state_versions::bigint[]) AS state_version) d
WHERE m.flid = d.flid AND m.cminmsgs_id = d.cminmsgs_id AND m.state_version = d.state_version;

-- name: SchdMarkRecordFailure :one
-- A failed delivery of the change a mark names (compared by CMINMSGS_ID and
-- STATE_VERSION, as SchdMarkClear): backoff, or at the limit the mark moves to msg_event as a
-- DEAD KAFKA:schd row (the dead letter, an EVENT_ID of its own). STATUS:
-- PENDING, DEAD, or empty when a newer change replaced the mark meanwhile
-- (nothing recorded: the newer change starts its own attempts).
WITH dead AS (
  DELETE FROM schd_mark m
  WHERE m.flid = @flid AND m.cminmsgs_id = @cminmsgs_id AND m.state_version = @state_version
    AND m.attempts + 1 >= @max_attempts::int
  RETURNING m.*
), buried AS (
  INSERT INTO msg_event (target, partition_key, event_type, cminmsgs_id, flid, state_version,
    idempotency_key, status, attempts, next_attempt_at, last_error, created_at)
  SELECT 'KAFKA:schd', d.flid::text, d.event_type, d.cminmsgs_id, d.flid, d.state_version,
    d.cminmsgs_id || ':' || d.flid || ':' || d.state_version || ':KAFKA:schd', 'DEAD', d.attempts + 1,
    @next_attempt_at::timestamptz, @last_error, d.created_at
  FROM dead d
  RETURNING event_id
), backoff AS (
  UPDATE schd_mark m SET attempts = m.attempts + 1, next_attempt_at = @next_attempt_at::timestamptz, last_error = @last_error
  WHERE m.flid = @flid AND m.cminmsgs_id = @cminmsgs_id AND m.state_version = @state_version
    AND m.attempts + 1 < @max_attempts::int
  RETURNING m.flid
)
SELECT (CASE WHEN EXISTS (SELECT 1 FROM buried) THEN 'DEAD'
  WHEN EXISTS (SELECT 1 FROM backoff) THEN 'PENDING' ELSE '' END)::varchar AS status;

-- name: SchdMarkAdopt :execrows
-- KAFKA:schd rows an earlier release left PENDING become marks: per flight
-- the latest (it stands for the older ones, which go), unless the flight's
-- mark names a later change: its twin has a higher EVENT_ID (ids commit in
-- order), or is not in this statement's snapshot (committed since, so
-- later). Run when the relay starts a term; the partial msg_event_head_ix
-- finds nothing fast.
WITH legacy AS (
  DELETE FROM msg_event e WHERE e.target = 'KAFKA:schd' AND e.status = 'PENDING'
  RETURNING e.*
), latest AS (
  SELECT DISTINCT ON (l.flid) l.*, min(l.created_at) OVER (PARTITION BY l.flid) AS pending_since
  FROM legacy l
  ORDER BY l.flid, l.state_version DESC, l.event_id DESC
)
INSERT INTO schd_mark AS m (flid, cminmsgs_id, state_version, event_type, attempts,
  next_attempt_at, last_error, created_at, pending_since)
SELECT l.flid, l.cminmsgs_id, l.state_version, l.event_type, l.attempts,
  l.next_attempt_at, l.last_error, l.created_at, l.pending_since
FROM latest l
ON CONFLICT (flid) DO UPDATE SET
  event_id = NULL, cminmsgs_id = EXCLUDED.cminmsgs_id, state_version = EXCLUDED.state_version,
  event_type = EXCLUDED.event_type, attempts = EXCLUDED.attempts, next_attempt_at = EXCLUDED.next_attempt_at,
  last_error = EXCLUDED.last_error, created_at = EXCLUDED.created_at,
  pending_since = LEAST(m.pending_since, EXCLUDED.pending_since)
WHERE COALESCE((SELECT t.event_id FROM msg_event t
    WHERE t.idempotency_key = m.cminmsgs_id || ':' || m.flid || ':' || m.state_version || ':KAFKA:msg'), 9223372036854775807)
  < (SELECT t.event_id FROM msg_event t
    WHERE t.idempotency_key = EXCLUDED.cminmsgs_id || ':' || EXCLUDED.flid || ':' || EXCLUDED.state_version || ':KAFKA:msg');
