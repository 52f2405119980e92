-- name: PipelineLockAcquire :one
-- Takes the PIPELINE_LOCK row lock for the rest of the transaction. An upsert,
-- so it works on a fresh database without seeding the row. It returns the
-- count of enqueues below the largest known id as committed before the lock
-- was granted: the pump compares it with its run's (ProcStateListRun).
INSERT INTO pipeline_lock (id, locked_at) VALUES (1, @now)
ON CONFLICT (id) DO UPDATE SET locked_at = EXCLUDED.locked_at
RETURNING enqueued_below;

-- name: PipelineLockEnqueueBelow :exec
-- PipelineLockAcquire for an enqueue of an id below the largest known one:
-- it also counts the enqueue, in the enqueue's transaction, so a run read
-- before it commits sees another count under the lock and is abandoned (an
-- id may have entered inside the run's range, where the head check does
-- not look).
INSERT INTO pipeline_lock (id, locked_at, enqueued_below) VALUES (1, @now, 1)
ON CONFLICT (id) DO UPDATE SET locked_at = EXCLUDED.locked_at,
  enqueued_below = pipeline_lock.enqueued_below + 1;

-- name: IngressMarkGet :one
SELECT last_id FROM ingress_mark WHERE source = @source;

-- name: IngressMarkAdvance :exec
-- Moves the watermark forward, never back.
INSERT INTO ingress_mark (source, last_id, updated_at) VALUES (@source, @last_id, @now)
ON CONFLICT (source) DO UPDATE SET
  last_id = GREATEST(ingress_mark.last_id, EXCLUDED.last_id),
  updated_at = EXCLUDED.updated_at;

-- name: BackfillTodoListDue :many
-- The due todos, each with the status of msgx's own earlier backfill it may
-- overwrite (rule 18): DEAD when its message was replayed (a replayed
-- message may have been backfilled DEAD before), else empty. A message is
-- never archived while its todo waits, so PROC_STATE has it. Its row is
-- read by the primary key for each todo listed (a scalar subquery), never
-- by a join the planner may run as a scan of PROC_STATE: on statistics
-- taken before the drain it compared every todo with every message (issue
-- #35).
SELECT b.*, (CASE WHEN (SELECT p.replay_count FROM proc_state p WHERE p.msg_id = b.msg_id) > 0
  THEN 'DEAD' ELSE '' END)::varchar AS overwrites_status
FROM backfill_todo b
WHERE b.next_attempt_at <= @now
ORDER BY b.msg_id
LIMIT @max_rows;

-- name: BackfillTodoGet :one
SELECT * FROM backfill_todo WHERE msg_id = @msg_id;

-- name: BackfillTodoDelete :execrows
-- Deletes the todos backfilled, each only under the registration that was
-- backfilled: one a replay registered meanwhile stays (rule 18).
DELETE FROM backfill_todo b
USING (SELECT unnest(@msg_ids::bigint[]) AS msg_id, unnest(@registrations::bigint[]) AS registration) d
WHERE b.msg_id = d.msg_id AND b.registration = d.registration;

-- name: BackfillTodoRecordFailure :exec
-- Counts a failed backfill and defers it to @next_attempt_at. A todo is
-- deferred only under the registration read: a replay's newer todo is left
-- alone (rule 18). A backfill the mark covered (no todo) gets its todo now,
-- with the failure counted, so the mark may pass it.
INSERT INTO backfill_todo (
  msg_id, mailbox_status, processed_at, meta_sndr, meta_seqn, meta_dttm, meta_type, meta_styp,
  attempts, next_attempt_at, last_error, created_at, registration)
VALUES (@msg_id, @mailbox_status, @processed_at, sqlc.narg(meta_sndr), sqlc.narg(meta_seqn), sqlc.narg(meta_dttm),
  sqlc.narg(meta_type), sqlc.narg(meta_styp), 1, @next_attempt_at, sqlc.narg(last_error), @processed_at, @registration)
ON CONFLICT (msg_id) DO UPDATE SET
  attempts = backfill_todo.attempts + 1,
  next_attempt_at = EXCLUDED.next_attempt_at,
  last_error = EXCLUDED.last_error
WHERE backfill_todo.registration = EXCLUDED.registration;

-- name: BackfillMarkGet :one
-- The backfill mark (0 before it first moves). The business transaction
-- reads it under the PIPELINE_LOCK, which BackfillMarkAdvance waits for.
SELECT COALESCE((SELECT through_msg_id FROM backfill_mark WHERE id = 1), 0)::bigint AS through_msg_id;

-- name: BackfillUnmarked :many
-- The messages above the mark in MSG_ID order, up to the first unfinished
-- one that is no replay: messages finish in order, so every row before it
-- is terminal, or a replay, which registers a todo when it finishes again
-- and does not hold the mark. The stop is found on proc_state_head_ix.
SELECT p.msg_id, p.status, p.finished_at, p.replay_count,
  p.meta_sndr, p.meta_seqn, p.meta_dttm, p.msg_type, p.msg_subtype
FROM proc_state p
WHERE p.msg_id > @after::bigint
  AND p.msg_id < COALESCE((SELECT min(h.msg_id) FROM proc_state h
    WHERE h.status IN ('PENDING', 'FAILED') AND h.replay_count = 0 AND h.msg_id > @after::bigint),
    9223372036854775807)
ORDER BY p.msg_id
LIMIT @max_rows;

-- name: BackfillMarkAdvance :execrows
-- Moves the mark up to @through when every PROC_STATE row between the mark
-- and @through is one of @msg_ids (backfilled, or given a todo, by the
-- caller): the counts compare, as a row above the mark is never archived.
-- Run after PipelineLockAcquire in the same transaction: a late row
-- enqueued and finished after the caller read its rows (its business
-- transaction read the old mark, so it registered no todo) has then
-- committed and is counted, and the mark stays (docs/design.md §1.4).
WITH m AS (SELECT COALESCE((SELECT through_msg_id FROM backfill_mark WHERE id = 1), 0) AS through)
INSERT INTO backfill_mark (id, through_msg_id, updated_at)
SELECT 1, @through::bigint, @now::timestamptz FROM m
WHERE m.through < @through::bigint
  AND (SELECT count(*) FROM proc_state p WHERE p.msg_id > m.through AND p.msg_id <= @through::bigint)
    = (SELECT count(*) FROM unnest(@msg_ids::bigint[]) c(id) WHERE c.id > m.through AND c.id <= @through::bigint)
ON CONFLICT (id) DO UPDATE SET through_msg_id = EXCLUDED.through_msg_id, updated_at = EXCLUDED.updated_at;

-- name: BackfillMarkPass :exec
-- Shadow mode backfills nothing: the business transaction moves the mark
-- over the messages it finishes, so they are not outstanding and may be
-- archived. Never back.
INSERT INTO backfill_mark (id, through_msg_id, updated_at) VALUES (1, @through, @now)
ON CONFLICT (id) DO UPDATE SET
  through_msg_id = GREATEST(backfill_mark.through_msg_id, EXCLUDED.through_msg_id),
  updated_at = EXCLUDED.updated_at;

-- name: PumpStatePause :exec
-- Publishes that the pump is paused on a dependency; the start of a pause
-- already published is kept.
INSERT INTO pump_state (id, paused_dependency, paused_reason, paused_since, updated_at)
VALUES (1, @dependency, @reason, @since, @now)
ON CONFLICT (id) DO UPDATE SET
  paused_since = CASE WHEN pump_state.paused_dependency IS NULL THEN EXCLUDED.paused_since ELSE pump_state.paused_since END,
  paused_dependency = EXCLUDED.paused_dependency,
  paused_reason = EXCLUDED.paused_reason,
  updated_at = EXCLUDED.updated_at;

-- name: PumpStateResume :exec
-- Publishes that the pump runs.
INSERT INTO pump_state (id, updated_at) VALUES (1, @now)
ON CONFLICT (id) DO UPDATE SET
  paused_dependency = NULL, paused_reason = NULL, paused_since = NULL, updated_at = EXCLUDED.updated_at;

-- name: PumpStateGet :one
SELECT * FROM pump_state WHERE id = 1;

-- name: IngressGapAdd :exec
-- Records a hole the poller gave up (rule 16); a hole recorded before (a
-- restart gave it up again) keeps its first record.
INSERT INTO ingress_gap (source, from_id, to_id, seen_at, given_up_at)
VALUES (@source, @from_id, @to_id, @seen_at, @given_up_at)
ON CONFLICT (source, from_id) DO NOTHING;

-- name: IngressGapsSince :many
-- The holes given up since a time, newest first (msgx status).
SELECT * FROM ingress_gap
WHERE given_up_at >= @since
ORDER BY given_up_at DESC, from_id DESC
LIMIT @max_rows;

-- name: IngressGapCountSince :one
SELECT count(*) FROM ingress_gap WHERE given_up_at >= @since;

-- name: IngressGapPurge :one
-- Retention, with the snapshot log's (snaplog.retention, 90 days by
-- default): holes given up before the cut-off, oldest first, at most
-- @max_rows; with @dry_run only counts. Oldest/newest: GIVEN_UP_AT.
WITH doomed AS (
  SELECT g.source, g.from_id, g.given_up_at FROM ingress_gap g
  WHERE g.given_up_at < @before::timestamptz
  ORDER BY g.given_up_at, g.source, g.from_id
  LIMIT @max_rows
), gone AS (
  DELETE FROM ingress_gap g USING doomed d
  WHERE g.source = d.source AND g.from_id = d.from_id AND NOT @dry_run::boolean
  RETURNING g.from_id
)
SELECT count(*) AS affected, min(d.given_up_at) AS oldest, max(d.given_up_at) AS newest,
  (SELECT count(*) FROM gone) AS deleted
FROM doomed d;

-- name: LateRowsSince :many
-- The late rows enqueued since a time, live or archived, newest first (msgx status).
SELECT l.msg_id, l.late_after, l.first_seen_at FROM (
  SELECT p.msg_id, p.late_after, p.first_seen_at FROM proc_state p
  WHERE p.late_after IS NOT NULL AND p.first_seen_at >= sqlc.arg(since)::timestamptz
  UNION ALL
  SELECT h.msg_id, h.late_after, h.first_seen_at FROM proc_state_hst h
  WHERE h.late_after IS NOT NULL AND h.first_seen_at >= sqlc.arg(since)::timestamptz
) l
ORDER BY l.first_seen_at DESC, l.msg_id DESC
LIMIT sqlc.arg(max_rows);

-- name: LateRowCountSince :one
SELECT ((SELECT count(*) FROM proc_state p WHERE p.late_after IS NOT NULL AND p.first_seen_at >= sqlc.arg(since)::timestamptz)
  + (SELECT count(*) FROM proc_state_hst h WHERE h.late_after IS NOT NULL AND h.first_seen_at >= sqlc.arg(since)::timestamptz))::bigint AS late_rows;

-- name: IdentityConflictsSince :many
-- The duplicates finished since a time whose raw message differed from their
-- holder's (rule 2), live or archived, newest first (msgx status). Both
-- halves read their table's duplicates finished since then only
-- (proc_state_duplicate_ix, proc_state_hst_duplicate_ix), not a day of
-- archive.
SELECT c.msg_id, c.duplicate_of, c.finished_at FROM (
  SELECT p.msg_id, p.duplicate_of, p.finished_at FROM proc_state p
  WHERE p.duplicate_of IS NOT NULL AND p.finished_at >= sqlc.arg(since)::timestamptz
    AND p.reason LIKE '%:content-differs'
  UNION ALL
  SELECT h.msg_id, h.duplicate_of, h.finished_at FROM proc_state_hst h
  WHERE h.duplicate_of IS NOT NULL AND h.finished_at >= sqlc.arg(since)::timestamptz
    AND h.reason LIKE '%:content-differs'
) c
ORDER BY c.finished_at DESC, c.msg_id DESC
LIMIT sqlc.arg(max_rows);

-- name: IdentityConflictCountSince :one
SELECT ((SELECT count(*) FROM proc_state p WHERE p.duplicate_of IS NOT NULL
    AND p.finished_at >= sqlc.arg(since)::timestamptz AND p.reason LIKE '%:content-differs')
  + (SELECT count(*) FROM proc_state_hst h WHERE h.duplicate_of IS NOT NULL
    AND h.finished_at >= sqlc.arg(since)::timestamptz AND h.reason LIKE '%:content-differs'))::bigint AS conflicts;
