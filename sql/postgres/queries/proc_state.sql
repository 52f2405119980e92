-- name: ProcStateEnqueue :many
-- Enqueues mailbox ids as PENDING and returns the new ones. The primary key
-- makes a rescan harmless: its ON CONFLICT skips an id already queued (a
-- NOT EXISTS probe before it read the key once more per id, issue #34).
-- An id already archived is never enqueued
-- again. A new id smaller than a finished one (live or archived) is a late
-- row (rule 17): late_after keeps the largest such id. That is the largest
-- finished id above the smallest new one when it is above the new id too, so
-- each maximum is one read of the key range above the smallest new id (empty
-- in the usual poll), not a subquery per id (a scan per id when the planner
-- took a young table for empty: O(n²) over a drain). The caller holds
-- PIPELINE_LOCK unless ProcStateEnqueueCheck found every new id above every
-- known one, so no business transaction commits between this check and the
-- insert. The largest archived id from the smallest new one on also bounds
-- the archive's probes: an id above it (every id of the usual poll) is not
-- archived, so only the ids below it are looked up there. MATERIALIZED
-- reads each maximum once (inlined, each use of it is a read of its own).
WITH ids AS (SELECT unnest(@msg_ids::bigint[]) AS id),
finished AS MATERIALIZED (
  SELECT
    (SELECT max(p.msg_id) FROM proc_state p
     WHERE p.msg_id > (SELECT min(id) FROM ids) AND p.status IN ('SUCCEEDED', 'SKIPPED', 'DEAD')) AS live,
    (SELECT max(h.msg_id) FROM proc_state_hst h WHERE h.msg_id >= (SELECT min(id) FROM ids)) AS archived)
INSERT INTO proc_state (msg_id, status, first_seen_at, created_at, updated_at, late_after)
SELECT ids.id, 'PENDING', @now::timestamptz, @now::timestamptz, @now::timestamptz,
  GREATEST(
    CASE WHEN f.live > ids.id THEN f.live END,
    CASE WHEN f.archived > ids.id THEN f.archived END)
FROM ids, finished f
WHERE (f.archived IS NULL OR ids.id > f.archived
    OR NOT EXISTS (SELECT 1 FROM proc_state_hst h WHERE h.msg_id = ids.id))
ON CONFLICT (msg_id) DO NOTHING
RETURNING msg_id, late_after;

-- name: ProcStateEnqueueAbove :many
-- postgres only: ProcStateEnqueue without ON CONFLICT; Oracle's enqueue is a MERGE of the new ids.
-- ProcStateEnqueue for ids ProcStateEnqueueCheck found all new and above
-- every known id (the poll's usual case), a plain insert: none of them is
-- archived (the archive takes finished rows, all below them) nor queued,
-- unless another enqueuer inserted one meanwhile; then the insert fails on
-- the primary key and the caller enqueues them by ProcStateEnqueue. Its ON
-- CONFLICT (a speculative insertion, the key read before the insert)
-- cost about 1.2 µs a row (issue #34). A message above them that finished
-- meanwhile still makes them late (rule 17), read once as there.
WITH ids AS (SELECT unnest(@msg_ids::bigint[]) AS id),
finished AS MATERIALIZED (
  SELECT max(p.msg_id) AS live FROM proc_state p
  WHERE p.msg_id > (SELECT min(id) FROM ids) AND p.status IN ('SUCCEEDED', 'SKIPPED', 'DEAD'))
INSERT INTO proc_state (msg_id, status, first_seen_at, created_at, updated_at, late_after)
SELECT ids.id, 'PENDING', @now::timestamptz, @now::timestamptz, @now::timestamptz,
  CASE WHEN f.live > ids.id THEN f.live END
FROM ids, finished f
RETURNING msg_id, late_after;

-- name: ProcStateEnqueueCheck :one
-- Before an enqueue, without a lock: how many of the ids are new (neither
-- live nor archived), the smallest of them and the largest id known. New
-- ids all above every known id cannot be late nor overtake a run, so they
-- need no PIPELINE_LOCK (the poll's usual case); a rescan of ids already
-- queued needs nothing at all.
-- An id above the largest archived one is not looked up in the archive,
-- nor one above the largest live id in the queue (issue #34: the poll's new
-- ids are above both, and each probe was a B-tree descent per id).
WITH archived AS (SELECT COALESCE(max(h.msg_id), 0) AS top FROM proc_state_hst h),
live AS (SELECT COALESCE(max(p.msg_id), 0) AS top FROM proc_state p)
SELECT count(*) AS new_ids, COALESCE(min(id), 0)::bigint AS min_new,
  GREATEST((SELECT top FROM live), (SELECT top FROM archived))::bigint AS max_known
FROM unnest(@msg_ids::bigint[]) AS id
WHERE (id > (SELECT top FROM archived)
    OR NOT EXISTS (SELECT 1 FROM proc_state_hst h WHERE h.msg_id = id))
  AND (id > (SELECT top FROM live)
    OR NOT EXISTS (SELECT 1 FROM proc_state l WHERE l.msg_id = id));

-- name: ProcStateGetHead :one
-- The queue head: the smallest unfinished MSG_ID. FAILED holds the head too.
SELECT * FROM proc_state
WHERE status IN ('PENDING', 'FAILED')
ORDER BY msg_id
LIMIT 1;

-- name: ProcStateListHead :many
-- The first unfinished messages in order, for running consecutive heads in one commit.
SELECT * FROM proc_state
WHERE status IN ('PENDING', 'FAILED')
ORDER BY msg_id
LIMIT @max_rows;

-- name: ProcStateListRun :many
-- The first unfinished messages in order, with what the pump uses of the
-- messages of a run (store.QueueRun), not the whole row: the status,
-- identity and replay count its finish then expects (ProcStateFinishMany),
-- so the batch transaction reads no row again. With them, in the same
-- snapshot, PIPELINE_LOCK's count of enqueues below the largest known id
-- (0 before the row exists): the batch compares it under the lock, where an
-- id enqueued inside the run's range since this read changed it (a scalar
-- subquery on the single row's key, evaluated once).
SELECT msg_id, status, attempts, first_seen_at, identity_key, replay_count,
  COALESCE((SELECT l.enqueued_below FROM pipeline_lock l WHERE l.id = 1), 0)::bigint AS enqueued_below
FROM proc_state
WHERE status IN ('PENDING', 'FAILED')
ORDER BY msg_id
LIMIT @max_rows;

-- name: ProcStateListPendingAfter :many
-- The ids of the PENDING messages after an id, in order: what the pump reads
-- ahead while it commits the run before them.
SELECT msg_id FROM proc_state
WHERE status = 'PENDING' AND msg_id > @after_msg_id
ORDER BY msg_id
LIMIT @max_rows;

-- name: ProcStateGet :one
SELECT * FROM proc_state WHERE msg_id = @msg_id;

-- name: ProcStateGetManyForUpdate :many
-- Re-checks a message settled alone inside its business transaction and
-- locks it, reading what that transaction uses of a row (store.LockMessages):
-- its status, the identity bound before, the replay count. (A batch locks
-- nothing: its finish checks the rows it read, ProcStateFinishMany.)
SELECT msg_id, status, identity_key, replay_count FROM proc_state
WHERE msg_id = ANY(@msg_ids::bigint[]) ORDER BY msg_id FOR UPDATE;

-- name: ProcStateFindIdentities :many
-- Who holds these identity keys, live or archived (archived rows still
-- deduplicate), with the digest of each holder's raw message (rule 2). Each
-- key probes both unique indexes in turn (a LATERAL join on the key): a
-- UNION ALL of two key-list scans became a Parallel Append once the archive
-- held a year (issue #35), and starting its workers cost 70 ms per run of
-- 1 000 keys under load, where the probes take 2-7 ms. A plan driven by a
-- key list is never parallel, whatever the sizes and statistics.
SELECT x.identity_key::varchar AS identity_key, x.msg_id, x.raw_digest
FROM unnest(sqlc.arg(identity_keys)::varchar[]) AS k(identity_key)
CROSS JOIN LATERAL (
  SELECT p.identity_key, p.msg_id, p.raw_digest FROM proc_state p
  WHERE p.identity_key = k.identity_key AND p.duplicate_of IS NULL
  UNION ALL
  SELECT h.identity_key, h.msg_id, h.raw_digest FROM proc_state_hst h
  WHERE h.identity_key = k.identity_key AND h.duplicate_of IS NULL) x;

-- name: ProcStateRecordFailure :one
-- Records a failed attempt: FAILED with the backoff the caller computed; the
-- first failure of a series starts the head-deadline. The kind and META the
-- message decoded to are bound when given (NULL keeps what is bound), so an
-- exhausted message is still backfilled with its META. Written only while
-- the row is unfinished at the replay count the attempt read: a replay
-- committed since asked for a fresh start (attempts 0), which the old
-- attempt's failure must not overwrite (no row back: store.ErrStale).
UPDATE proc_state SET
  status = 'FAILED',
  attempts = attempts + 1,
  failing_since = COALESCE(failing_since, @now),
  kind = COALESCE(sqlc.narg(kind), kind),
  msg_type = COALESCE(sqlc.narg(msg_type), msg_type),
  msg_subtype = COALESCE(sqlc.narg(msg_subtype), msg_subtype),
  meta_sndr = COALESCE(sqlc.narg(meta_sndr), meta_sndr),
  meta_seqn = COALESCE(sqlc.narg(meta_seqn), meta_seqn),
  meta_dttm_raw = COALESCE(sqlc.narg(meta_dttm_raw), meta_dttm_raw),
  meta_dttm = COALESCE(sqlc.narg(meta_dttm), meta_dttm),
  error_class = @error_class,
  reason = @reason,
  next_attempt_at = @next_attempt_at,
  updated_at = @now
WHERE msg_id = @msg_id AND status IN ('PENDING', 'FAILED')
  AND replay_count = @read_replay_count
RETURNING attempts;

-- name: ProcStateCountBacklogAndDead :many
-- For status and metrics: the backlog (PENDING, FAILED) and the live dead
-- letters, by status and class. Each half reads only its partial index's
-- rows (proc_state_head_ix, proc_state_dead_ix: the DEAD half without the
-- table), never the week of SUCCEEDED and SKIPPED rows, which nothing counts
-- live (issue #35: they made every scrape read all of PROC_STATE).
SELECT status, COALESCE(error_class, '')::varchar AS error_class, count(*) AS messages
FROM proc_state
WHERE status IN ('PENDING', 'FAILED')
GROUP BY status, error_class
UNION ALL
SELECT 'DEAD'::varchar, COALESCE(error_class, '')::varchar, count(*)
FROM proc_state
WHERE status = 'DEAD'
GROUP BY error_class
ORDER BY 1, 2;

-- name: ProcStateListDead :many
-- Dead letters, paged by MSG_ID, optionally of one class.
SELECT * FROM proc_state
WHERE status = 'DEAD'
  AND msg_id > @after_msg_id
  AND (sqlc.narg(error_class)::varchar IS NULL OR error_class = sqlc.narg(error_class))
ORDER BY msg_id
LIMIT @page_size;

-- name: ProcStateArchive :one
-- Moves terminal rows finished before a cut-off, whose backfill is done (at
-- or below the backfill mark, no todo), to the archive in one statement
-- (bounded batch, oldest first). The status is
-- checked again on the row deleted: a replay may have moved it back to
-- PENDING meanwhile. With @dry_run only counts. Oldest/newest: FINISHED_AT.
WITH doomed AS (
  SELECT s.msg_id, s.finished_at FROM proc_state s
  WHERE s.status IN ('SUCCEEDED', 'SKIPPED', 'DEAD')
    AND s.finished_at < @finished_before::timestamptz
    AND s.msg_id <= (SELECT COALESCE((SELECT m.through_msg_id FROM backfill_mark m WHERE m.id = 1), 0))
    AND NOT EXISTS (SELECT 1 FROM backfill_todo b WHERE b.msg_id = s.msg_id)
  ORDER BY s.msg_id
  LIMIT @max_rows
), moved AS (
  DELETE FROM proc_state p USING doomed d
  WHERE p.msg_id = d.msg_id AND p.status IN ('SUCCEEDED', 'SKIPPED', 'DEAD') AND NOT @dry_run::boolean
  RETURNING p.*
), archived AS (
  INSERT INTO proc_state_hst (
    msg_id, status, identity_key, kind, msg_type, msg_subtype, meta_sndr, meta_seqn,
    meta_dttm_raw, meta_dttm, attempts, first_seen_at, error_class, reason, duplicate_of,
    replay_count, prev_error_class, prev_reason, finished_at, created_at, archived_at, late_after, raw_digest)
  SELECT
    msg_id, status, identity_key, kind, msg_type, msg_subtype, meta_sndr, meta_seqn,
    meta_dttm_raw, meta_dttm, attempts, first_seen_at, error_class, reason, duplicate_of,
    replay_count, prev_error_class, prev_reason, finished_at, created_at, @now, late_after, raw_digest
  FROM moved
  RETURNING 1
)
SELECT count(*) AS affected, min(d.finished_at) AS oldest, max(d.finished_at) AS newest,
  (SELECT count(*) FROM archived) AS moved
FROM doomed d;

-- name: ProcStateHstGet :one
SELECT * FROM proc_state_hst WHERE msg_id = @msg_id;

-- name: ProcStateShiftDeadlines :execrows
-- Moves the head-deadline's start of FAILED messages forward by a pause of
-- the pump (rule 14: an outage runs no deadline): a failure series that
-- began before the pause keeps the time it had left.
UPDATE proc_state
SET failing_since = failing_since + (sqlc.arg(resumed_at)::timestamptz - sqlc.arg(paused_since)::timestamptz),
    updated_at = sqlc.arg(resumed_at)::timestamptz
WHERE status = 'FAILED' AND failing_since < sqlc.arg(paused_since)::timestamptz;
