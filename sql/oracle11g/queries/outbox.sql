-- Oracle 11g twin of sql/postgres/queries/outbox.sql (README.md here). Every
-- writer holds PIPELINE_LOCK before MSG_EVENT_SEQ.NEXTVAL (an ORDER
-- sequence), so event ids commit in order and the KAFKA:msg watermark holds.

-- name: EventInsert :copyfrom
-- KAFKA:msg only (STATUS NULL), one execution per event; PAYLOAD is a CLOB.
INSERT INTO msg_event (
  event_id, target, partition_key, event_type, cminmsgs_id, flid, state_version,
  idempotency_key, payload, created_at)
VALUES (
  msg_event_seq.NEXTVAL, :target, :partition_key, :event_type, :cminmsgs_id, :flid, :state_version,
  :idempotency_key, :payload, :created_at)

-- name: EventListMsgPendingAfter :many
-- :after_event_id is never NULL (0: the head); GREATEST returns NULL for NULL.
-- A MSG_EVENT_PKEY range above the bound, in order, stopped by ROWNUM (the
-- hint: whatever the statistics; README.md, "KAFKA:msg").
SELECT * FROM (
  SELECT /*+ INDEX_ASC(e MSG_EVENT_PKEY) */ e.* FROM msg_event e
  WHERE e.event_id > GREATEST(:after_event_id,
      COALESCE((SELECT c.sent_through FROM msg_event_cursor c WHERE c.target = 'KAFKA:msg'), 0))
    AND e.target = 'KAFKA:msg' AND e.status IS NULL
  ORDER BY e.event_id
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
    SELECT /*+ INDEX(e MSG_EVENT_PKEY) */ e.event_id, CASE WHEN i.event_id IS NOT NULL THEN 1 ELSE 0 END AS acked
    FROM msg_event e LEFT JOIN ids i ON i.event_id = e.event_id
    WHERE e.event_id > COALESCE((SELECT c.sent_through FROM msg_event_cursor c WHERE c.target = 'KAFKA:msg'), 0)
      AND e.event_id <= (SELECT MAX(m.event_id) FROM ids m)
      AND e.target = 'KAFKA:msg' AND e.status IS NULL
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

-- name: EventLag :many
SELECT p.target, COUNT(*) AS pending, MIN(p.created_at) AS oldest
FROM (
  SELECT 'KAFKA:schd' AS target, m.pending_since AS created_at FROM schd_mark m
  UNION ALL
  SELECT /*+ INDEX(e MSG_EVENT_PKEY) */ e.target, e.created_at FROM msg_event e
  WHERE e.event_id > COALESCE((SELECT c.sent_through FROM msg_event_cursor c WHERE c.target = 'KAFKA:msg'), 0)
    AND e.target = 'KAFKA:msg' AND e.status IS NULL
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

-- name: SchdMarkUpsert :exec
-- Executed array-bound, one element per flight (FLIDs unique within a call);
-- the mark names its change by CMINMSGS_ID and STATE_VERSION, the twin is
-- read when it is sent (EVENT_ID unused, NULL).
MERGE INTO schd_mark m
USING (SELECT :flid AS flid, :cminmsgs_id AS cminmsgs_id, :state_version AS state_version,
         :event_type AS event_type, :created_at AS created_at
       FROM DUAL) d
ON (m.flid = d.flid)
WHEN MATCHED THEN UPDATE SET
  m.event_id = NULL, m.cminmsgs_id = d.cminmsgs_id, m.state_version = d.state_version,
  m.event_type = d.event_type, m.created_at = d.created_at,
  m.attempts = 0, m.next_attempt_at = NULL, m.last_error = NULL
WHEN NOT MATCHED THEN INSERT (flid, cminmsgs_id, state_version, event_type, created_at, pending_since)
  VALUES (d.flid, d.cminmsgs_id, d.state_version, d.event_type, d.created_at, d.created_at)

-- name: SchdMarkListDue :many
-- EVENT_ID and payload are the twin's (0 and NULL: a twin gone, which
-- outbox retention prevents).
SELECT flid, event_id, cminmsgs_id, state_version, event_type, payload,
  attempts, next_attempt_at, last_error, created_at
FROM (
  SELECT m.flid, NVL(t.event_id, 0) AS event_id, m.cminmsgs_id, m.state_version, m.event_type, t.payload,
    m.attempts, m.next_attempt_at, m.last_error, m.created_at
  FROM schd_mark m
  LEFT JOIN msg_event t
    ON t.idempotency_key = m.cminmsgs_id || ':' || m.flid || ':' || m.state_version || ':KAFKA:msg'
  WHERE m.next_attempt_at IS NULL OR m.next_attempt_at <= :now
  ORDER BY m.pending_since, m.flid
) WHERE ROWNUM <= :max_flights

-- name: SchdMarkClear :execrows
-- Executed array-bound, one element per delivered flight; the row count is
-- the sum over the elements.
DELETE FROM schd_mark WHERE flid = :flid AND cminmsgs_id = :cminmsgs_id AND state_version = :state_version

-- name: SchdMarkRecordFailure :one
-- No DML in a WITH: one block. The UPDATE locks the mark (when it still names
-- the change :cminmsgs_id, :state_version); at the limit the mark moves to MSG_EVENT as the DEAD row (an
-- EVENT_ID of its own). Out
-- bind :status: PENDING, DEAD, or NULL (the mark names a newer change).
DECLARE
  v_attempts NUMBER(10);
BEGIN
  :status := NULL;
  UPDATE schd_mark SET attempts = attempts + 1, next_attempt_at = :next_attempt_at, last_error = :last_error
  WHERE flid = :flid AND cminmsgs_id = :cminmsgs_id AND state_version = :state_version
  RETURNING attempts INTO v_attempts;
  IF SQL%ROWCOUNT = 1 THEN
    :status := 'PENDING';
    IF v_attempts >= :max_attempts THEN
      INSERT INTO msg_event (event_id, target, partition_key, event_type, cminmsgs_id, flid, state_version,
        idempotency_key, status, attempts, next_attempt_at, last_error, created_at)
      SELECT msg_event_seq.NEXTVAL, 'KAFKA:schd', TO_CHAR(m.flid), m.event_type, m.cminmsgs_id, m.flid, m.state_version,
        m.cminmsgs_id || ':' || m.flid || ':' || m.state_version || ':KAFKA:schd', 'DEAD', m.attempts,
        m.next_attempt_at, m.last_error, m.created_at
      FROM schd_mark m WHERE m.flid = :flid;
      DELETE FROM schd_mark WHERE flid = :flid;
      :status := 'DEAD';
    END IF;
  END IF;
END;

-- name: SchdMarkAdopt :execrows
-- No DML in a WITH: one block takes the PENDING KAFKA:schd rows' ids (the
-- MSG_EVENT_HEAD_IX expressions), merges per flight the latest unless the
-- flight's mark names a later change (its twin's EVENT_ID is higher, or not
-- in the snapshot: committed since), then deletes exactly those rows. Out
-- bind :adopted: the flights merged.
DECLARE
  legacy SYS.ODCINUMBERLIST;
BEGIN
  SELECT e.event_id BULK COLLECT INTO legacy FROM msg_event e
  WHERE CASE WHEN e.status = 'PENDING' THEN e.target END = 'KAFKA:schd';
  MERGE INTO schd_mark m
  USING (
    SELECT x.flid, x.cminmsgs_id, x.state_version, x.event_type, x.attempts, x.next_attempt_at, x.last_error,
      x.created_at, x.pending_since,
      (SELECT t.event_id FROM msg_event t
       WHERE t.idempotency_key = x.cminmsgs_id || ':' || x.flid || ':' || x.state_version || ':KAFKA:msg') AS twin_id
    FROM (
      SELECT l.flid, l.event_id, l.cminmsgs_id, l.state_version, l.event_type, l.attempts, l.next_attempt_at,
        l.last_error, l.created_at, MIN(l.created_at) OVER (PARTITION BY l.flid) AS pending_since,
        ROW_NUMBER() OVER (PARTITION BY l.flid ORDER BY l.state_version DESC, l.event_id DESC) AS rn
      FROM msg_event l WHERE l.event_id IN (SELECT COLUMN_VALUE FROM TABLE(legacy))
    ) x WHERE x.rn = 1
  ) d
  ON (m.flid = d.flid)
  WHEN MATCHED THEN UPDATE SET
    m.event_id = NULL, m.cminmsgs_id = d.cminmsgs_id, m.state_version = d.state_version,
    m.event_type = d.event_type, m.attempts = d.attempts, m.next_attempt_at = d.next_attempt_at,
    m.last_error = d.last_error, m.created_at = d.created_at,
    m.pending_since = LEAST(m.pending_since, d.pending_since)
    WHERE NVL((SELECT t.event_id FROM msg_event t
        WHERE t.idempotency_key = m.cminmsgs_id || ':' || m.flid || ':' || m.state_version || ':KAFKA:msg'),
      9223372036854775807) < d.twin_id
  WHEN NOT MATCHED THEN INSERT (flid, cminmsgs_id, state_version, event_type, attempts,
      next_attempt_at, last_error, created_at, pending_since)
    VALUES (d.flid, d.cminmsgs_id, d.state_version, d.event_type, d.attempts,
      d.next_attempt_at, d.last_error, d.created_at, d.pending_since);
  :adopted := SQL%ROWCOUNT;
  DELETE FROM msg_event WHERE event_id IN (SELECT COLUMN_VALUE FROM TABLE(legacy));
END;
