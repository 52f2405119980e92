-- Oracle 11g twin of sql/postgres/queries/proc_state.sql: same names, kinds,
-- rows, order and effects (dialect notes: README.md here). One statement per
-- query, no trailing semicolon; id lists are SYS.ODCINUMBERLIST / ODCIVARCHAR2LIST
-- collections bound as one parameter and read through TABLE().

-- name: ProcStateEnqueue :many
-- Oracle returns no rows from a MERGE: step 1 lists the ids new to the queue
-- (neither live nor archived) with their late_after, the largest finished id
-- above each (rule 17); the caller holds PIPELINE_LOCK (or, as
-- ProcStateEnqueueCheck found, every new id is above every known one), so
-- step 2 (ProcStateEnqueueInsert) inserts exactly these rows.
SELECT s.msg_id, GREATEST(
    NVL((SELECT MAX(p.msg_id) FROM proc_state p WHERE p.msg_id > s.msg_id AND p.status IN ('SUCCEEDED', 'SKIPPED', 'DEAD')), 0),
    NVL((SELECT MAX(h.msg_id) FROM proc_state_hst h WHERE h.msg_id > s.msg_id), 0)) AS late_after
FROM (SELECT DISTINCT i.COLUMN_VALUE AS msg_id FROM TABLE(:msg_ids) i) s
WHERE NOT EXISTS (SELECT 1 FROM proc_state_hst h WHERE h.msg_id = s.msg_id)
  AND NOT EXISTS (SELECT 1 FROM proc_state l WHERE l.msg_id = s.msg_id)
ORDER BY s.msg_id

-- name: ProcStateEnqueueInsert :execrows
-- step of: ProcStateEnqueue
-- Step 2: enqueues as PENDING. MERGE with only the NOT MATCHED branch is ON
-- CONFLICT DO NOTHING; an id already archived is never enqueued again.
MERGE INTO proc_state t
USING (
  SELECT DISTINCT i.COLUMN_VALUE AS msg_id FROM TABLE(:msg_ids) i
  WHERE NOT EXISTS (SELECT 1 FROM proc_state_hst h WHERE h.msg_id = i.COLUMN_VALUE)
) s
ON (t.msg_id = s.msg_id)
WHEN NOT MATCHED THEN INSERT (msg_id, status, first_seen_at, created_at, updated_at, late_after)
  VALUES (s.msg_id, 'PENDING', :now, :now, :now, NULLIF(GREATEST(
    NVL((SELECT MAX(p.msg_id) FROM proc_state p WHERE p.msg_id > s.msg_id AND p.status IN ('SUCCEEDED', 'SKIPPED', 'DEAD')), 0),
    NVL((SELECT MAX(h.msg_id) FROM proc_state_hst h WHERE h.msg_id > s.msg_id), 0)), 0))

-- name: ProcStateEnqueueCheck :one
-- Before an enqueue, without a lock: how many of the ids are new (neither
-- live nor archived), the smallest of them and the largest id known.
SELECT COUNT(*) AS new_ids, NVL(MIN(s.msg_id), 0) AS min_new,
  GREATEST(
    NVL((SELECT MAX(p.msg_id) FROM proc_state p), 0),
    NVL((SELECT MAX(h.msg_id) FROM proc_state_hst h), 0)) AS max_known
FROM (SELECT DISTINCT i.COLUMN_VALUE AS msg_id FROM TABLE(:msg_ids) i) s
WHERE NOT EXISTS (SELECT 1 FROM proc_state_hst h WHERE h.msg_id = s.msg_id)
  AND NOT EXISTS (SELECT 1 FROM proc_state l WHERE l.msg_id = s.msg_id)

-- name: ProcStateGetHead :one
-- The queue head: the smallest unfinished MSG_ID (PROC_STATE_HEAD_IX expression).
SELECT * FROM (
  SELECT * FROM proc_state
  WHERE CASE WHEN status IN ('PENDING', 'FAILED') THEN msg_id END IS NOT NULL
  ORDER BY CASE WHEN status IN ('PENDING', 'FAILED') THEN msg_id END
) WHERE ROWNUM = 1

-- name: ProcStateListHead :many
SELECT * FROM (
  SELECT * FROM proc_state
  WHERE CASE WHEN status IN ('PENDING', 'FAILED') THEN msg_id END IS NOT NULL
  ORDER BY CASE WHEN status IN ('PENDING', 'FAILED') THEN msg_id END
) WHERE ROWNUM <= :max_rows

-- name: ProcStateListRun :many
-- What the pump uses of the messages of a run (store.QueueRun), with what
-- their finish expects (ProcStateFinishMany), and in the same statement
-- (one read-consistent snapshot) PIPELINE_LOCK's count of enqueues below
-- the largest known id, which the batch compares under the lock.
SELECT msg_id, status, attempts, first_seen_at, identity_key, replay_count,
  NVL((SELECT l.enqueued_below FROM pipeline_lock l WHERE l.id = 1), 0) AS enqueued_below FROM (
  SELECT msg_id, status, attempts, first_seen_at, identity_key, replay_count FROM proc_state
  WHERE CASE WHEN status IN ('PENDING', 'FAILED') THEN msg_id END IS NOT NULL
  ORDER BY CASE WHEN status IN ('PENDING', 'FAILED') THEN msg_id END
) WHERE ROWNUM <= :max_rows

-- name: ProcStateListPendingAfter :many
SELECT msg_id FROM (
  SELECT msg_id FROM proc_state
  WHERE CASE WHEN status IN ('PENDING', 'FAILED') THEN msg_id END > :after_msg_id
    AND status = 'PENDING'
  ORDER BY CASE WHEN status IN ('PENDING', 'FAILED') THEN msg_id END
) WHERE ROWNUM <= :max_rows

-- name: ProcStateGet :one
SELECT * FROM proc_state WHERE msg_id = :msg_id

-- name: ProcStateGetManyForUpdate :many
-- What the business transaction uses of a locked row (store.LockMessages).
SELECT msg_id, status, identity_key, replay_count FROM proc_state
WHERE msg_id IN (SELECT COLUMN_VALUE FROM TABLE(:msg_ids))
ORDER BY msg_id
FOR UPDATE

-- name: ProcStateFindIdentities :many
-- Who holds these identity keys, live or archived, with the digest of each
-- holder's raw message (rule 2).
SELECT p.identity_key, p.msg_id, p.raw_digest FROM proc_state p
WHERE CASE WHEN p.duplicate_of IS NULL THEN p.identity_key END IN (SELECT COLUMN_VALUE FROM TABLE(:identity_keys))
UNION ALL
SELECT h.identity_key, h.msg_id, h.raw_digest FROM proc_state_hst h
WHERE CASE WHEN h.duplicate_of IS NULL THEN h.identity_key END IN (SELECT COLUMN_VALUE FROM TABLE(:identity_keys))

-- name: ProcStateFinishMany :many
-- One row of the run (11g has no JSON): the adapter executes it array-bound,
-- one element per message, and returns the ids whose row was updated;
-- bind_meta is 1 to bind identity and META in the same row write, 0 to keep
-- them; raw_digest is hex text (an array bind of RAW values is not portable).
-- A row is finished only while it is as the pump read it (read_status,
-- read_replay_count, read_identity), in place of a FOR UPDATE read: a row a
-- concurrent writer changed restarts the UPDATE on its new version (write
-- consistency), which then fails the check; the rows updated, summed over
-- the array, are compared with the messages sent. A NULL read_status checks
-- only that the row is unfinished.
UPDATE proc_state SET
  identity_key = CASE WHEN :bind_meta = 1 THEN :identity_key ELSE identity_key END,
  kind = CASE WHEN :bind_meta = 1 THEN :kind ELSE kind END,
  msg_type = CASE WHEN :bind_meta = 1 THEN :msg_type ELSE msg_type END,
  msg_subtype = CASE WHEN :bind_meta = 1 THEN :msg_subtype ELSE msg_subtype END,
  meta_sndr = CASE WHEN :bind_meta = 1 THEN :meta_sndr ELSE meta_sndr END,
  meta_seqn = CASE WHEN :bind_meta = 1 THEN :meta_seqn ELSE meta_seqn END,
  meta_dttm_raw = CASE WHEN :bind_meta = 1 THEN :meta_dttm_raw ELSE meta_dttm_raw END,
  meta_dttm = CASE WHEN :bind_meta = 1 THEN :meta_dttm ELSE meta_dttm END,
  raw_digest = CASE WHEN :bind_meta = 1 AND :raw_digest IS NOT NULL THEN HEXTORAW(:raw_digest) ELSE raw_digest END,
  status = :status,
  error_class = :error_class,
  reason = :reason,
  duplicate_of = :duplicate_of,
  next_attempt_at = NULL,
  finished_at = :now,
  updated_at = :now
WHERE msg_id = :msg_id AND status IN ('PENDING', 'FAILED')
  AND (:read_status IS NULL OR (status = :read_status
    AND replay_count = :read_replay_count
    AND (identity_key = :read_identity OR (identity_key IS NULL AND :read_identity IS NULL))))

-- name: ProcStateRecordFailure :one
-- Only while the row is unfinished at the replay count the attempt read (a
-- replay since asked for a fresh start). No row updated leaves the out bind
-- untouched: the adapter checks rows affected (0: store.ErrStale).
UPDATE proc_state SET
  status = 'FAILED',
  attempts = attempts + 1,
  failing_since = COALESCE(failing_since, :now),
  kind = COALESCE(:kind, kind),
  msg_type = COALESCE(:msg_type, msg_type),
  msg_subtype = COALESCE(:msg_subtype, msg_subtype),
  meta_sndr = COALESCE(:meta_sndr, meta_sndr),
  meta_seqn = COALESCE(:meta_seqn, meta_seqn),
  meta_dttm_raw = COALESCE(:meta_dttm_raw, meta_dttm_raw),
  meta_dttm = COALESCE(:meta_dttm, meta_dttm),
  error_class = :error_class,
  reason = :reason,
  next_attempt_at = :next_attempt_at,
  updated_at = :now
WHERE msg_id = :msg_id AND status IN ('PENDING', 'FAILED')
  AND replay_count = :read_replay_count
RETURNING attempts INTO :attempts

-- name: ProcStateCountBacklogAndDead :many
-- The backlog and the live dead letters, each half through its index's
-- expression (PROC_STATE_HEAD_IX; PROC_STATE_DEAD_IX, which holds all the
-- DEAD half needs, so no table access). A NULL class stays NULL ('' is NULL
-- here); the adapter maps it to "".
SELECT status, error_class, COUNT(*) AS messages
FROM proc_state
WHERE CASE WHEN status IN ('PENDING', 'FAILED') THEN msg_id END IS NOT NULL
GROUP BY status, error_class
UNION ALL
SELECT 'DEAD', CASE WHEN status = 'DEAD' THEN error_class END, COUNT(*)
FROM proc_state
WHERE CASE WHEN status = 'DEAD' THEN msg_id END IS NOT NULL
GROUP BY CASE WHEN status = 'DEAD' THEN error_class END
ORDER BY 1, 2

-- name: ProcStateListDead :many
SELECT * FROM (
  SELECT * FROM proc_state
  WHERE CASE WHEN status = 'DEAD' THEN msg_id END > :after_msg_id
    AND (:error_class IS NULL OR CASE WHEN status = 'DEAD' THEN error_class END = :error_class)
  ORDER BY CASE WHEN status = 'DEAD' THEN msg_id END
) WHERE ROWNUM <= :page_size

-- name: ProcStateArchive :one
-- Oracle allows no DML in a WITH, so one PL/SQL block does the steps in one
-- round trip: the batch of ids (oldest first) with its count and oldest and
-- newest FINISHED_AT into the OUT binds; unless :dry_run is 1, those rows
-- locked while still terminal (a replay may have moved a row meanwhile),
-- copied and deleted.
DECLARE
  batch SYS.ODCINUMBERLIST;
  locked SYS.ODCINUMBERLIST;
BEGIN
  SELECT msg_id BULK COLLECT INTO batch FROM (
    SELECT s.msg_id FROM proc_state s
    WHERE s.status IN ('SUCCEEDED', 'SKIPPED', 'DEAD')
      AND s.finished_at < :finished_before
      AND s.msg_id <= NVL((SELECT m.through_msg_id FROM backfill_mark m WHERE m.id = 1), 0)
      AND NOT EXISTS (SELECT 1 FROM backfill_todo b WHERE b.msg_id = s.msg_id)
    ORDER BY s.msg_id
  ) WHERE ROWNUM <= :max_rows;
  SELECT COUNT(*), MIN(finished_at), MAX(finished_at) INTO :affected, :oldest, :newest
  FROM proc_state WHERE msg_id IN (SELECT COLUMN_VALUE FROM TABLE(batch));
  IF :dry_run = 0 THEN
    SELECT msg_id BULK COLLECT INTO locked FROM proc_state
    WHERE msg_id IN (SELECT COLUMN_VALUE FROM TABLE(batch))
      AND status IN ('SUCCEEDED', 'SKIPPED', 'DEAD')
    FOR UPDATE;
    INSERT INTO proc_state_hst (
      msg_id, status, identity_key, kind, msg_type, msg_subtype, meta_sndr, meta_seqn,
      meta_dttm_raw, meta_dttm, attempts, first_seen_at, error_class, reason, duplicate_of,
      replay_count, prev_error_class, prev_reason, finished_at, created_at, archived_at, late_after, raw_digest)
    SELECT
      msg_id, status, identity_key, kind, msg_type, msg_subtype, meta_sndr, meta_seqn,
      meta_dttm_raw, meta_dttm, attempts, first_seen_at, error_class, reason, duplicate_of,
      replay_count, prev_error_class, prev_reason, finished_at, created_at, :now, late_after, raw_digest
    FROM proc_state
    WHERE msg_id IN (SELECT COLUMN_VALUE FROM TABLE(locked));
    DELETE FROM proc_state WHERE msg_id IN (SELECT COLUMN_VALUE FROM TABLE(locked));
  END IF;
END;

-- name: ProcStateHstGet :one
SELECT * FROM proc_state_hst WHERE msg_id = :msg_id

-- name: ProcStateShiftDeadlines :execrows
-- TIMESTAMP WITH TIME ZONE minus TIMESTAMP WITH TIME ZONE is an INTERVAL DAY
-- TO SECOND, which adds to a TIMESTAMP WITH TIME ZONE.
UPDATE proc_state
SET failing_since = failing_since + (:resumed_at - :paused_since),
    updated_at = :resumed_at
WHERE status = 'FAILED' AND failing_since < :paused_since
