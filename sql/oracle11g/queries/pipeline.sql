-- Oracle 11g twin of sql/postgres/queries/pipeline.sql (README.md here).

-- name: PipelineLockTake :exec
-- step of: PipelineLockAcquire
-- Step 1: takes the PIPELINE_LOCK row lock for the rest of the transaction.
-- A concurrent first insert fails with ORA-00001; the adapter retries once.
MERGE INTO pipeline_lock t
USING (SELECT 1 AS id, :now AS locked_at FROM DUAL) s
ON (t.id = s.id)
WHEN MATCHED THEN UPDATE SET t.locked_at = s.locked_at
WHEN NOT MATCHED THEN INSERT (id, locked_at) VALUES (s.id, s.locked_at)

-- name: PipelineLockAcquire :one
-- Step 2 (11g's MERGE returns nothing): the count of enqueues below the
-- largest known id, read under the lock step 1 holds, so the latest
-- committed.
SELECT enqueued_below FROM pipeline_lock WHERE id = 1

-- name: PipelineLockEnqueueBelow :exec
-- PipelineLockTake for an enqueue of an id below the largest known one: it
-- also counts the enqueue, in the enqueue's transaction, so a run read
-- before it commits sees another count under the lock and is abandoned.
MERGE INTO pipeline_lock t
USING (SELECT 1 AS id, :now AS locked_at FROM DUAL) s
ON (t.id = s.id)
WHEN MATCHED THEN UPDATE SET t.locked_at = s.locked_at, t.enqueued_below = t.enqueued_below + 1
WHEN NOT MATCHED THEN INSERT (id, locked_at, enqueued_below) VALUES (s.id, s.locked_at, 1)

-- name: IngressMarkGet :one
SELECT last_id FROM ingress_mark WHERE source = :source

-- name: IngressMarkAdvance :exec
-- Moves the watermark forward, never back.
MERGE INTO ingress_mark t
USING (SELECT :source AS source, :last_id AS last_id, :now AS updated_at FROM DUAL) s
ON (t.source = s.source)
WHEN MATCHED THEN UPDATE SET t.last_id = GREATEST(t.last_id, s.last_id), t.updated_at = s.updated_at
WHEN NOT MATCHED THEN INSERT (source, last_id, updated_at) VALUES (s.source, s.last_id, s.updated_at)

-- name: BackfillTodoAdd :exec
-- One todo of the run (11g has no JSON): executed array-bound, one element
-- per message. A message terminal again after a replay overwrites its todo,
-- under its new registration (rule 18).
MERGE INTO backfill_todo t
USING (
  SELECT :msg_id AS msg_id, :mailbox_status AS mailbox_status, :processed_at AS processed_at,
    :meta_sndr AS meta_sndr, :meta_seqn AS meta_seqn, :meta_dttm AS meta_dttm,
    :meta_type AS meta_type, :meta_styp AS meta_styp, :registration AS registration
  FROM DUAL
) s
ON (t.msg_id = s.msg_id)
WHEN MATCHED THEN UPDATE SET
  t.mailbox_status = s.mailbox_status,
  t.processed_at = s.processed_at,
  t.meta_sndr = s.meta_sndr,
  t.meta_seqn = s.meta_seqn,
  t.meta_dttm = s.meta_dttm,
  t.meta_type = s.meta_type,
  t.meta_styp = s.meta_styp,
  t.attempts = 0,
  t.next_attempt_at = s.processed_at,
  t.last_error = NULL,
  t.registration = s.registration
WHEN NOT MATCHED THEN INSERT (
  msg_id, mailbox_status, processed_at, meta_sndr, meta_seqn, meta_dttm, meta_type, meta_styp,
  attempts, next_attempt_at, last_error, created_at, registration)
VALUES (
  s.msg_id, s.mailbox_status, s.processed_at, s.meta_sndr, s.meta_seqn, s.meta_dttm, s.meta_type, s.meta_styp,
  0, s.processed_at, NULL, s.processed_at, s.registration)

-- name: BackfillTodoListDue :many
-- The due todos, each with the status of msgx's own earlier backfill it may
-- overwrite (rule 18): DEAD when its message was replayed, else empty (NULL).
SELECT * FROM (
  SELECT b.*, CASE WHEN p.replay_count > 0 THEN 'DEAD' END AS overwrites_status
  FROM backfill_todo b LEFT JOIN proc_state p ON p.msg_id = b.msg_id
  WHERE b.next_attempt_at <= :now
  ORDER BY b.msg_id
) WHERE ROWNUM <= :max_rows

-- name: BackfillTodoGet :one
SELECT * FROM backfill_todo WHERE msg_id = :msg_id

-- name: BackfillTodoDelete :execrows
-- One todo backfilled, executed array-bound: deleted only under the
-- registration that was backfilled, so one a replay registered meanwhile
-- stays (rule 18).
DELETE FROM backfill_todo WHERE msg_id = :msg_id AND registration = :registration

-- name: BackfillTodoRecordFailure :exec
-- Counts a failed backfill and defers it: a todo only under the
-- registration read (rule 18); a backfill the mark covered (no todo) gets
-- its todo now, with the failure counted, so the mark may pass it.
MERGE INTO backfill_todo t
USING (
  SELECT :msg_id AS msg_id, :mailbox_status AS mailbox_status, :processed_at AS processed_at,
    :meta_sndr AS meta_sndr, :meta_seqn AS meta_seqn, :meta_dttm AS meta_dttm,
    :meta_type AS meta_type, :meta_styp AS meta_styp, :registration AS registration,
    :next_attempt_at AS next_attempt_at, :last_error AS last_error
  FROM DUAL
) s
ON (t.msg_id = s.msg_id)
WHEN MATCHED THEN UPDATE SET
  t.attempts = t.attempts + 1,
  t.next_attempt_at = s.next_attempt_at,
  t.last_error = s.last_error
  WHERE t.registration = s.registration
WHEN NOT MATCHED THEN INSERT (
  msg_id, mailbox_status, processed_at, meta_sndr, meta_seqn, meta_dttm, meta_type, meta_styp,
  attempts, next_attempt_at, last_error, created_at, registration)
VALUES (s.msg_id, s.mailbox_status, s.processed_at, s.meta_sndr, s.meta_seqn, s.meta_dttm, s.meta_type, s.meta_styp,
  1, s.next_attempt_at, s.last_error, s.processed_at, s.registration)

-- name: BackfillMarkGet :one
-- The backfill mark (0 before it first moves), read by the business
-- transaction under the PIPELINE_LOCK, which BackfillMarkAdvance waits for.
SELECT NVL((SELECT through_msg_id FROM backfill_mark WHERE id = 1), 0) AS through_msg_id FROM DUAL

-- name: BackfillUnmarked :many
-- The messages above the mark in MSG_ID order, up to the first unfinished
-- one that is no replay (PostgreSQL's twin says why).
SELECT * FROM (
  SELECT p.msg_id, p.status, p.finished_at, p.replay_count,
    p.meta_sndr, p.meta_seqn, p.meta_dttm, p.msg_type, p.msg_subtype
  FROM proc_state p
  WHERE p.msg_id > :after
    AND p.msg_id < NVL((SELECT MIN(h.msg_id) FROM proc_state h
      WHERE h.status IN ('PENDING', 'FAILED') AND h.replay_count = 0 AND h.msg_id > :after),
      9223372036854775807)
  ORDER BY p.msg_id
) WHERE ROWNUM <= :max_rows

-- name: BackfillMarkAdvance :execrows
-- Moves the mark up to :through when every PROC_STATE row between the mark
-- and :through is one of :msg_ids; run after PipelineLockAcquire in the
-- same transaction (PostgreSQL's twin says why).
MERGE INTO backfill_mark t
USING (
  SELECT 1 AS id, :through AS through_msg_id, :now AS updated_at
  FROM (SELECT NVL((SELECT through_msg_id FROM backfill_mark WHERE id = 1), 0) AS through FROM DUAL) m
  WHERE m.through < :through
    AND (SELECT COUNT(*) FROM proc_state p WHERE p.msg_id > m.through AND p.msg_id <= :through)
      = (SELECT COUNT(*) FROM TABLE(:msg_ids) c WHERE c.COLUMN_VALUE > m.through AND c.COLUMN_VALUE <= :through)
) s
ON (t.id = s.id)
WHEN MATCHED THEN UPDATE SET t.through_msg_id = s.through_msg_id, t.updated_at = s.updated_at
WHEN NOT MATCHED THEN INSERT (id, through_msg_id, updated_at) VALUES (s.id, s.through_msg_id, s.updated_at)

-- name: BackfillMarkPass :exec
-- Shadow mode backfills nothing: the business transaction moves the mark
-- over the messages it finishes. Never back.
MERGE INTO backfill_mark t
USING (SELECT 1 AS id, :through AS through_msg_id, :now AS updated_at FROM DUAL) s
ON (t.id = s.id)
WHEN MATCHED THEN UPDATE SET
  t.through_msg_id = GREATEST(t.through_msg_id, s.through_msg_id),
  t.updated_at = s.updated_at
WHEN NOT MATCHED THEN INSERT (id, through_msg_id, updated_at) VALUES (s.id, s.through_msg_id, s.updated_at)

-- name: PumpStatePause :exec
-- Publishes that the pump is paused on a dependency; the start of a pause
-- already published is kept.
MERGE INTO pump_state t
USING (SELECT 1 AS id, :dependency AS paused_dependency, :reason AS paused_reason,
    :since AS paused_since, :now AS updated_at FROM DUAL) s
ON (t.id = s.id)
WHEN MATCHED THEN UPDATE SET
  t.paused_since = CASE WHEN t.paused_dependency IS NULL THEN s.paused_since ELSE t.paused_since END,
  t.paused_dependency = s.paused_dependency,
  t.paused_reason = s.paused_reason,
  t.updated_at = s.updated_at
WHEN NOT MATCHED THEN INSERT (id, paused_dependency, paused_reason, paused_since, updated_at)
  VALUES (s.id, s.paused_dependency, s.paused_reason, s.paused_since, s.updated_at)

-- name: PumpStateResume :exec
MERGE INTO pump_state t
USING (SELECT 1 AS id, :now AS updated_at FROM DUAL) s
ON (t.id = s.id)
WHEN MATCHED THEN UPDATE SET
  t.paused_dependency = NULL, t.paused_reason = NULL, t.paused_since = NULL, t.updated_at = s.updated_at
WHEN NOT MATCHED THEN INSERT (id, updated_at) VALUES (s.id, s.updated_at)

-- name: PumpStateGet :one
SELECT * FROM pump_state WHERE id = 1

-- name: IngressGapAdd :exec
-- Records a hole the poller gave up (rule 16); a hole recorded before keeps
-- its first record (MERGE with only the NOT MATCHED branch).
MERGE INTO ingress_gap t
USING (SELECT :source AS source, :from_id AS from_id FROM DUAL) s
ON (t.source = s.source AND t.from_id = s.from_id)
WHEN NOT MATCHED THEN INSERT (source, from_id, to_id, seen_at, given_up_at)
  VALUES (s.source, s.from_id, :to_id, :seen_at, :given_up_at)

-- name: IngressGapsSince :many
-- The holes given up since a time, newest first (msgx status).
SELECT * FROM (
  SELECT * FROM ingress_gap
  WHERE given_up_at >= :since
  ORDER BY given_up_at DESC, from_id DESC
) WHERE ROWNUM <= :max_rows

-- name: IngressGapCountSince :one
SELECT COUNT(*) FROM ingress_gap WHERE given_up_at >= :since

-- name: IngressGapPurge :one
-- Retention, with the snapshot log's (snaplog.retention, 90 days by
-- default): holes given up before :before, oldest first, at most
-- :max_rows; count and oldest/newest GIVEN_UP_AT into the OUT binds; with
-- :dry_run 1 nothing is deleted.
DECLARE
  batch SYS.ODCIVARCHAR2LIST;
BEGIN
  SELECT ROWIDTOCHAR(rid) BULK COLLECT INTO batch FROM (
    SELECT g.ROWID AS rid FROM ingress_gap g
    WHERE g.given_up_at < :before
    ORDER BY g.given_up_at, g.source, g.from_id
  ) WHERE ROWNUM <= :max_rows;
  SELECT COUNT(*), MIN(given_up_at), MAX(given_up_at) INTO :affected, :oldest, :newest
  FROM ingress_gap WHERE ROWID IN (SELECT CHARTOROWID(COLUMN_VALUE) FROM TABLE(batch));
  IF :dry_run = 0 THEN
    DELETE FROM ingress_gap WHERE ROWID IN (SELECT CHARTOROWID(COLUMN_VALUE) FROM TABLE(batch));
  END IF;
END;

-- name: LateRowsSince :many
-- The late rows enqueued since a time, live or archived, newest first (msgx
-- status): PROC_STATE_LATE_IX and PROC_STATE_HST_LATE_IX (their expression).
SELECT * FROM (
  SELECT l.msg_id, l.late_after, l.first_seen_at FROM (
    SELECT p.msg_id, p.late_after, p.first_seen_at FROM proc_state p
    WHERE CASE WHEN p.late_after IS NOT NULL THEN p.first_seen_at END >= :since
    UNION ALL
    SELECT h.msg_id, h.late_after, h.first_seen_at FROM proc_state_hst h
    WHERE CASE WHEN h.late_after IS NOT NULL THEN h.first_seen_at END >= :since
  ) l
  ORDER BY l.first_seen_at DESC, l.msg_id DESC
) WHERE ROWNUM <= :max_rows

-- name: LateRowCountSince :one
SELECT (SELECT COUNT(*) FROM proc_state p WHERE CASE WHEN p.late_after IS NOT NULL THEN p.first_seen_at END >= :since)
  + (SELECT COUNT(*) FROM proc_state_hst h WHERE CASE WHEN h.late_after IS NOT NULL THEN h.first_seen_at END >= :since) AS late_rows
FROM DUAL

-- name: IdentityConflictsSince :many
-- The duplicates finished since a time whose raw message differed from their
-- holder's (rule 2), live or archived, newest first (msgx status), each
-- half through its table's duplicate index expression.
SELECT * FROM (
  SELECT c.msg_id, c.duplicate_of, c.finished_at FROM (
    SELECT p.msg_id, p.duplicate_of, p.finished_at FROM proc_state p
    WHERE CASE WHEN p.duplicate_of IS NOT NULL THEN p.finished_at END >= :since
      AND p.reason LIKE '%:content-differs'
    UNION ALL
    SELECT h.msg_id, h.duplicate_of, h.finished_at FROM proc_state_hst h
    WHERE CASE WHEN h.duplicate_of IS NOT NULL THEN h.finished_at END >= :since
      AND h.reason LIKE '%:content-differs'
  ) c
  ORDER BY c.finished_at DESC, c.msg_id DESC
) WHERE ROWNUM <= :max_rows

-- name: IdentityConflictCountSince :one
SELECT (SELECT COUNT(*) FROM proc_state p WHERE CASE WHEN p.duplicate_of IS NOT NULL THEN p.finished_at END >= :since
    AND p.reason LIKE '%:content-differs')
  + (SELECT COUNT(*) FROM proc_state_hst h WHERE CASE WHEN h.duplicate_of IS NOT NULL THEN h.finished_at END >= :since
    AND h.reason LIKE '%:content-differs') AS conflicts
FROM DUAL
