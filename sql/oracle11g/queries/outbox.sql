-- Oracle 11g twin of sql/postgres/queries/outbox.sql (README.md here). Every
-- writer holds PIPELINE_LOCK before MSG_EVENT_SEQ.NEXTVAL (an ORDER
-- sequence), so event ids commit in order and the KAFKA:msg watermark holds.

-- name: EventInsert :copyfrom
-- Executed array-bound (one element per event); STATUS is bound NULL for
-- KAFKA:msg, PENDING for KAFKA:schd; PAYLOAD is a CLOB.
INSERT INTO msg_event (
  event_id, target, partition_key, event_type, cminmsgs_id, flid, state_version,
  idempotency_key, payload, status, created_at)
VALUES (
  msg_event_seq.NEXTVAL, :target, :partition_key, :event_type, :cminmsgs_id, :flid, :state_version,
  :idempotency_key, :payload, :status, :created_at)

-- name: EventListPendingAfter :many
-- Per-row target (KAFKA:schd) after a cursor, with the twin's payload.
SELECT event_id, target, partition_key, event_type, cminmsgs_id, flid,
  state_version, idempotency_key, payload, status, attempts, next_attempt_at, last_error, created_at, sent_at
FROM (
  SELECT e.event_id, e.target, e.partition_key, e.event_type, e.cminmsgs_id, e.flid,
    e.state_version, e.idempotency_key, COALESCE(e.payload, t.payload) AS payload,
    e.status, e.attempts, e.next_attempt_at, e.last_error, e.created_at, e.sent_at
  FROM msg_event e
  LEFT JOIN msg_event t ON e.target = 'KAFKA:schd'
    AND t.idempotency_key = e.cminmsgs_id || ':' || e.flid || ':' || e.state_version || ':KAFKA:msg'
  WHERE CASE WHEN e.status = 'PENDING' THEN e.target END = :target
    AND CASE WHEN e.status = 'PENDING' THEN e.event_id END > :after_event_id
  ORDER BY CASE WHEN e.status = 'PENDING' THEN e.event_id END
) WHERE ROWNUM <= :max_rows

-- name: EventListMsgPendingAfter :many
-- :after_event_id is never NULL (0: the head); GREATEST returns NULL for NULL.
SELECT * FROM (
  SELECT * FROM msg_event
  WHERE CASE WHEN target = 'KAFKA:msg' AND status IS NULL THEN event_id END
    > GREATEST(:after_event_id,
      COALESCE((SELECT c.sent_through FROM msg_event_cursor c WHERE c.target = 'KAFKA:msg'), 0))
  ORDER BY CASE WHEN target = 'KAFKA:msg' AND status IS NULL THEN event_id END
) WHERE ROWNUM <= :max_rows

-- name: EventListByMessage :many
SELECT e.event_id, e.target, e.partition_key, e.event_type, e.cminmsgs_id, e.flid,
  e.state_version, e.idempotency_key, COALESCE(e.payload, t.payload) AS payload,
  COALESCE(e.status, CASE WHEN e.event_id <= c.sent_through THEN 'SENT' ELSE 'PENDING' END) AS status,
  e.attempts, e.next_attempt_at, e.last_error, e.created_at, e.sent_at
FROM msg_event e LEFT JOIN msg_event_cursor c ON c.target = e.target
LEFT JOIN msg_event t ON e.target = 'KAFKA:schd'
  AND t.idempotency_key = e.cminmsgs_id || ':' || e.flid || ':' || e.state_version || ':KAFKA:msg'
WHERE e.cminmsgs_id = :cminmsgs_id
ORDER BY e.event_id

-- name: EventListByFlight :many
SELECT e.event_id, e.target, e.partition_key, e.event_type, e.cminmsgs_id, e.flid,
  e.state_version, e.idempotency_key, COALESCE(e.payload, t.payload) AS payload,
  COALESCE(e.status, CASE WHEN e.event_id <= c.sent_through THEN 'SENT' ELSE 'PENDING' END) AS status,
  e.attempts, e.next_attempt_at, e.last_error, e.created_at, e.sent_at
FROM msg_event e LEFT JOIN msg_event_cursor c ON c.target = e.target
LEFT JOIN msg_event t ON e.target = 'KAFKA:schd'
  AND t.idempotency_key = e.cminmsgs_id || ':' || e.flid || ':' || e.state_version || ':KAFKA:msg'
WHERE e.flid = :flid
ORDER BY e.event_id

-- name: EventMarkSent :execrows
UPDATE msg_event SET status = 'SENT', sent_at = :now, last_error = NULL
WHERE event_id IN (SELECT COLUMN_VALUE FROM TABLE(:event_ids))
  AND target = :target AND status = 'PENDING'

-- name: EventAdvanceMsgCursor :one
-- No DML in a WITH: one block tallies the pending span above the watermark up
-- to the highest id given and moves the watermark to the last acknowledged
-- event only when none below it is missing (ACKED = PENDING_THROUGH), never
-- back (GREATEST). Out binds: :acked, :pending_through, :moved (0 or 1).
DECLARE
  v_up_to NUMBER;
BEGIN
  WITH ids AS (
    SELECT DISTINCT COLUMN_VALUE AS event_id FROM TABLE(:event_ids)
  ), span AS (
    SELECT e.event_id, CASE WHEN i.event_id IS NOT NULL THEN 1 ELSE 0 END AS acked
    FROM msg_event e LEFT JOIN ids i ON i.event_id = e.event_id
    WHERE CASE WHEN e.target = 'KAFKA:msg' AND e.status IS NULL THEN e.event_id END
        > COALESCE((SELECT c.sent_through FROM msg_event_cursor c WHERE c.target = 'KAFKA:msg'), 0)
      AND CASE WHEN e.target = 'KAFKA:msg' AND e.status IS NULL THEN e.event_id END
        <= (SELECT MAX(m.event_id) FROM ids m)
  ), tally AS (
    SELECT p.up_to,
      COUNT(CASE WHEN s.acked = 1 AND s.event_id <= p.up_to THEN 1 END) AS acked,
      COUNT(CASE WHEN s.event_id <= p.up_to THEN 1 END) AS pending_through
    FROM (SELECT MAX(CASE WHEN a.acked = 1 THEN a.event_id END) AS up_to FROM span a) p
    CROSS JOIN span s
    GROUP BY p.up_to
  )
  SELECT COALESCE(MAX(t.acked), 0), COALESCE(MAX(t.pending_through), 0), MAX(t.up_to)
  INTO :acked, :pending_through, v_up_to
  FROM tally t;
  :moved := 0;
  IF v_up_to IS NOT NULL AND :acked = :pending_through THEN
    MERGE INTO msg_event_cursor t
    USING (SELECT 'KAFKA:msg' AS target, v_up_to AS sent_through, :now AS sent_at FROM DUAL) s
    ON (t.target = s.target)
    WHEN MATCHED THEN UPDATE SET t.sent_through = GREATEST(t.sent_through, s.sent_through), t.sent_at = s.sent_at
    WHEN NOT MATCHED THEN INSERT (target, sent_through, sent_at) VALUES (s.target, s.sent_through, s.sent_at);
    :moved := SQL%ROWCOUNT;
  END IF;
END;

-- name: EventRecordFailure :one
-- Returns the raw STATUS (NULL: a KAFKA:msg still pending, mapped to PENDING
-- by the adapter) and the attempts; no row updated leaves the out binds untouched.
UPDATE msg_event SET
  attempts = attempts + 1,
  status = CASE WHEN attempts + 1 >= :max_attempts THEN 'DEAD' ELSE status END,
  next_attempt_at = :next_attempt_at,
  last_error = :last_error
WHERE event_id = :event_id
  AND (status = 'PENDING'
    OR (status IS NULL AND target = 'KAFKA:msg' AND event_id >
      COALESCE((SELECT c.sent_through FROM msg_event_cursor c WHERE c.target = 'KAFKA:msg'), 0)))
RETURNING status, attempts INTO :status_out, :attempts_out

-- name: EventListSchdLatest :many
-- Per FLID the latest pending event of the target, oldest flights first,
-- skipping flights still backing off (filtered after picking the latest).
SELECT event_id, target, partition_key, event_type, cminmsgs_id, flid,
  state_version, idempotency_key, payload, status, attempts, next_attempt_at, last_error, created_at, sent_at
FROM (
  SELECT e.event_id, e.target, e.partition_key, e.event_type, e.cminmsgs_id, e.flid,
    e.state_version, e.idempotency_key, COALESCE(e.payload, t.payload) AS payload,
    e.status, e.attempts, e.next_attempt_at, e.last_error, e.created_at, e.sent_at
  FROM (
    SELECT l.*, ROW_NUMBER() OVER (PARTITION BY l.partition_key
                                   ORDER BY l.state_version DESC, l.event_id DESC) AS rn
    FROM msg_event l
    WHERE CASE WHEN l.status = 'PENDING' THEN l.target END = :target
  ) e
  LEFT JOIN msg_event t ON e.target = 'KAFKA:schd'
    AND t.idempotency_key = e.cminmsgs_id || ':' || e.flid || ':' || e.state_version || ':KAFKA:msg'
  WHERE e.rn = 1
    AND (e.next_attempt_at IS NULL OR e.next_attempt_at <= :now)
  ORDER BY e.event_id
) WHERE ROWNUM <= :max_flights

-- name: EventMarkSupersededSent :execrows
-- One flight per array element (partition_key, up_to), executed array-bound;
-- the row count is the sum over the elements.
UPDATE msg_event SET status = 'SENT', sent_at = :now, last_error = NULL
WHERE CASE WHEN status = 'PENDING' THEN target END = :target
  AND CASE WHEN status = 'PENDING' THEN partition_key END = :partition_key
  AND event_id <= :up_to

-- name: EventMarkSupersededDead :execrows
UPDATE msg_event SET status = 'DEAD', last_error = :last_error
WHERE CASE WHEN status = 'PENDING' THEN target END = :target
  AND CASE WHEN status = 'PENDING' THEN partition_key END = :partition_key
  AND event_id < :below_event_id

-- name: EventLag :many
SELECT p.target, COUNT(*) AS pending, MIN(p.created_at) AS oldest
FROM (
  SELECT e.target, e.created_at FROM msg_event e
  WHERE CASE WHEN e.status = 'PENDING' THEN e.target END IS NOT NULL
  UNION ALL
  SELECT e.target, e.created_at FROM msg_event e
  WHERE CASE WHEN e.target = 'KAFKA:msg' AND e.status IS NULL THEN e.event_id END
    > COALESCE((SELECT c.sent_through FROM msg_event_cursor c WHERE c.target = 'KAFKA:msg'), 0)
) p
GROUP BY p.target
ORDER BY p.target

-- name: EventListDead :many
SELECT event_id, target, partition_key, event_type, cminmsgs_id, flid,
  state_version, idempotency_key, payload, status, attempts, next_attempt_at, last_error, created_at, sent_at
FROM (
  SELECT e.event_id, e.target, e.partition_key, e.event_type, e.cminmsgs_id, e.flid,
    e.state_version, e.idempotency_key, COALESCE(e.payload, t.payload) AS payload,
    e.status, e.attempts, e.next_attempt_at, e.last_error, e.created_at, e.sent_at
  FROM msg_event e
  LEFT JOIN msg_event t ON e.target = 'KAFKA:schd'
    AND t.idempotency_key = e.cminmsgs_id || ':' || e.flid || ':' || e.state_version || ':KAFKA:msg'
  WHERE CASE WHEN e.status = 'DEAD' THEN e.target END = :target
    AND CASE WHEN e.status = 'DEAD' THEN e.event_id END > :after_event_id
  ORDER BY CASE WHEN e.status = 'DEAD' THEN e.event_id END
) WHERE ROWNUM <= :page_size
